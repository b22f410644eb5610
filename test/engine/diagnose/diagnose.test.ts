import { describe, expect, it } from 'vitest';
import { commandsOf } from '../../support/commands';
import { diagnose, findResets, worstSeverity } from '../../../electron/engine/diagnose';
import type { Diagnosis, FluentBitConfig } from '../../../shared/model';
import { chunk, conf, evidence, mpRecord, report, root, seq, stream } from './build-report';

const codes = (d: Diagnosis, i = 0) => d.outputs[i].findings.map((f) => f.code);
const find = (d: Diagnosis, code: string, i = 0) => d.outputs[i].findings.find((f) => f.code === code);

describe('OVERWRITE_RISK', () => {
  it('/$TAG/%Y/%m/%d/$INDEX: a reset index overwrites the same-day keys until the end of the UTC day', async () => {
    const config = await conf('name s3; bucket b; store_dir /data/store; s3_key_format /$TAG/%Y/%m/%d/$INDEX');
    const keys: [string, string][] = [0, 1, 2, 3, 4].map((i) => [`app.web/2026/11/29/${i}`, `2026-11-29T1${i}:00:00Z`]);
    keys.push(['app.web/2026/11/28/5', '2026-11-28T23:00:00Z']);
    const d = diagnose({ report: report(root('b')), config, evidence: { 0: evidence(keys) }, at: new Date('2026-11-29T20:00:00Z') });
    const o = d.outputs[0];
    expect(o).toMatchObject({ persistedNextIndex: null, highestIndexInBucket: 5, safeNextIndex: 6 });
    expect(o.collision.risk).toBe('same-window');
    const risk = find(d, 'OVERWRITE_RISK')!;
    expect(risk.severity).toBe('critical');
    expect(risk.data).toMatchObject({ startIndex: 0, keys: keys.slice(0, 5).map((k) => k[0]), windowEnd: '2026-11-30T00:00:00.000Z' });
    expect(risk.evidence.join('\n')).toContain('app.web/2026/11/29/0');
    expect(risk.evidence.join('\n')).not.toContain('2026/11/28/5');
    expect(commandsOf(risk)).toContain('store-doctor repair-index /data/store --config /etc/fb/fluent-bit.conf --apply');
    expect(codes(d)[0]).toBe('OVERWRITE_RISK');
    expect(codes(d)).toEqual(expect.arrayContaining(['INDEX_FILE_MISSING', 'SEQUENCE_UNPROTECTED']));
    expect(find(d, 'SEQUENCE_UNPROTECTED')!.severity).toBe('error');
    expect(worstSeverity(d)).toBe('critical');

    const nextDay = diagnose({ report: report(root('b')), config, evidence: { 0: evidence(keys) }, at: new Date('2026-11-30T00:00:01Z') });
    expect(codes(nextDay)).not.toContain('OVERWRITE_RISK');
  });

  it('from a persisted value behind the bucket only the keys at or above it are at risk', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /$TAG/%Y/%m/%d/$INDEX');
    const keys: [string, string][] = [0, 1, 2, 3, 4].map((i) => [`t/2026/11/29/${i}`, `2026-11-29T1${i}:00:00Z`]);
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 3)] })), config, evidence: { 0: evidence(keys) }, at: new Date('2026-11-29T20:00:00Z') });
    expect(d.outputs[0]).toMatchObject({ persistedNextIndex: 3, highestIndexInBucket: 4, safeNextIndex: 5 });
    expect(find(d, 'INDEX_BEHIND_BUCKET')!.severity).toBe('error');
    expect(find(d, 'OVERWRITE_RISK')!.data).toMatchObject({ startIndex: 3, indices: [3, 4] });
  });

  it('/logs/segment_$INDEX: always, whatever the time', async () => {
    const config = await conf('name stdout', 'name s3; bucket seg; s3_key_format /logs/segment_$INDEX');
    const keys: [string, string][] = Array.from({ length: 10 }, (_, i) => [`logs/segment_${i}`, `2025-01-0${(i % 9) + 1}T00:00:00Z`]);
    keys.push(['other/file', '2025-01-01T00:00:00Z']);
    const d = diagnose({ report: report(root('seg')), config, evidence: { 1: evidence(keys) }, at: new Date('2026-11-29T20:00:00Z') });
    const o = d.outputs[0];
    expect(o.id).toBe(1);
    expect(o.collision.risk).toBe('always');
    expect(o.safeNextIndex).toBe(10);
    const risk = find(d, 'OVERWRITE_RISK')!;
    expect((risk.data as { keys: string[] }).keys).toHaveLength(10);
    expect(risk.data).toMatchObject({ windowEnd: null });
    expect(risk.evidence.join('\n')).toMatch(/at any time/);
  });

  it('no OVERWRITE_RISK with $UUID, or without $INDEX, or when the index is ahead of the bucket', async () => {
    const keys: [string, string][] = [['a/0-abcdefgh', '2026-11-29T10:00:00Z']];
    const uuid = await conf('name s3; bucket b; s3_key_format /a/$INDEX-$UUID');
    expect(codes(diagnose({ report: report(root('b')), config: uuid, evidence: { 0: evidence(keys) } }))).not.toContain('OVERWRITE_RISK');
    const ahead = await conf('name s3; bucket b; s3_key_format /a/$INDEX');
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 1)] })), config: ahead, evidence: { 0: evidence([['a/0', '2026-11-29T10:00:00Z']]) } });
    expect(codes(d)).not.toContain('OVERWRITE_RISK');
    expect(codes(d)).not.toContain('INDEX_BEHIND_BUCKET');
    const noIndex = await conf('name s3; bucket b');
    const d2 = diagnose({ report: report(root('b')), config: noIndex, evidence: { 0: evidence([]) } });
    expect(codes(d2)).not.toContain('INDEX_FILE_MISSING');
    expect(codes(d2)).not.toContain('SEQUENCE_UNPROTECTED');
  });
});

