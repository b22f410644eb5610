/**
 * Review gaps of issue 3 (findings): a stray seq_index file above the safe index, and bucket keys
 * whose `$INDEX` is beyond 2^53.
 */
import { describe, expect, it } from 'vitest';
import { commandsOf } from '../../support/commands';
import { diagnose } from '../../../electron/engine/diagnose';
import type { Diagnosis } from '../../../shared/model';
import { conf, evidence, report, root, seq } from './build-report';

const find = (d: Diagnosis, code: string, i = 0) => d.outputs[i].findings.find((f) => f.code === code);
const at = new Date('2026-11-29T20:00:00Z');
const segments = (n: number): [string, string][] => Array.from({ length: n }, (_, i) => [`a/${i}`, '2026-11-29T10:00:00Z']);

describe('OUTPUT_ID_MISMATCH with a stray seq_index above the safe index', () => {
  it('the safe next index includes the stray value, and every recommended repair writes it', async () => {
    // outputs reordered: the S3 output was id 0 (seq_index_0 = 42), is now id 1; the bucket shows only 0–9
    const config = await conf('name stdout', 'name s3; bucket b; s3_key_format /a/$INDEX');
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 42)] })), config, evidence: { 1: evidence(segments(10)) }, at });
    expect(d.outputs[0]).toMatchObject({ id: 1, highestIndexInBucket: 9, safeNextIndex: 42 });
    const f = find(d, 'OUTPUT_ID_MISMATCH')!;
    expect(commandsOf(f)).toMatch(/repair-index .*--apply/);
    expect(f.action).toMatch(/safe next index 42/);
    expect(f.evidence.join('\n')).toMatch(/the next index \(at least 42\) includes seq_index_0 = 42/);
    // the other findings agree on the value
    expect(find(d, 'INDEX_FILE_MISSING')!.action).toMatch(/set seq_index_1 to 42/);
  });

  it('a stray value below the bucket changes nothing', async () => {
    const config = await conf('name stdout', 'name s3; bucket b; s3_key_format /a/$INDEX');
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 3)] })), config, evidence: { 1: evidence(segments(10)) }, at });
    expect(d.outputs[0]).toMatchObject({ safeNextIndex: 10 });
    expect(find(d, 'OUTPUT_ID_MISMATCH')!.evidence.join('\n')).not.toMatch(/includes seq_index_0/);
  });

  it('an output that has its own seq_index file is not raised by a stray one', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /a/$INDEX');
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 12), seq(5, 99)] })), config, evidence: { 0: evidence(segments(10)) }, at });
    expect(d.outputs[0]).toMatchObject({ persistedNextIndex: 12, safeNextIndex: 12 });
    expect(find(d, 'OUTPUT_ID_MISMATCH')!.severity).toBe('warning');
  });
});

describe('bucket keys with $INDEX beyond 2^53', () => {
  it('highestIndexInBucket does not ignore them: exact text, a finding, and no value a repair could write', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /a/$INDEX');
    const keys: [string, string][] = [...segments(3), ['a/9007199254740993', '2026-11-29T11:00:00Z']];
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 3)] })), config, evidence: { 0: evidence(keys) }, at });
    const o = d.outputs[0];
    expect(o.highestIndexInBucketText).toBe('9007199254740993');
    expect(o.lowerBoundNextIndexText).toBe('9007199254740994');
    // the numbers are never below the exact values, and are not safe integers: nothing Store Doctor
    // writes, so no safe next index is claimed at all
    expect(o.highestIndexInBucket!).toBeGreaterThanOrEqual(9007199254740992);
    expect(BigInt(o.lowerBoundNextIndex)).toBeGreaterThanOrEqual(9007199254740994n);
    expect(Number.isSafeInteger(o.lowerBoundNextIndex)).toBe(false);
    expect(o.safeNextIndex).toBeNull();
    const f = find(d, 'INDEX_BEYOND_EXACT_RANGE')!;
    expect(f.severity).toBe('error');
    expect(f.evidence.join('\n')).toContain('a/9007199254740993');
    expect(f.action).toContain('9007199254740994');
    const behind = find(d, 'INDEX_BEHIND_BUCKET')!;
    expect(behind.summary).toContain('9007199254740993');
    expect(behind.action).not.toMatch(/to write \d+/);
    // the key stays in the format: not counted as foreign, not in the timeline
    expect(o.timeline.map((p) => p.index)).toEqual([0, 1, 2]);
  });

  it('two different huge indices are not taken for a reused one', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /a/$INDEX');
    const keys: [string, string][] = [
      ['a/9007199254740993', '2026-11-29T11:00:00Z'],
      ['a/9007199254740992', '2026-11-29T10:00:00Z'],
    ];
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 3)] })), config, evidence: { 0: evidence(keys) }, at });
    expect(find(d, 'INDEX_REUSED')).toBeUndefined();
    expect(d.outputs[0].highestIndexInBucketText).toBe('9007199254740993');
  });
});

describe('a seq_index file above 2^53', () => {
  it('is read by Fluent Bit, so it is not INDEX_FILE_UNREADABLE; an empty file still is', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /a/$INDEX');
    const huge = {
      ...seq(0, null),
      raw: '18446744073709551615',
      fileSize: 20,
      valueText: '18446744073709551615',
      status: 'ok' as const,
      message: 'Fluent Bit continues at index 18446744073709551615.',
    };
    const d = diagnose({ report: report(root('b', { seqIndex: [huge] })), config, evidence: { 0: evidence(segments(3)) }, at });
    expect(find(d, 'INDEX_FILE_UNREADABLE')).toBeUndefined();
    const empty = diagnose({ report: report(root('b', { seqIndex: [seq(0, null, 'empty')] })), config, evidence: { 0: evidence(segments(3)) }, at });
    expect(find(empty, 'INDEX_FILE_UNREADABLE')!.severity).toBe('critical');
  });

  it('its exact value is reported and bounds the next index (not dropped to null and 0)', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /a/$INDEX');
    const huge = { ...seq(0, null), raw: '9007199254740995', fileSize: 16, valueText: '9007199254740995', status: 'ok' as const, message: '' };
    const d = diagnose({ report: report(root('b', { seqIndex: [huge] })), config, evidence: { 0: evidence(segments(3)) }, at });
    const o = d.outputs[0];
    expect(o.persistedNextIndex).toBeNull();
    expect(o.persistedNextIndexText).toBe('9007199254740995');
    expect(o.lowerBoundNextIndexText).toBe('9007199254740995');
    expect(BigInt(o.lowerBoundNextIndex) >= 9007199254740995n).toBe(true);
    expect(o.safeNextIndex).toBeNull();
  });
});
