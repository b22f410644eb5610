/**
 * Live evidence in diagnosis, end to end against a real S3 (Ceph RGW): the listing mode chosen
 * from the key format (focused when time-partitioned, full otherwise or on request), and the
 * findings it yields (index reset, overwrite risk, overwritten versions, multipart state).
 */
import { AbortMultipartUploadCommand, CreateMultipartUploadCommand, PutObjectCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding, OutputDiagnosis, RootReport } from '../../../shared/model';
import { planLiveListing } from '../../../electron/engine/diagnose';
import { diagnoseStore as runDiagnosis } from '../../support/diagnose';
import { createEngine, dispatchRequest } from '../../../electron/engine';
import { scanStore } from '../../../electron/engine/store';
import { s3Enabled, testS3, type TestS3 } from '../../support/s3';
import { indexResetCopy, indexResetKeys, makeStore, useEnvCredentials } from './live-helpers';

const codes = (o: OutputDiagnosis) => o.findings.map((f) => f.code);
const finding = (o: OutputDiagnosis, code: Finding['code']) => o.findings.find((f) => f.code === code);
const DAILY = '/$TAG/%Y/%m/%d/$INDEX';
const AT = new Date('2026-11-29T12:00:00Z');

describe('planLiveListing: which listing a key format allows', () => {
  const plan = (keyFormat: string, root: RootReport | null = null, at = AT, fullListing?: boolean) => planLiveListing({ keyFormat, root, at, fullListing });

  it('no time in the key: full (a reset overwrites keys of any age)', () => {
    expect(plan('/logs/segment_$INDEX')).toMatchObject({ mode: 'full', focus: null, reason: expect.stringMatching(/no time/) });
    expect(plan('/$TAG/$INDEX').mode).toBe('full');
  });

  it('periodic time fields (%H without a date): full', () => {
    expect(plan('/$TAG/%H/$INDEX')).toMatchObject({ mode: 'full', reason: expect.stringMatching(/repeat periodically/) });
  });

  it('time-partitioned: focused from one collision window before the restart', () => {
    expect(plan(DAILY)).toMatchObject({ mode: 'focused', focus: { at: AT.toISOString(), since: '2026-11-28T12:00:00.000Z', newestPerTag: true } });
    expect(plan('/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX').focus!.since).toBe('2026-11-29T11:59:59.000Z');
    // calendar months vary: at the end of a 31-day month the window still starts on the 1st
    const endOfJan = plan('/$TAG/%Y/%m/$INDEX', null, new Date('2027-01-31T23:00:00Z'));
    expect(Date.parse(endOfJan.focus!.since!)).toBeLessThanOrEqual(Date.parse('2027-01-01T00:00:00Z'));
  });

  it('--full-listing forces the full listing', () => {
    expect(plan(DAILY, null, AT, true)).toMatchObject({ mode: 'full', reason: expect.stringMatching(/requested/) });
  });

  it('buffered data older than the window moves `since` back to its first record', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sd-live-plan-'));
    try {
      const { store } = makeStore(dir, {
        bucket: 'plan',
        keyFormat: DAILY,
        endpoint: 'http://127.0.0.1:9',
        chunks: [
          { stream: '2026-11-26T10:00:00', tag: 'app', firstRecord: '2026-11-26T10:00:05Z' },
          { stream: '2026-11-29T10:00:00', tag: 'app', firstRecord: '2026-11-29T10:00:05Z' },
        ],
      });
      const report = await scanStore(store);
      const p = planLiveListing({ keyFormat: DAILY, root: report.roots[0], at: AT });
      expect(p.focus!.since).toBe('2026-11-26T10:00:05.000Z');
      expect(p.reason).toMatch(/oldest buffered data: 2026-11-26T10:00:00\//);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!s3Enabled())('runDiagnosis with live evidence on a real S3', { timeout: 120_000 }, () => {
  let s3: TestS3;
  let dir: string;
  let restoreEnv: () => void;
  const uploads: { bucket: string; key: string; uploadId: string }[] = [];
  const live = () => ({ endpoint: s3.endpoint, region: 'us-east-1', pathStyle: true });

  beforeAll(() => {
    s3 = testS3();
    dir = mkdtempSync(path.join(tmpdir(), 'sd-live-diag-'));
    restoreEnv = useEnvCredentials(s3.credentials);
  });
  afterAll(async () => {
    restoreEnv?.();
    for (const u of uploads)
      await s3
        .client()
        .send(new AbortMultipartUploadCommand({ Bucket: u.bucket, Key: u.key, UploadId: u.uploadId }))
        .catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('index-reset after run 2: INDEX_FILE_MISSING, INDEX_REUSED 0–11, safe next 12 — focused and full', async () => {
    const bucket = await s3.createBucket('fb-index-reset');
    await s3.putKeys(bucket, indexResetKeys(), { body: () => 'x' });
    const { store, config } = indexResetCopy(mkdtempSync(path.join(dir, 'ir-')), bucket);
    const runs = [];
    for (const fullListing of [false, true]) {
      const run = await runDiagnosis({ storePath: store, configPath: config, live: live(), at: new Date('2026-11-29T19:00:00Z'), fullListing });
      const o = run.diagnosis.outputs[0];
      expect(o).toMatchObject({ id: 0, bucket, persistedNextIndex: null, highestIndexInBucket: 11, safeNextIndex: 12 });
      expect(codes(o)).toEqual(expect.arrayContaining(['INDEX_FILE_MISSING', 'INDEX_REUSED']));
      expect(codes(o)).not.toContain('OVERWRITE_RISK');
      expect(finding(o, 'INDEX_FILE_MISSING')!.severity).toBe('error');
      expect(finding(o, 'INDEX_REUSED')!.data).toMatchObject({ indices: Array.from({ length: 12 }, (_, i) => i) });
      const ev = run.evidence.get(0)!;
      expect(ev.source).toBe('live');
      expect(ev.objects).toHaveLength(24);
      expect(ev.coverage).toBe(fullListing ? 'full' : 'focused');
      // the operator is told which mode was used
      const note = o.findings.find((f) => f.code === 'NO_EVIDENCE' && f.severity === 'info')!;
      expect(note.summary).toContain(fullListing ? 'Listing mode: full' : 'Listing mode: focused');
      if (!fullListing) expect(note.summary).toMatch(/INDEX_REUSED history before 2026-11-29T18:59:59\.000Z was not checked/);
      runs.push(run);
    }
    // same findings as from the saved listing
    const offline = await runDiagnosis({
      storePath: store,
      configPath: config,
      listing: [path.join(__dirname, '../../fixtures/fluent-bit-real/index-reset/s3api-list-objects-v2-after-run2.json')],
    });
    expect(offline.diagnosis.outputs[0].safeNextIndex).toBe(12);
  });

  it("/$TAG/%Y/%m/%d/$INDEX with today's keys 0..N: OVERWRITE_RISK lists them, focused with fewer requests than full", async () => {
    const bucket = await s3.createBucket('daily');
    const today = ['app/2026/11/29/0', 'app/2026/11/29/1', 'app/2026/11/29/2', 'app/2026/11/29/3', 'db/2026/11/29/4'];
    const older: string[] = [];
    for (let d = 0; d < 1100; d++) {
      const day = new Date(Date.UTC(2026, 10, 28) - Math.floor(d / 20) * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '/');
      older.push(`app/${day}/${d}`);
    }
    older.push('app/2026/11/26/5000', 'db/2026/10/01/7');
    await s3.putKeys(bucket, [...today, ...older], { body: () => 'x', concurrency: 24 });
    const { store, config } = makeStore(mkdtempSync(path.join(dir, 'daily-')), {
      bucket,
      keyFormat: DAILY,
      endpoint: s3.endpoint,
      // sequence/ gone (graceful stop) and a backlog from three days ago
      chunks: [{ stream: '2026-11-26T10:00:00', tag: 'app', firstRecord: '2026-11-26T10:00:05Z' }],
    });
    const focused = await runDiagnosis({ storePath: store, configPath: config, live: live(), at: AT });
    const full = await runDiagnosis({ storePath: store, configPath: config, live: live(), at: AT, fullListing: true });
    for (const run of [focused, full]) {
      const o = run.diagnosis.outputs[0];
      const risk = finding(o, 'OVERWRITE_RISK')!;
      expect(risk.severity).toBe('critical');
      expect(risk.data).toMatchObject({ startIndex: 0, keys: today, windowEnd: '2026-11-30T00:00:00.000Z' });
      expect(o.safeNextIndex).toBe(5001);
      expect(codes(o)).toContain('INDEX_FILE_MISSING');
    }
    const fe = focused.evidence.get(0)!;
    const ue = full.evidence.get(0)!;
    expect(fe.coverage).toBe('focused');
    expect(ue.coverage).toBe('full');
    expect(ue.objects).toHaveLength(today.length + older.length);
    // the focus reaches back to the backlog's first record, not further
    const keys = fe.objects.map((o) => o.key);
    expect(keys).toEqual(expect.arrayContaining([...today, 'app/2026/11/26/5000']));
    expect(keys).not.toContain('db/2026/10/01/7');
    expect(keys.some((k) => k.startsWith('app/2026/11/25/'))).toBe(false);
    // issue 18 case 2: the focused listing says its window and scope, never "complete"; only the full one is
    expect(fe.focus?.since).toBe('2026-11-26T10:00:05.000Z');
    const fo = focused.diagnosis.outputs[0];
    expect(fo.indexEvidence.coverage).toBe('window');
    expect(fo.indexEvidence.text).toMatch(/^a focused listing of bucket \S+, complete for keys dated 2026-11-26T10:00:05.000Z or later/);
    expect(fo.indexEvidence.text).toMatch(/the highest \$INDEX is the highest in the listed partitions, older keys were not listed$/);
    expect(fo.indexEvidence.text).not.toMatch(/complete listing/);
    expect(full.diagnosis.outputs[0].indexEvidence).toMatchObject({
      coverage: 'complete',
      text: `a full listing of bucket ${bucket} (every key the key format can reach)`,
    });
    expect(focused.diagnosis.checks.outputs[0].listing).toBe('window');
    expect(fe.requests).toBeLessThan(ue.requests);
    expect(fe.notes[0]).toMatch(/^Listing mode: focused \(\d+ requests\).*from 2026-11-26T10:00:05\.000Z on/);
    expect(ue.notes[0]).toMatch(/^Listing mode: full/);
  });

  it('a versioned bucket where a key was written twice: OBJECTS_OVERWRITTEN', async () => {
    const bucket = await s3.createBucket('overwritten', { versioning: true });
    const c = s3.client();
    const key = 'app/2026/11/29/0';
    await c.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'run 1', ContentLength: 5 }));
    await new Promise((r) => setTimeout(r, 1100));
    await c.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'run 2!', ContentLength: 6 }));
    await s3.putKeys(bucket, ['app/2026/11/29/1']);
    const { store, config } = makeStore(mkdtempSync(path.join(dir, 'ver-')), { bucket, keyFormat: DAILY, endpoint: s3.endpoint, seqIndex: '2' });
    const { diagnosis, evidence } = await runDiagnosis({ storePath: store, configPath: config, live: live(), at: AT });
    const o = diagnosis.outputs[0];
    const f = finding(o, 'OBJECTS_OVERWRITTEN')!;
    expect(f.severity).toBe('critical');
    expect(f.data).toEqual({ keys: [key] });
    expect(evidence.get(0)!.versions!.filter((v) => v.key === key)).toHaveLength(2);
    expect(o).toMatchObject({ persistedNextIndex: 2, highestIndexInBucket: 1, safeNextIndex: 2 });
    expect(codes(o)).not.toContain('OVERWRITE_RISK');
  });

  it('multipart: a server upload with its local record is pending; one without a record is orphaned', async () => {
    const bucket = await s3.createBucket('multipart');
    const c = s3.client();
    const start = async (key: string) => {
      const { UploadId } = await c.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
      uploads.push({ bucket, key, uploadId: UploadId! });
      const body = Buffer.alloc(2048, 1);
      const { ETag } = await c.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: 1, Body: body, ContentLength: body.length }));
      return { uploadId: UploadId!, etag: ETag!.replace(/"/g, '') };
    };
    const mine = await start('app/2026/11/29/3');
    const stray = await start('app/2026/11/29/4');
    await s3.putKeys(bucket, ['app/2026/11/29/0', 'app/2026/11/29/1', 'app/2026/11/29/2']);
    const { store, config } = makeStore(mkdtempSync(path.join(dir, 'mp-')), {
      bucket,
      keyFormat: DAILY,
      endpoint: s3.endpoint,
      seqIndex: '5',
      multipart: [{ key: 'app/2026/11/29/3', uploadId: mine.uploadId, etags: [mine.etag] }],
    });
    const { diagnosis, evidence } = await runDiagnosis({ storePath: store, configPath: config, live: live(), at: AT });
    expect(
      evidence
        .get(0)!
        .multipartUploads!.map((u) => u.uploadId)
        .sort(),
    ).toEqual([mine.uploadId, stray.uploadId].sort());
    const all = [...diagnosis.outputs[0].findings, ...diagnosis.storeFindings];
    const pending = all.find((f) => f.code === 'MULTIPART_PENDING')!;
    expect(pending.severity).toBe('info');
    expect(pending.evidence.join('\n')).toContain(`app/2026/11/29/3 upload ${mine.uploadId}`);
    expect(pending.evidence.join('\n')).toMatch(/matches the server upload \(1 part/);
    const orphaned = all.find((f) => f.code === 'MULTIPART_ORPHANED')!;
    expect(orphaned.evidence).toEqual([expect.stringContaining(`app/2026/11/29/4 upload ${stray.uploadId}`)]);
    expect(orphaned.evidence[0]).toContain('no local record');
    expect(diagnosis.outputs[0].safeNextIndex).toBe(5);
  });

  it("the app's evidence.live: focused around `at` by default, full with fullListing; old inputs still valid", async () => {
    const bucket = await s3.createBucket('engine-live');
    await s3.putKeys(bucket, ['app/2026/11/29/0', 'app/2026/11/29/1', 'app/2026/10/02/0', 'app/2026/10/01/7']);
    const { store, config } = makeStore(mkdtempSync(path.join(dir, 'eng-')), { bucket, keyFormat: DAILY, endpoint: s3.endpoint, seqIndex: '0' });
    const e = createEngine({ door: 'host', watch: false });
    try {
      const call = async (name: string, input: unknown) => {
        const r = await dispatchRequest(e, name, input);
        if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
        return r.value as never;
      };
      const { storeId } = (await call('store.open', { path: store })) as { storeId: string };
      await call('config.load', { storeId, path: config });
      const connection = { endpoint: s3.endpoint, region: 'us-east-1', pathStyle: true };
      const focused = (await call('evidence.live', { storeId, outputId: 0, connection, at: AT.toISOString() })) as {
        coverage: string;
        objects: { key: string }[];
        notes: string[];
      };
      expect(focused.coverage).toBe('focused');
      // today's keys, plus nothing older: app/ had keys after `since`, so no newest-partition descent was needed
      expect(focused.objects.map((o) => o.key)).toEqual(['app/2026/11/29/0', 'app/2026/11/29/1']);
      expect(focused.notes[0]).toMatch(/^Listing mode: focused/);
      const d = (await call('diagnose.run', { storeId, at: AT.toISOString() })) as { outputs: OutputDiagnosis[] };
      expect(finding(d.outputs[0], 'OVERWRITE_RISK')!.data).toMatchObject({ keys: ['app/2026/11/29/0', 'app/2026/11/29/1'] });
      expect(d.outputs[0].safeNextIndex).toBe(2);
      const full = (await call('evidence.live', { storeId, outputId: 0, connection, fullListing: true })) as { coverage: string; objects: unknown[] };
      expect(full.coverage).toBe('full');
      expect(full.objects).toHaveLength(4);
      expect(((await call('diagnose.run', { storeId, at: AT.toISOString() })) as { outputs: OutputDiagnosis[] }).outputs[0].safeNextIndex).toBe(8);
      const bad = await dispatchRequest(e, 'evidence.live', { storeId, outputId: 0, connection, at: 'yesterday' });
      expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    } finally {
      await e.dispose();
    }
  });
});