describe('versions, reuse, resets', () => {
  it('OBJECTS_OVERWRITTEN from a versions listing, with INDEX_REUSED', async () => {
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
    const ev = evidence(
      [
        ['logs/segment_0', '2026-11-29T12:00:00Z'],
        ['logs/segment_1', '2026-11-29T11:00:00Z'],
      ],
      {
        versions: [
          v('logs/segment_0', 'v1', '2026-11-29T10:00:00Z', false),
          v('logs/segment_0', 'v3', '2026-11-29T12:00:00Z', true),
          v('logs/segment_1', 'v2', '2026-11-29T11:00:00Z', true),
          { ...v('logs/segment_9', 'dm', '2026-11-29T13:00:00Z', true), isDeleteMarker: true },
        ],
      },
    );
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 2)] })), config, evidence: { 0: ev }, at: new Date('2026-11-29T14:00:00Z') });
    const f = find(d, 'OBJECTS_OVERWRITTEN')!;
    expect(f.severity).toBe('critical');
    expect(f.data).toEqual({ keys: ['logs/segment_0'] });
    expect(f.evidence[0]).toMatch(/logs\/segment_0: 2 versions v1 .* v3/);
    expect(commandsOf(f)).toContain('store-doctor recover-versions');
    expect(find(d, 'INDEX_REUSED')!.data).toMatchObject({ indices: [0] });
    expect(d.outputs[0].resets).toEqual([{ time: '2026-11-29T12:00:00.000Z', from: 1, to: 0 }]);
  });

  it('a multipart object completing after later PutObjects is not a reset', () => {
    const pts = [
      { time: '2026-01-01T00:00:01Z', index: 1, key: 'a-1' },
      { time: '2026-01-01T00:00:02Z', index: 2, key: 'a-2' },
      { time: '2026-01-01T00:00:03Z', index: 0, key: 'a-0' },
      { time: '2026-01-01T00:00:04Z', index: 3, key: 'a-3' },
      { time: '2026-01-01T00:00:05Z', index: 1, key: 'b-1' },
    ];
    expect(findResets(pts)).toEqual([{ time: '2026-01-01T00:00:05Z', from: 3, to: 1 }]);
  });
});

