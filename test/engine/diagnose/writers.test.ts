/**
 * COLLISION_ACROSS_NODES from a listing (issue 20 item 4): keys of one output from several writers,
 * each with its own $INDEX counter, for a key format with no node-unique part. Generated listings:
 * two nodes with interleaved counters (named by the tag their keys carry, or from versions when
 * the keys are the same), and the look-alikes that must not be called several writers: one writer
 * with a reset (with and without a deleted key), one writer whose multipart uploads of two tags
 * complete out of order, a format with $UUID, and a plain listing where overwrites hide the writers.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../electron/engine/diagnose';
import type { Diagnosis, S3Evidence } from '../../../shared/model';
import { conf, evidence, report, root, seq } from './build-report';

const codes = (d: Diagnosis) => d.outputs[0].findings.map((f) => f.code);
const find = (d: Diagnosis, code: string) => d.outputs[0].findings.find((f) => f.code === code);
const T0 = Date.parse('2026-11-29T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const at = new Date('2026-11-29T14:00:00Z');

/** One writer: `n` uploads, one a minute from `start` (ms after T0), indices from `first`. */
function writer(key: (i: number) => string, n: number, start: number, first = 0): [string, string][] {
  return Array.from({ length: n }, (_, k) => [key(first + k), iso(T0 + start + k * 60_000)]);
}

function versionsOf(keys: [string, string][]): S3Evidence['versions'] {
  const latest = new Map<string, string>();
  for (const [k, t] of keys) if (!latest.has(k) || latest.get(k)! < t) latest.set(k, t);
  return keys.map(([key, t], i) => ({ key, versionId: `v${i}`, lastModified: t, isLatest: latest.get(key) === t, isDeleteMarker: false, size: 1, etag: null }));
}

/** The current objects of a versioned history: the last write of each key. */
function currentOf(keys: [string, string][]): [string, string][] {
  const latest = new Map<string, string>();
  for (const [k, t] of keys) if (!latest.has(k) || latest.get(k)! < t) latest.set(k, t);
  return [...latest.entries()];
}

