/** The scenario end checks as vitest expectations (soft, so one run reports every broken check). */
import { expect } from 'vitest';
import { overwritten, type BucketSnapshot } from './bucket';
import { bucketRecords, continuingAt, describeExactlyOnce, exactlyOnce, type BucketRecords } from './checks';
import type { Lab } from './lab';
import type { FluentBitProcess } from './process';

export interface EndState {
  after: BucketSnapshot;
  records: BucketRecords;
}

/**
 * 0 objects of `before` overwritten, each of `expected` in the bucket exactly once, no record
 * stored twice at all, and every line of every object JSON — except lines in `tornInStore`: lines
 * that were already torn in the buffer chunks before this run (a SIGKILL in the middle of Fluent
 * Bit's own write), which Fluent Bit then uploads as they are. Those are logged, not hidden.
 */
export async function expectNothingLost(
  lab: Lab,
  before: BucketSnapshot,
  expected: Iterable<string>,
  label: string,
  opts: { dataKey?: (key: string) => boolean; tornInStore?: string[] } = {},
): Promise<EndState> {
  const after = await lab.snapshot();
  const ow = overwritten(before, after).map((o) => `${o.key}: ${o.why}`);
  expect.soft(ow, `${label}: objects overwritten`).toEqual([]);
  const records = await bucketRecords(lab, opts.dataKey);
  const eo = exactlyOnce(expected, records.tally);
  expect.soft(eo.missing.length + eo.duplicated.length + eo.anyDuplicate.length, `${label}: ${describeExactlyOnce(eo)}`).toBe(0);
  const torn = new Set(opts.tornInStore ?? []);
  const fromTorn = records.badLines.filter((l) => torn.has(l.slice(l.indexOf(': ') + 2)));
  if (fromTorn.length)
    console.log(`${label}: ${fromTorn.length} line(s) torn in the buffer before this run, uploaded by Fluent Bit as they were:\n  ${fromTorn.join('\n  ')}`);
  expect
    .soft(
      records.badLines.filter((l) => !fromTorn.includes(l)),
      `${label}: lines in objects that are not JSON`,
    )
    .toEqual([]);
  return { after, records };
}

/** Fluent Bit's log of this run says `Continuing at index=<index>`. */
export function expectContinuesAt(p: FluentBitProcess, index: number | null, label: string): void {
  expect.soft(continuingAt(p), `${label}: "Continuing at index=" in Fluent Bit's log (wanted ${index})\n${p.tail(15)}`).toBe(index);
}