describe('index file and sequence', () => {
  it('INDEX_FILE_UNREADABLE for an empty seq_index (Fluent Bit refuses to start)', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /a/$INDEX');
    const d = diagnose({
      report: report(root('b', { seqIndex: [seq(0, null, 'empty')] })),
      config,
      evidence: { 0: evidence([['a/4', '2026-11-29T10:00:00Z']]) },
    });
    const f = find(d, 'INDEX_FILE_UNREADABLE')!;
    expect(f.severity).toBe('critical');
    expect(f.summary).toMatch(/refuses to start/);
    expect(d.outputs[0]).toMatchObject({ persistedNextIndex: null, safeNextIndex: 5 });
    expect(codes(d)).not.toContain('OVERWRITE_RISK');
  });

  it('SEQUENCE_UNPROTECTED when a marker exists but a sibling S3 output without $INDEX shares the root; SHARED_STORE_ROOT', async () => {
    const config = await conf(
      'name s3; bucket b; store_dir /data/store/; s3_key_format /a/%Y/$INDEX',
      'name s3; bucket b; store_dir /data/store; alias appstatus',
    );
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 7)], markers: ['store-doctor-marker'] })), config, evidence: {} });
    const s = find(d, 'SEQUENCE_UNPROTECTED')!;
    expect(s.summary).toMatch(/appstatus shares the root without \$INDEX/);
    expect(s.data).toMatchObject({ siblings: [1] });
    const shared = find(d, 'SHARED_STORE_ROOT')!;
    expect(shared.severity).toBe('error');
    expect(shared.data).toEqual({ outputs: [0, 1] });
    // one card for the group (on its first output); diagnosing output 1 alone still shows it
    expect(find(d, 'SHARED_STORE_ROOT', 1)).toBeUndefined();
    expect(
      diagnose({
        report: report(root('b', { seqIndex: [seq(0, 7)], markers: ['store-doctor-marker'] })),
        config,
        evidence: {},
        outputId: 1,
      }).outputs[0].findings.map((f) => f.code),
    ).toContain('SHARED_STORE_ROOT');
    // a marker and no unprotecting sibling: protected
    const alone = await conf('name s3; bucket b; store_dir /data/store; s3_key_format /a/$INDEX');
    const ok = diagnose({ report: report(root('b', { seqIndex: [seq(0, 7)], markers: ['m'] })), config: alone, evidence: {} });
    expect(codes(ok)).not.toContain('SEQUENCE_UNPROTECTED');
    expect(codes(ok)).toEqual(['NO_EVIDENCE']);
  });

  it('OUTPUT_ID_MISMATCH when seq_index files belong to no $INDEX output of the config (reordered outputs)', async () => {
    const config = await conf('name stdout', 'name s3; bucket b; s3_key_format /a/$INDEX');
    const d = diagnose({ report: report(root('b', { seqIndex: [seq(0, 42)] })), config, evidence: {} });
    const f = find(d, 'OUTPUT_ID_MISMATCH')!;
    expect(f.severity).toBe('error');
    expect(f.evidence[0]).toMatch(/seq_index_0 = 42 — output 0 is stdout.0/);
    expect(f.data).toEqual({ stray: ['seq_index_0'], expected: [1] });
    expect(codes(d)).toContain('INDEX_FILE_MISSING');
  });

  it('--output picks one output; unknown or non-S3 ids are errors', async () => {
    const config = await conf('name stdout', 'name s3; bucket a; s3_key_format /a/$INDEX', 'name s3; bucket b; s3_key_format /b/$INDEX');
    const r = report(root('a'), root('b'));
    expect(diagnose({ report: r, config, outputId: 2 }).outputs.map((o) => o.bucket)).toEqual(['b']);
    expect(() => diagnose({ report: r, config, outputId: 0 })).toThrow(/stdout output, not an S3 output/);
    expect(() => diagnose({ report: r, config, outputId: 9 })).toThrow(/no output with id 9/);
  });
});

