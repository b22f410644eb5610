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
 * 0 objects of `before` overwritten, each of `expected` in the bucket exactly once, and no record
 * stored twice at all.
 */
export async function expectNothingLost(
  lab: Lab,
  before: BucketSnapshot,
  expected: Iterable<string>,
  label: string,
  opts: { dataKey?: (key: string) => boolean } = {},
): Promise<EndState> {
  const after = await lab.snapshot();
  const ow = overwritten(before, after).map((o) => `${o.key}: ${o.why}`);
  expect.soft(ow, `${label}: objects overwritten`).toEqual([]);
  const records = await bucketRecords(lab, opts.dataKey);
  const eo = exactlyOnce(expected, records.tally);
  expect.soft(eo.missing.length + eo.duplicated.length + eo.anyDuplicate.length, `${label}: ${describeExactlyOnce(eo)}`).toBe(0);
  expect.soft(records.badLines, `${label}: lines in objects that are not JSON`).toEqual([]);
  return { after, records };
}

/** Fluent Bit's log of this run says `Continuing at index=<index>`. */
export function expectContinuesAt(p: FluentBitProcess, index: number | null, label: string): void {
  expect.soft(continuingAt(p), `${label}: "Continuing at index=" in Fluent Bit's log (wanted ${index})\n${p.tail(15)}`).toBe(index);
}
