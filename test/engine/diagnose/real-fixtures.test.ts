import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { worstSeverity } from '../../../electron/engine/diagnose';
import { diagnoseStore as runDiagnosis } from '../../support/diagnose';
import type { OutputDiagnosis } from '../../../shared/model';

const FIX = path.resolve(__dirname, '../../fixtures/fluent-bit-real');
const f = (scenario: string, file: string) => path.join(FIX, scenario, file);
const codes = (o: OutputDiagnosis) => o.findings.map((x) => x.code);
const finding = (o: OutputDiagnosis, code: string) => o.findings.find((x) => x.code === code);

describe('real Fluent Bit v5.0.9 scenarios', () => {
  it('index-reset after run 2: index missing, 0–11 used twice, safe next 12, no overwrite risk', async () => {
    for (const listing of ['s3api-list-objects-v2-after-run2.json', 's3-objects-after-run2.json']) {
      const { diagnosis, report } = await runDiagnosis({
        storePath: f('index-reset', 'store-after-run2.tar.gz'),
        configPath: f('index-reset', 'fluent-bit.conf'),
        listing: [f('index-reset', listing)],
      });
      expect(report.roots.map((r) => r.bucket)).toEqual(['fb-index-reset']);
      const o = diagnosis.outputs[0];
      expect(o).toMatchObject({ id: 0, bucket: 'fb-index-reset', persistedNextIndex: null, highestIndexInBucket: 11, safeNextIndex: 12 });
      expect(o.collision.risk).toBe('practically-never');
      expect(codes(o)).toEqual(expect.arrayContaining(['INDEX_FILE_MISSING', 'INDEX_REUSED']));
      expect(codes(o)).not.toContain('OVERWRITE_RISK');
      expect(finding(o, 'INDEX_FILE_MISSING')!.severity).toBe('error');
      const reused = finding(o, 'INDEX_REUSED')!;
      expect(reused.data).toMatchObject({ indices: Array.from({ length: 12 }, (_, i) => i) });
      expect(reused.summary).toContain('0–11 used twice');
      expect(o.resets).toHaveLength(1);
      expect(o.resets[0]).toMatchObject({ from: 11, to: 0 });
      expect(o.timeline).toHaveLength(24);
      expect(worstSeverity(diagnosis)).toBe('error');
    }
  });

  it('index-reset during run 2 vs the final listing: the persisted 9 is behind the bucket', async () => {
    const { diagnosis } = await runDiagnosis({
      storePath: f('index-reset', 'store-during-run2.tar.gz'),
      configPath: f('index-reset', 'fluent-bit.conf'),
      listing: [f('index-reset', 's3api-list-objects-v2-after-run2.json')],
      at: new Date('2026-11-29T18:35:00Z'),
    });
    const o = diagnosis.outputs[0];
    expect(o).toMatchObject({ persistedNextIndex: 9, highestIndexInBucket: 11, safeNextIndex: 12 });
    expect(codes(o)).toContain('INDEX_BEHIND_BUCKET');
    expect(codes(o)).not.toContain('OVERWRITE_RISK');
    // only a restart in the very second of an existing key can collide with this format
    const sameSecond = await runDiagnosis({
      storePath: f('index-reset', 'store-during-run2.tar.gz'),
      configPath: f('index-reset', 'fluent-bit.conf'),
      listing: [f('index-reset', 's3api-list-objects-v2-after-run2.json')],
      at: new Date('2026-11-29T18:34:19.500Z'),
    });
    expect(finding(sameSecond.diagnosis.outputs[0], 'OVERWRITE_RISK')!.data).toMatchObject({
      startIndex: 9,
      keys: ['app.web/2026/11/29/18_34_19-9', 'app.db/2026/11/29/18_34_19-10', 'sys.kernel/2026/11/29/18_34_19-11'],
    });
  });

  it('crash-during-run after the crash: persisted 6, highest 5, nothing behind, backlog of 804 records', async () => {
    const { diagnosis } = await runDiagnosis({
      storePath: f('crash-during-run', 'store-after-crash.tar.gz'),
      configPath: f('crash-during-run', 'fluent-bit.conf'),
      listing: [f('crash-during-run', 's3api-list-objects-v2-after-crash.json')],
    });
    const o = diagnosis.outputs[0];
    expect(o).toMatchObject({ persistedNextIndex: 6, highestIndexInBucket: 5, safeNextIndex: 6, resets: [] });
    expect(codes(o)).not.toContain('INDEX_BEHIND_BUCKET');
    expect(codes(o)).not.toContain('INDEX_REUSED');
    expect(codes(o)).not.toContain('INDEX_FILE_MISSING');
    expect(finding(o, 'BUFFERED_BACKLOG')!.summary).toMatch(/^3 chunks \(804 records/);
    expect(finding(o, 'SEQUENCE_UNPROTECTED')!.severity).toBe('warning');
    expect(worstSeverity(diagnosis)).toBe('warning');
  });

  it('crash-during-run after run 2: index gone, 0–17 used once, safe next 18', async () => {
    const { diagnosis } = await runDiagnosis({
      storePath: f('crash-during-run', 'store-after-run2.tar.gz'),
      configPath: f('crash-during-run', 'fluent-bit.conf'),
      listing: [f('crash-during-run', 's3api-list-objects-v2-after-run2.json')],
    });
    const o = diagnosis.outputs[0];
    expect(o).toMatchObject({ persistedNextIndex: null, highestIndexInBucket: 17, safeNextIndex: 18, resets: [] });
    expect(codes(o)).toContain('INDEX_FILE_MISSING');
    expect(codes(o)).not.toContain('INDEX_REUSED');
  });

  it('multipart-inflight after the crash: record and server upload agree (MULTIPART_PENDING)', async () => {
    const run = (listing: string[], multipart: string[]) =>
      runDiagnosis({
        storePath: f('multipart-inflight', 'store-after-crash.tar.gz'),
        configPath: f('multipart-inflight', 'fluent-bit.conf'),
        listing: listing.map((l) => f('multipart-inflight', l)),
        multipart: multipart.map((l) => f('multipart-inflight', l)),
      });
    const { diagnosis } = await run(['s3api-list-objects-v2-after-crash.json'], ['s3api-list-multipart-uploads-after-crash.json']);
    const o = diagnosis.outputs[0];
    expect(o).toMatchObject({ persistedNextIndex: 1, highestIndexInBucket: 0, safeNextIndex: 1 });
    const p = finding(o, 'MULTIPART_PENDING')!;
    expect(p.severity).toBe('info');
    expect(p.evidence.join()).toMatch(
      /app\.big\/2026\/11\/29\/18_36_06-0 upload dedeafef5be1648c7690ff660c24a9ad, local parts 1,2 — matches the server upload/,
    );
    expect(codes(o)).not.toContain('MULTIPART_ORPHANED');
    // the recorder listing carries ListParts: the ETags are compared too
    const withParts = await run(['s3-objects-after-crash.json'], []);
    const p2 = finding(withParts.diagnosis.outputs[0], 'MULTIPART_PENDING')!;
    expect(p2.evidence.join()).toMatch(/matches the server upload \(2 parts, 12 MiB\)/);
  });

  it('buffered-backlog-no-ordering: backlog, quarantine and a missing index', async () => {
    const { diagnosis } = await runDiagnosis({
      storePath: f('buffered-backlog-no-ordering', 'store-after-run1.tar.gz'),
      configPath: f('buffered-backlog-no-ordering', 'fluent-bit.conf'),
      listing: [f('buffered-backlog-no-ordering', 's3api-list-objects-v2.json')],
    });
    const o = diagnosis.outputs[0];
    expect(codes(o)).toEqual(expect.arrayContaining(['BUFFERED_BACKLOG', 'QUARANTINED_DATA', 'INDEX_FILE_MISSING']));
    expect(finding(o, 'BUFFERED_BACKLOG')!.summary).toMatch(/^3 chunks \(804 records/);
    expect(finding(o, 'QUARANTINED_DATA')!.summary).toMatch(/^9 chunks \(3249 records/);
    expect(o.safeNextIndex).toBe(0);
  });

  it('offline evidence goes to the output of the listing bucket; a foreign bucket is refused', async () => {
    await expect(
      runDiagnosis({
        storePath: f('index-reset', 'store-after-run2.tar.gz'),
        configPath: f('crash-during-run', 'fluent-bit.conf'),
        listing: [f('index-reset', 's3-objects-after-run2.json')],
      }),
    ).rejects.toThrow(/bucket fb-index-reset, which no S3 output uses/);
    await expect(
      runDiagnosis({ storePath: f('index-reset', 'store-after-run2.tar.gz'), configPath: f('index-reset', 'fluent-bit.conf'), output: 'nope' }),
    ).rejects.toThrow(/no output with that name/);
  });
});
