/**
 * The three checks every scenario ends with:
 *   - objects overwritten between two bucket snapshots (must be 0),
 *   - every buffered record in the bucket exactly once (and no record twice at all),
 *   - the next start continues at the index the tool wrote (Fluent Bit's own log line).
 */
import type { Lab } from './lab';
import type { FluentBitProcess } from './process';
import { duplicates, tally, type Tally } from './records';
import { dataChunks, type StoreFacts } from './store';
import type { ObjectRecords } from './bucket';

/** Every record line in the current objects, with the NUL bytes they carry. */
export interface BucketRecords {
  objects: ObjectRecords[];
  tally: Tally;
  nulBytes: number;
  badLines: string[];
}

/** `dataKey` leaves out objects that are not Fluent Bit data (e.g. the tool's manifest.json). */
export async function bucketRecords(lab: Lab, dataKey: (key: string) => boolean = () => true): Promise<BucketRecords> {
  const objects = (await lab.objects()).filter((o) => dataKey(o.key));
  return {
    objects,
    tally: tally(objects.flatMap((o) => o.records)),
    nulBytes: objects.reduce((a, o) => a + o.nulBytes, 0),
    badLines: objects.flatMap((o) => o.bad.map((b) => `${o.key}: ${b}`)),
  };
}

/** Record lines of every data chunk (old streams, the newest stream, quarantine). */
export function storeRecords(s: StoreFacts): string[] {
  return dataChunks(s).flatMap((c) => c.lines?.records ?? []);
}

export interface ExactlyOnce {
  expected: number;
  missing: string[];
  /** Expected records seen more than once. */
  duplicated: string[];
  /** Any record (expected or not) seen more than once. */
  anyDuplicate: string[];
}

/** Each of `expected` exactly once in `seen`; also lists every line `seen` holds twice. */
export function exactlyOnce(expected: Iterable<string>, seen: Tally): ExactlyOnce {
  const want = new Set(expected);
  const missing: string[] = [];
  const duplicated: string[] = [];
  for (const l of want) {
    const n = seen.counts.get(l) ?? 0;
    if (n === 0) missing.push(l);
    else if (n > 1) duplicated.push(l);
  }
  return { expected: want.size, missing, duplicated, anyDuplicate: duplicates(seen) };
}

/** Short text for an assertion message. */
export function describeExactlyOnce(r: ExactlyOnce): string {
  const s = (a: string[]) => a.slice(0, 3).join('\n    ');
  return `${r.expected} expected records: ${r.missing.length} missing, ${r.duplicated.length} duplicated, ${r.anyDuplicate.length} lines stored twice${r.missing.length ? `\n  missing e.g.:\n    ${s(r.missing)}` : ''}${r.anyDuplicate.length ? `\n  twice e.g.:\n    ${s(r.anyDuplicate)}` : ''}`;
}

/** `Continuing at index=N` of this run, or null when the run logged none. */
export function continuingAt(p: FluentBitProcess): number | null {
  const m = /Continuing at index=(\d+)/.exec(p.log());
  return m ? Number(m[1]) : null;
}

/** `<tag>/<Y>/<m>/<d>/<index>` (the suite's key format) → index; null for other keys. */
export function keyIndex(key: string): number | null {
  const m = /^[^/]+\/\d{4}\/\d{2}\/\d{2}\/(\d+)$/.exec(key);
  return m ? Number(m[1]) : null;
}

export function highestIndex(keys: Iterable<string>): number | null {
  let hi: number | null = null;
  for (const k of keys) {
    const i = keyIndex(k);
    if (i !== null && (hi === null || i > hi)) hi = i;
  }
  return hi;
}

/** Keys Fluent Bit logged as uploaded in this run (leading slash dropped). */
export function uploadedKeys(p: FluentBitProcess): string[] {
  return p.matches(/Successfully uploaded object (\S+)/g).map((m) => m[1].replace(/^\//, ''));
}
