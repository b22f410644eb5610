/** Review of issue 3: incomplete evidence, recommended commands that really run, UTC restart times. */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../electron/engine/diagnose';
import type { Diagnosis } from '../../../shared/model';
import { chunk, conf, evidence, report, root, seq, stream } from './build-report';
import { actionText, commandsOf } from '../../support/commands';

const find = (d: Diagnosis, code: string, i = 0) => d.outputs[i].findings.find((f) => f.code === code);
const all = (d: Diagnosis) => [...d.outputs.flatMap((o) => o.findings), ...d.storeFindings];
const partlyDenied = (keys: [string, string][]) =>
  evidence(keys, { source: 'live', complete: false, notes: ['ListObjectsV2 denied (AccessDenied): keys under some prefixes are unknown, e.g. "logs/2026/".'] });

describe('a live listing only partly denied (incomplete evidence)', () => {
  it('INDEX_FILE_MISSING does not claim the bucket has no key and does not recommend writing a value', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /logs/segment_$INDEX');
    const d = diagnose({ report: report(root('b')), config, evidence: { 0: partlyDenied([]) }, at: new Date('2026-11-29T20:00:00Z') });
    const f = find(d, 'INDEX_FILE_MISSING')!;
    expect(f.severity).toBe('error');
    const text = [f.summary, ...f.evidence, f.action].join('\n');
    expect(text).not.toMatch(/no key of this format in the bucket/);
    expect(text).toMatch(/incomplete/);
    expect(commandsOf(f)).not.toMatch(/repair-index[^\n]*--apply/);
    expect(f.action).not.toMatch(/to write \d+|set seq_index_\d+ to \d+/);
    expect(f.data).toMatchObject({ safeNextIndex: null });
  });

  it('INDEX_BEHIND_BUCKET and OVERWRITE_RISK give the bucket value only as a lower bound and refuse to recommend one', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /logs/segment_$INDEX');
    const keys: [string, string][] = [0, 1, 2].map((i) => [`logs/segment_${i}`, '2026-11-29T10:00:00Z']);
    const d = diagnose({
      report: report(root('b', { seqIndex: [seq(0, 1)] })),
      config,
      evidence: { 0: partlyDenied(keys) },
      at: new Date('2026-11-29T20:00:00Z'),
    });
    for (const code of ['INDEX_BEHIND_BUCKET', 'OVERWRITE_RISK']) {
      const f = find(d, code)!;
      expect(f, code).toBeDefined();
      expect(f.action, code).not.toMatch(/to write \d+/);
      expect(f.action, code).toMatch(/incomplete/);
      expect([...f.evidence, f.action].join('\n'), code).toMatch(/at least 3/);
    }
    // the numbers stay what the evidence shows: never below the persisted index nor highest + 1 —
    // as a lower bound only: incomplete evidence calls no value safe
    expect(d.outputs[0]).toMatchObject({ persistedNextIndex: 1, highestIndexInBucket: 2, safeNextIndex: null, lowerBoundNextIndex: 3 });
    expect(d.outputs[0].indexEvidence.coverage).toBe('incomplete');
  });

  it('with complete evidence the repair command and value are still recommended', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /logs/segment_$INDEX');
    const d = diagnose({ report: report(root('b')), config, evidence: { 0: evidence([['logs/segment_4', '2026-11-29T10:00:00Z']]) } });
    const f = find(d, 'INDEX_FILE_MISSING')!;
    expect(commandsOf(f)).toMatch(/^store-doctor repair-index \/data\/store --config \/etc\/fb\/fluent-bit.conf --apply$/m);
    expect(f.action).toMatch(/With Fluent Bit stopped, set seq_index_0 to 5/);
  });
});

describe('recommended commands are valid invocations', () => {
  it('replay, multipart and recover-versions need the bucket: they carry --live, not offline files', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /logs/segment_$INDEX');
    const v = (key: string, versionId: string, t: string, isLatest: boolean) => ({
      key,
      versionId,
      lastModified: t,
      isLatest,
      isDeleteMarker: false,
      size: 1,
      etag: null,
    });
    const ev = evidence([['logs/segment_0', '2026-11-29T12:00:00Z']], {
      versions: [v('logs/segment_0', 'v1', '2026-11-29T10:00:00Z', false), v('logs/segment_0', 'v2', '2026-11-29T12:00:00Z', true)],
      multipartUploads: [{ key: 'logs/segment_7', uploadId: 'U7', initiated: null, parts: null }],
    });
    const r = report(
      root('b', {
        seqIndex: [seq(0, 8)],
        streams: [
          stream('2026-11-29T10:00:00', 'data', [chunk('2026-11-29T10:00:00', '1-1')]),
          stream('quarantine', 'quarantine', [chunk('quarantine', '2-1')]),
        ],
      }),
    );
    const d = diagnose({ report: r, config, evidence: { 0: ev } });
    for (const code of ['OBJECTS_OVERWRITTEN', 'BUFFERED_BACKLOG', 'QUARANTINED_DATA', 'MULTIPART_ORPHANED']) {
      const f = all(d).find((x) => x.code === code)!;
      expect(f, code).toBeDefined();
      const cmd = /(store-doctor (?:replay|multipart|recover-versions) .*)/.exec(
        commandsOf(f, { evidenceArgs: ['--listing', 'l.json', '--versions', 'v.json'] }),
      )?.[1];
      expect(cmd, code).toBeDefined();
      expect(cmd, code).toMatch(/ --live( |$)/);
      expect(cmd, code).not.toMatch(/--listing|--versions/);
    }
  });

  it('live evidence arguments (profile, endpoint) are kept for commands that need the bucket', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /logs/segment_$INDEX');
    const r = report(root('b', { seqIndex: [seq(0, 0)], streams: [stream('2026-11-29T10:00:00', 'data', [chunk('2026-11-29T10:00:00', '1-1')])] }));
    const d = diagnose({ report: r, config, evidence: { 0: evidence([]) } });
    expect(
      commandsOf(
        all(d).find((x) => x.code === 'BUFFERED_BACKLOG')!,
        { evidenceArgs: ['--live', '--profile', 'prod', '--endpoint', 'http://127.0.0.1:9000'] },
      ),
    ).toContain('store-doctor replay /data/store --config /etc/fb/fluent-bit.conf --live --profile prod --endpoint http://127.0.0.1:9000 --apply');
  });

  it('SEQUENCE_UNPROTECTED recommends the marker it describes (protect-index defaults to shadow)', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /logs/segment_$INDEX');
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 3)] })), config, evidence: { 0: evidence([]) } });
    const f = find(d, 'SEQUENCE_UNPROTECTED')!;
    expect(f.action).toMatch(/marker chunk/);
    expect(commandsOf(f)).toMatch(/^store-doctor protect-index .*--method marker.*--apply$/m);
    expect(actionText(f)).toMatch(/shadow copy/);
  });
});

describe('commands for a snapshot', () => {
  it('a tarball is read-only evidence: commands that change something name the live store_dir', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /logs/segment_$INDEX');
    const d = diagnose({ report: report(root('b')), config, evidence: { 0: evidence([['logs/segment_4', '2026-11-29T10:00:00Z']]) } });
    const ctx = { store: 'cust/store.tar.gz' };
    expect(commandsOf(find(d, 'INDEX_FILE_MISSING')!, ctx)).toContain('store-doctor repair-index <store_dir> --config /etc/fb/fluent-bit.conf --apply');
    expect(commandsOf(find(d, 'SEQUENCE_UNPROTECTED')!, ctx)).not.toContain('store.tar.gz');
  });
});