describe('store contents', () => {
  it('BUFFERED_BACKLOG, QUARANTINED_DATA, CHUNK_DAMAGED', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /a/$INDEX');
    const r = report(
      root('b', {
        seqIndex: [seq(0, 0)],
        streams: [
          stream('2026-11-29T10:00:00', 'data', [
            chunk('2026-11-29T10:00:00', '1-1', { records: 5 }),
            chunk('2026-11-29T10:00:00', '1-2', { status: 'truncated', message: 'truncated' }),
          ]),
          stream('quarantine', 'quarantine', [chunk('quarantine', '2-1', { records: 7 })]),
        ],
      }),
    );
    const d = diagnose({ report: r, config, evidence: { 0: evidence([]) } });
    expect(find(d, 'BUFFERED_BACKLOG')!.summary).toMatch(/^1 chunk \(5 records/);
    expect(find(d, 'QUARANTINED_DATA')!.summary).toMatch(/^1 chunk \(7 records/);
    const dmg = find(d, 'CHUNK_DAMAGED')!;
    expect(dmg.severity).toBe('error');
    expect(dmg.data).toMatchObject({ chunks: ['2026-11-29T10:00:00/1-2'] });
  });

  it('MULTIPART_PENDING when record and server agree; MULTIPART_ORPHANED for every disagreement', async () => {
    const config = await conf('name s3; bucket b; use_put_object off; total_file_size 50M; s3_key_format /$TAG/$INDEX');
    const mp = (name: string, rec: ReturnType<typeof mpRecord>) => chunk('multipart_upload_metadata', name, { multipart: rec });
    const r = report(
      root('b', {
        seqIndex: [seq(0, 5)],
        streams: [
          stream('multipart_upload_metadata', 'multipart', [
            mp(
              'm1',
              mpRecord('big/0', 'U0', [
                [1, 'e1'],
                [2, 'e2'],
              ]),
            ),
            mp('m2', mpRecord('big/1', 'U1', [[1, 'e1']])),
            mp('m3', mpRecord('big/2', 'U2', [[1, 'x1']])),
            mp('m4', mpRecord('big/3', 'U3', [], ['no part line parsed'])),
          ]),
        ],
      }),
    );
    const uploads = [
      {
        key: 'big/0',
        uploadId: 'U0',
        initiated: '2026-11-29T10:00:00Z',
        parts: [
          { partNumber: 2, etag: '"e2"', size: 5 },
          { partNumber: 1, etag: '"e1"', size: 5 },
        ],
      },
      { key: 'big/2', uploadId: 'U2', initiated: null, parts: [{ partNumber: 1, etag: '"y1"', size: 5 }] },
      { key: 'big/4', uploadId: 'U4', initiated: null, parts: null },
      { key: 'elsewhere/x', uploadId: 'U9', initiated: null, parts: null },
    ];
    const d = diagnose({ report: r, config, evidence: { 0: evidence([], { multipartUploads: uploads }) } });
    const pending = find(d, 'MULTIPART_PENDING')!;
    expect(pending.severity).toBe('info');
    expect(pending.evidence).toHaveLength(1);
    expect(pending.evidence[0]).toMatch(/big\/0 upload U0.*matches the server upload \(2 parts/);
    const orphan = find(d, 'MULTIPART_ORPHANED')!;
    expect(orphan.severity).toBe('error');
    const ev = orphan.evidence.join('\n');
    expect(ev).toMatch(/big\/1 upload U1.*no such upload on the server/);
    expect(ev).toMatch(/big\/2 upload U2.*parts differ: local \[1:x1\] vs server \[1:y1\]/);
    expect(ev).toMatch(/big\/3 upload U3.*skips this record forever/);
    expect(ev).toMatch(/big\/4 upload U4 — on the server with no local record/);
    expect(ev).not.toContain('elsewhere');
    expect(d.outputs[0].highestIndexInBucket).toBe(4);
    expect(d.outputs[0].safeNextIndex).toBe(5);
    // without the server side: pending, unverified
    const d2 = diagnose({ report: r, config, evidence: {} });
    expect(find(d2, 'MULTIPART_PENDING')!.severity).toBe('warning');
  });

  it('without a config infers outputs from seq_index files and reports unused roots', () => {
    const d = diagnose({
      report: report(root('a', { seqIndex: [seq(2, 9)] }), root('c', { streams: [stream('q', 'quarantine', [chunk('quarantine', 'x')])] })),
      config: null,
    });
    // no config, no listing: the persisted value is only a lower bound, nothing is called safe
    expect(d.outputs.map((o) => [o.id, o.bucket, o.persistedNextIndex, o.safeNextIndex, o.lowerBoundNextIndex])).toEqual([[2, 'a', 9, null, 9]]);
    expect(d.outputs[0].findings.find((f) => f.code === 'NO_EVIDENCE')!.data).toEqual({ reason: 'no-config' });
    // root c has no seq_index and no sequence/: its index state is unknown (issue 18 case 5)
    expect(d.storeFindings.map((f) => f.code)).toEqual(['QUARANTINED_DATA', 'INDEX_STATE_UNKNOWN']);
  });

  it('without a config a root without sequence/ is INDEX_STATE_UNKNOWN, never "no findings"; the checks name its bucket', () => {
    const d = diagnose({ report: report(root('logs-bucket'), root('b', { markers: ['m'] })), config: null });
    const f = d.storeFindings.filter((x) => x.code === 'INDEX_STATE_UNKNOWN');
    expect(f.map((x) => [x.severity, x.summary])).toEqual([
      ['warning', 'Index state of root logs-bucket unknown: if an output on this root uses $INDEX, a graceful stop deleted its index (sequence/ is missing).'],
      ['warning', 'Index state of root b unknown: sequence/ holds no seq_index file, and without the config it is unknown whether an output uses $INDEX here.'],
    ]);
    expect(f[0].next.map((n) => n.request)).toEqual([
      { name: 'config.load', input: {} },
      { name: 'evidence.importOffline', input: { kind: 'listing', bucket: 'logs-bucket' } },
    ]);
    expect(d.checks.roots).toEqual([
      { bucket: 'logs-bucket', path: '/data/store/logs-bucket', index: 'unknown' },
      { bucket: 'b', path: '/data/store/b', index: 'unknown' },
    ]);
    expect(d.checks.complete).toBe(false);
    // a root an inferred output uses (its seq_index file) is known
    const known = diagnose({ report: report(root('a', { seqIndex: [seq(0, 3)] })), config: null });
    expect(known.storeFindings.map((x) => x.code)).toEqual([]);
    expect(known.checks).toMatchObject({ roots: [{ bucket: 'a', index: 'known' }], complete: true });
  });

  it('ROOT_NOT_FOUND when the config bucket has no root in the store', async () => {
    const config = await conf('name s3; bucket missing; s3_key_format /a/$INDEX');
    const d = diagnose({ report: report(root('other')), config });
    expect(codes(d)).toEqual(expect.arrayContaining(['ROOT_NOT_FOUND', 'INDEX_FILE_MISSING', 'NO_EVIDENCE']));
    expect(d.storeFindings.map((f) => f.code)).toEqual(['ROOT_NOT_FOUND']);
  });

  it('matches the root by store_dir when several roots share the bucket name', async () => {
    const config: FluentBitConfig = await conf('name s3; bucket b; store_dir /srv/two; s3_key_format /a/$INDEX');
    const r = report(root('b', { path: '/snap/one/b', seqIndex: [seq(0, 1)] }), root('b', { path: '/snap/two/b', seqIndex: [seq(0, 2)] }));
    expect(diagnose({ report: r, config }).outputs[0]).toMatchObject({ rootPath: '/snap/two/b', persistedNextIndex: 2 });
  });
});

describe('evidence with a scope and an age (issue 18)', () => {
  const keys: [string, string][] = [
    ['app/2026/11/29/0', '2026-11-29T10:00:00.000Z'],
    ['app/2026/11/29/1', '2026-11-29T10:01:00.000Z'],
  ];
  const at = new Date('2026-11-29T12:00:00.000Z');

  it('a listing older than a write the tool made to the bucket is stale: nothing is called safe on it', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /$TAG/%Y/%m/%d/$INDEX');
    const r = report(root('b'));
    const ev = evidence(keys, { listedAt: '2026-11-29T11:00:00.000Z' });
    const fresh = diagnose({
      report: r,
      config,
      evidence: { 0: ev },
      at,
      freshness: { bucketWrites: { other: { at: '2026-11-29T11:30:00.000Z', action: 'replay' } } },
    });
    expect(fresh.outputs[0]).toMatchObject({ safeNextIndex: 2, indexEvidence: { coverage: 'complete', listedAt: '2026-11-29T11:00:00.000Z' } });
    expect(fresh.outputs[0].indexEvidence.text).toBe('a complete offline listing of bucket b (listing.json, file time 2026-11-29T11:00:00.000Z)');

    const stale = diagnose({
      report: r,
      config,
      evidence: { 0: ev },
      at,
      freshness: { bucketWrites: { b: { at: '2026-11-29T11:30:00.000Z', action: 'replay' } } },
    });
    expect(stale.outputs[0].safeNextIndex).toBeNull();
    expect(stale.outputs[0].indexEvidence.coverage).toBe('stale');
    expect(stale.outputs[0].indexEvidence.text).toMatch(
      /^stale evidence: Store Doctor's replay wrote to bucket b at 2026-11-29T11:30:00.000Z, after this listing \(taken 2026-11-29T11:00:00.000Z\): list again/,
    );
    expect(stale.checks.outputs[0].listing).toBe('stale');
    // evidence without a time is older than any write the tool made
    const untimed = diagnose({
      report: r,
      config,
      evidence: { 0: evidence(keys) },
      at,
      freshness: { bucketWrites: { b: { at: '2026-11-29T11:30:00.000Z', action: 'multipart' } } },
    });
    expect(untimed.outputs[0].indexEvidence.coverage).toBe('stale');
  });

  it('a listing older than the age limit is stale; younger is not', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /$TAG/%Y/%m/%d/$INDEX');
    const ev = evidence(keys, { listedAt: '2026-11-29T11:00:00.000Z' });
    const d = (minutes: number) =>
      diagnose({
        report: report(root('b')),
        config,
        evidence: { 0: ev },
        at,
        freshness: { maxAgeMs: minutes * 60_000, now: new Date('2026-11-29T11:45:00.000Z') },
      });
    expect(d(60).outputs[0].indexEvidence.coverage).toBe('complete');
    expect(d(30).outputs[0].indexEvidence).toMatchObject({ coverage: 'stale' });
    expect(d(30).outputs[0].indexEvidence.text).toMatch(/taken 2026-11-29T11:00:00.000Z, 45 min ago, older than the limit of 30 min: list again/);
  });

  it('a focused live listing says its scope: the highest index is the highest in the listed partitions, and why that is enough', async () => {
    const config = await conf('name s3; bucket b; s3_key_format /$TAG/%Y/%m/%d/$INDEX');
    const ev = evidence(keys, { source: 'live', coverage: 'focused', focus: { since: '2026-11-29T00:00:00.000Z', at: at.toISOString() } });
    const e = diagnose({ report: report(root('b')), config, evidence: { 0: ev }, at }).outputs[0].indexEvidence;
    expect(e.coverage).toBe('window');
    expect(e.text).toMatch(
      /^a focused listing of bucket b, complete for keys dated 2026-11-29T00:00:00.000Z or later .* enough for the next index, because the key format's time partitions/,
    );
    expect(e.text).toMatch(/the highest \$INDEX is the highest in the listed partitions, older keys were not listed$/);
    const full = diagnose({ report: report(root('b')), config, evidence: { 0: { ...ev, coverage: 'full', focus: undefined } }, at }).outputs[0].indexEvidence;
    expect(full).toMatchObject({ coverage: 'complete', text: 'a full listing of bucket b (every key the key format can reach)' });
  });
});