describe('COLLISION_ACROSS_NODES in diagnose', () => {
  it('two nodes with interleaved counters, told apart by the tag in their keys: named', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /logs/$TAG/$INDEX');
    const keys = [...writer((i) => `logs/node-a.app/${i}`, 12, 0), ...writer((i) => `logs/node-b.app/${i}`, 12, 30_000)];
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 12)] })), config, evidence: { 0: evidence(keys) }, at });
    const f = find(d, 'COLLISION_ACROSS_NODES')!;
    expect(f.severity).toBe('error');
    expect(f.summary).toBe(
      'The bucket shows keys of this output from 2 writers, told apart by $TAG[0] in their keys (node-a, node-b), each with its own $INDEX counter, and the key format /logs/$TAG/$INDEX has no node-unique part ($UUID, host, node or pod name): for the same tag and $INDEX they render the same key and overwrite each other.',
    );
    expect(f.data).toMatchObject({ writers: 2, nodes: ['node-a', 'node-b'], namedBy: '$TAG[0]', sharedIndices: Array.from({ length: 12 }, (_, i) => i) });
    expect(f.evidence[1]).toBe('writer node-a: $INDEX 0…11 from 2026-11-29T10:00:00.000Z to 2026-11-29T10:11:00.000Z (12 uploads, e.g. logs/node-a.app/0)');
    expect(f.evidence).toContain('index 0: logs/node-a.app/0 (2026-11-29T10:00:00.000Z), logs/node-b.app/0 (2026-11-29T10:00:30.000Z)');
    expect(f.evidence.at(-1)).toMatch(/^object versions were not listed/);
    expect(f.next).toEqual([]);
    // the reuse is the writers', not a reset's
    const reused = find(d, 'INDEX_REUSED')!;
    expect(reused.summary).toBe('$INDEX 0–11 used twice: 2 writers with one counter each render the same indices (COLLISION_ACROSS_NODES).');
    expect(reused.action).toMatch(/^Give every node a node-unique key \(COLLISION_ACROSS_NODES\)\. /);
  });

  it('two nodes writing the same keys: seen in the versions, "several writers" without names', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /logs/segment_$INDEX');
    const history = [...writer((i) => `logs/segment_${i}`, 10, 0), ...writer((i) => `logs/segment_${i}`, 10, 30_000, 3)];
    const d = diagnose({
      report: report(root('b', { seqIndex: [seq(0, 10)] })),
      config,
      evidence: { 0: evidence(currentOf(history), { versions: versionsOf(history) }) },
      at,
    });
    const f = find(d, 'COLLISION_ACROSS_NODES')!;
    expect(f.summary).toMatch(/^The bucket shows keys of this output from 2 writers \(the keys do not say which nodes\), each with its own \$INDEX counter/);
    expect(f.data).toMatchObject({ writers: 2, nodes: null, namedBy: null, sharedIndices: [3, 4, 5, 6, 7, 8, 9] });
    expect(f.evidence.join('\n')).not.toMatch(/versions were not listed/);
    expect(codes(d)).toEqual(expect.arrayContaining(['OBJECTS_OVERWRITTEN', 'INDEX_REUSED']));

    // the plain listing of the same bucket keeps only the last write of each key: nothing is claimed
    const plain = diagnose({ report: report(root('b', { seqIndex: [seq(0, 10)] })), config, evidence: { 0: evidence(currentOf(history)) }, at });
    expect(codes(plain)).not.toContain('COLLISION_ACROSS_NODES');
  });

  it('one writer with a reset: the reset finding only, no collision (also with a deleted key after the reset)', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /logs/$TAG/$INDEX');
    const before = writer((i) => `logs/app/${i}`, 12, 0);
    const after = writer((i) => `logs/app/${i}`, 15, 3_600_000);
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 15)] })), config, evidence: { 0: evidence([...before, ...after]) }, at });
    expect(codes(d)).not.toContain('COLLISION_ACROSS_NODES');
    expect(find(d, 'INDEX_REUSED')!.data).toMatchObject({ indices: Array.from({ length: 12 }, (_, i) => i) });
    expect(d.outputs[0].resets).toEqual([{ time: '2026-11-29T11:00:00.000Z', from: 11, to: 0 }]);
    expect(find(d, 'INDEX_REUSED')!.summary).toBe('$INDEX 0–11 used twice: the index was reset 1 time in the past.');

    const gap = [...before, ...after.filter(([k]) => k !== 'logs/app/11')];
    const g = diagnose({ report: report(root('b', { seqIndex: [seq(0, 15)] })), config, evidence: { 0: evidence(gap) }, at });
    expect(codes(g)).not.toContain('COLLISION_ACROSS_NODES');
    expect(codes(g)).toContain('INDEX_REUSED');
  });

  it('one writer whose multipart uploads of two tags complete out of order: no index repeats, no collision', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /logs/$TAG/$INDEX');
    // tag a takes the even indices, tag b the odd ones; each completes after the other's next start
    const keys: [string, string][] = Array.from({ length: 20 }, (_, i) => [`logs/${i % 2 ? 'b' : 'a'}/${i}`, iso(T0 + (i % 2 ? i - 1 : i + 1) * 60_000)]);
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 20)] })), config, evidence: { 0: evidence(keys) }, at });
    expect(codes(d)).not.toContain('COLLISION_ACROSS_NODES');
    expect(codes(d)).not.toContain('INDEX_REUSED');
  });

  it('one writer with a reset whose pending multipart uploads of other tags complete after it: no collision', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /logs/$TAG/$INDEX');
    const before = writer((i) => `logs/a/${i}`, 10, 0);
    const after = writer((i) => `logs/a/${i}`, 16, 3_600_000);
    // indices 10–13 were created before the reset (tags b–e) and complete among the new run's uploads
    const late: [string, string][] = [10, 11, 12, 13].map((v, k) => [`logs/${'bcde'[k]}/${v}`, iso(T0 + 3_600_000 + (2 + 3 * k) * 60_000 + 30_000)]);
    const history = [...before, ...late, ...after];
    const d = diagnose({
      report: report(root('b', { seqIndex: [seq(0, 16)] })),
      config,
      evidence: { 0: evidence(currentOf(history), { versions: versionsOf(history) }) },
      at,
    });
    expect(codes(d)).not.toContain('COLLISION_ACROSS_NODES');
    expect(find(d, 'INDEX_REUSED')!.summary).toMatch(/the index was reset/);
  });

  it('a format with $UUID (or a per-node ${HOSTNAME}): no collision, whatever the listing shows', async () => {
    const keys = [...writer((i) => `logs/node-a.app/${i}-abcdefgh`, 12, 0), ...writer((i) => `logs/node-b.app/${i}-ijklmnop`, 12, 30_000)];
    const uuid = await conf('name s3; bucket b; s3_key_format /logs/$TAG/$INDEX-$UUID');
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 12)] })), config: uuid, evidence: { 0: evidence(keys) }, at });
    expect(codes(d)).not.toContain('COLLISION_ACROSS_NODES');
    const host = await conf('name s3; bucket b; s3_key_format /logs/${HOSTNAME}/$INDEX');
    const hostKeys = [...writer((i) => `logs/node-a/${i}`, 12, 0), ...writer((i) => `logs/node-a/${i}`, 12, 30_000)];
    const h = diagnose({ report: report(root('b', { seqIndex: [seq(0, 12)] })), config: host, evidence: { 0: evidence(hostKeys) }, at });
    expect(codes(h)).not.toContain('COLLISION_ACROSS_NODES');
  });

  it('a hostile listing where every upload falls below the last (5,000 runs): nothing claimed, the run count is bounded', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /logs/segment_$INDEX');
    const keys: [string, string][] = Array.from({ length: 5000 }, (_, k) => [`logs/segment_${5000 - k}`, iso(T0 + k * 1000)]);
    keys.push(...writer((i) => `logs/segment_${i}`, 10, 6_000_000));
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 5001)] })), config, evidence: { 0: evidence(keys) }, at });
    expect(codes(d)).not.toContain('COLLISION_ACROSS_NODES');
    expect(d.outputs[0].highestIndexInBucket).toBe(5000);
  });
});
