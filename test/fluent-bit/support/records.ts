/**
 * Records as JSON lines, in chunk content and in uploaded objects. A record is identified by its
 * exact line text (`{"date":"…","run":"…","tag":"…",…}`): dummy stamps each record with its own
 * time, so two equal lines mean one record stored twice.
 */
import { gunzipSync } from 'node:zlib';

export interface JsonLines {
  /** Every parsed line, NUL bytes removed, in order. */
  records: string[];
  /** NUL bytes found (zero padding that was uploaded or would be). */
  nulBytes: number;
  /** Lines that are not JSON (after removing NULs), with their index. */
  bad: string[];
}

export function parseJsonLines(buf: Buffer): JsonLines {
  let nulBytes = 0;
  for (const b of buf) if (b === 0) nulBytes++;
  const text = (nulBytes ? Buffer.from(buf.filter((b) => b !== 0)) : buf).toString('utf8');
  const records: string[] = [];
  const bad: string[] = [];
  for (const l of text.split('\n')) {
    if (!l.trim()) continue;
    try {
      JSON.parse(l);
      records.push(l);
    } catch {
      bad.push(l.length > 120 ? `${l.slice(0, 120)}…` : l);
    }
  }
  return { records, nulBytes, bad };
}

/** Object body → its JSON lines; gzip (Content-Encoding or magic bytes) is undone first. */
export function objectLines(body: Buffer, contentEncoding?: string): JsonLines & { gzip: boolean } {
  const gzip = contentEncoding === 'gzip' || (body.length > 2 && body[0] === 0x1f && body[1] === 0x8b);
  return { ...parseJsonLines(gzip ? gunzipSync(body) : body), gzip };
}

export interface Tally {
  /** line → how many times it was seen */
  counts: Map<string, number>;
  total: number;
}

export function tally(lines: Iterable<string>): Tally {
  const counts = new Map<string, number>();
  let total = 0;
  for (const l of lines) {
    counts.set(l, (counts.get(l) ?? 0) + 1);
    total++;
  }
  return { counts, total };
}

/** Lines of `t` seen more than once. */
export function duplicates(t: Tally): string[] {
  return [...t.counts].filter(([, n]) => n > 1).map(([l]) => l);
}

/** `{"run":"r1","tag":"app.web",…}` → `app.web`; the tag field our configs put in every record. */
export function recordTag(line: string): string | undefined {
  try {
    return (JSON.parse(line) as { tag?: string }).tag;
  } catch {
    return undefined;
  }
}
