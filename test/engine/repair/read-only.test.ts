/**
 * Every write action refuses an archive source and a read-only directory, at plan time (not
 * forceable) and again right before writing, with a message naming the path. A read-only mount is
 * simulated by an injected `access(W_OK)` failure (EROFS): the tests run as root, for whom a
 * mode-0555 folder is still writable.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { RepairAction, RepairPlan } from '../../../shared/model';
import { diagnoseStore as runDiagnosis } from '../../support/diagnose';
import { applyPlan, planAction, RefusedError, type ActionOptions, type DiagnosisContext } from '../../../electron/engine/repair';
import { writeCheckTestHooks } from '../../../electron/engine/repair/preconditions/write-check';
import { planMultipart } from '../../../electron/engine/repair/bucket/multipart';
import { planRecoverVersions } from '../../../electron/engine/repair/bucket/versions';
import { planReplay } from '../../../electron/engine/repair/bucket/replay-plan';
import { seqIndexPaths } from '../../../electron/engine/repair/index-actions/index-file';
import { encodeChunk } from '../../../electron/engine/chunk';
import { scanStore } from '../../../electron/engine/store/scan';
import { copiesOf, type Extracted, extractFixture, FIXTURES, settleOf, tempDir } from './helpers';
import { allVersions, newBucket, testClient } from './s3env';
import { s3Enabled } from '../../support/s3';

let fx: Extracted | null = null;
let t: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  writeCheckTestHooks.access = null;
  fx?.cleanup();
  t?.cleanup();
  fx = null;
  t = null;
});

const IR = (file: string) => path.join(FIXTURES, 'index-reset', file);
const ARCHIVE = IR('store-after-run2.tar.gz');
/** A dead-end S3 client: any request fails, so a refusal must come before any S3 call. */
const noS3 = () =>
  new S3Client({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9',
    forcePathStyle: true,
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
    maxAttempts: 1,
  });

async function context(storePath: string): Promise<DiagnosisContext> {
  const d = await runDiagnosis({ storePath, configPath: IR('fluent-bit.conf'), listing: [IR('s3-objects-after-run2.json')] });
  return { storePath, ...d };
}

function cases(shadowDir: string): { name: string; action: RepairAction; opts?: ActionOptions }[] {
  return [
    { name: 'repair-index', action: 'repair-index' },
    { name: 'protect-index marker', action: 'protect-index', opts: { method: 'marker' } },
    { name: 'protect-index shadow', action: 'protect-index', opts: { method: 'shadow', shadowDir } },
    { name: 'restore-index', action: 'restore-index', opts: { shadowDir } },
    { name: 'undo', action: 'undo' },
    { name: 'replay', action: 'replay', opts: { includeActive: true } },
    { name: 'multipart', action: 'multipart' },
    { name: 'recover-versions', action: 'recover-versions' },
  ];
}

function expectRefusedNaming(plan: RepairPlan, where: string, what: RegExp): void {
  const hard = plan.refusals.filter((r) => !r.forceable && r.reason.includes(where) && what.test(r.reason));
  expect(hard, `${plan.action}: ${JSON.stringify(plan.refusals)}`).not.toEqual([]);
}

async function expectApplyRefused(plan: RepairPlan, where: string, what: RegExp): Promise<void> {
  const err = await applyPlan(plan, { force: true, skipProcessCheck: true, client: noS3() }).catch((e: Error) => e);
  expect(err, plan.action).toBeInstanceOf(RefusedError);
  expect((err as Error).message).toContain(where);
  expect((err as Error).message).toMatch(what);
}

describe('archive sources are never written', () => {
  const shadow = tempDir('sd-ro-shadow-');
  afterAll(() => shadow.cleanup());
  for (const c of cases(shadow.dir)) {
    it(`${c.name}: refused (not forceable) naming the archive; apply --force refused too`, async () => {
      const ctx = await context(ARCHIVE);
      const plan = await planAction(c.action, ctx, { ...c.opts, skipProcessCheck: true, force: true });
      expectRefusedNaming(plan, ARCHIVE, /archive/);
      await expectApplyRefused(plan, ARCHIVE, /archive/);
      expect(readdirSync(shadow.dir)).toEqual([]);
    }, 30_000);
  }
});

const erofs = (root: string) => async (p: string) => {
  if (path.resolve(p).startsWith(root)) throw Object.assign(new Error(`EROFS: read-only file system, access '${p}'`), { code: 'EROFS' });
};

describe('read-only directories are never written', () => {
  for (const action of ['repair-index', 'protect-index marker', 'protect-index shadow', 'restore-index', 'undo', 'replay', 'multipart', 'recover-versions']) {
    it(`${action}: plan refused (not forceable) naming the read-only path`, async () => {
      fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
      t = tempDir('sd-ro-shadow-');
      const c = cases(t.dir).find((x) => x.name === action)!;
      writeCheckTestHooks.access = erofs(fx.storeDir);
      const plan = await planAction(c.action, await context(fx.storeDir), { ...c.opts, skipProcessCheck: true, force: true, client: null });
      expectRefusedNaming(plan, fx.storeDir, /read-only file system/);
      await expect(applyPlan(plan, { force: true, skipProcessCheck: true, client: noS3() })).rejects.toBeInstanceOf(RefusedError);
      expect(readdirSync(fx.root).filter((n) => n === 'sequence' || n === '.store-doctor')).toEqual([]);
    }, 30_000);
  }

  it('re-checked right before writing: a store that became read-only after the plan is refused (index, marker, shadow, restore, undo)', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    t = tempDir('sd-ro-shadow-');
    const ctx = await context(fx.storeDir);
    // something to undo, and an index for the shadow copy
    const first = await planAction('repair-index', ctx, { skipProcessCheck: true });
    await applyPlan(first, { skipProcessCheck: true });
    const { file } = seqIndexPaths(fx.root, 0);
    const byName = (n: string) => cases(t!.dir).find((x) => x.name === n)!;
    const order = [
      byName('undo'),
      byName('protect-index marker'),
      byName('protect-index shadow'),
      { ...byName('repair-index'), opts: { value: 40 } },
      byName('restore-index'),
    ];
    for (const c of order) {
      if (c.action === 'restore-index') writeFileSync(file, '3'); // the index went back: restore has work to do
      // an undo that brings the reset back below the listed index is refused unless forced (issue 18): forced here
      const force = c.action === 'undo';
      const plan = await planAction(c.action, await context(fx.storeDir), { ...c.opts, skipProcessCheck: true, force });
      expect(
        plan.refusals.filter((r) => !r.forceable || !force),
        c.name,
      ).toEqual([]);
      const work = plan.steps.length + ((plan as { replayItems?: { state: string }[] }).replayItems ?? []).filter((i) => i.state === 'planned').length;
      expect(work, c.name).toBeGreaterThan(0);
      writeCheckTestHooks.access = erofs(fx.storeDir);
      const err = await applyPlan(plan, { skipProcessCheck: true, client: noS3(), force }).catch((e: Error) => e);
      writeCheckTestHooks.access = null;
      expect(err, c.name).toBeInstanceOf(RefusedError);
      expect((err as Error).message, c.name).toMatch(new RegExp(`${fx.root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*read-only file system`));
    }
    expect(readdirSync(path.join(fx.root, 'sequence'))).toEqual(['index_metadata']); // no marker
    expect(readdirSync(t.dir)).toEqual([]); // no shadow copy
  }, 60_000);

  it('replay planned on a writable store is refused when it turns read-only; no chunk moves', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const report = await scanStore(fx.storeDir);
    const plan = await planReplay({
      storePath: fx.storeDir,
      root: report.roots[0],
      rootPath: fx.root,
      target: { bucket: 'b', keyFormat: '/$TAG/$INDEX', compression: 'none', outputId: 0 },
      safeNextIndex: 0,
      includeActive: true,
      skipProcessCheck: true,
    });
    expect(plan.replayItems.filter((i) => i.state === 'planned').length).toBeGreaterThan(0);
    const before = readdirSync(fx.root).sort();
    writeCheckTestHooks.access = erofs(fx.storeDir);
    const err = await applyPlan(plan, { skipProcessCheck: true, client: noS3() }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(RefusedError);
    expect((err as Error).message).toMatch(/read-only file system/);
    expect((err as Error).message).toContain(fx.root);
    expect(readdirSync(fx.root).sort()).toEqual(before);
  });
});

describe.skipIf(!s3Enabled())('read-only re-check for S3 actions (RGW)', () => {
  it('multipart and recover-versions planned on a writable store are refused when it turns read-only; nothing is sent', async () => {
    t = tempDir('sd-ro-s3-');
    const client = testClient();
    try {
      const bucket = await newBucket(client, 'sd-ro', true);
      const root = path.join(t.dir, bucket);
      mkdirSync(path.join(root, 'multipart_upload_metadata'), { recursive: true });
      writeFileSync(
        path.join(root, 'multipart_upload_metadata', '1'),
        encodeChunk({ meta: '/k\nno-such-upload', content: 'part_number=1\tetag=0123456789abcdef0123456789abcdef\n' }),
      );
      const mp = await planMultipart({ storePath: root, rootPath: root, root: (await scanStore(root)).roots[0], bucket, client, skipProcessCheck: true });
      expect(settleOf(mp).map((s) => s.op)).toEqual(['forget']);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'a', Body: 'one' }));
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'a', Body: 'two' }));
      const rv = await planRecoverVersions({ storePath: root, bucket, client, recoveryPrefix: 'rec/' });
      expect(copiesOf(rv)).toHaveLength(1);
      writeCheckTestHooks.access = async (p) => {
        if (path.resolve(p).startsWith(t!.dir)) throw Object.assign(new Error('EROFS'), { code: 'EROFS' });
      };
      for (const plan of [mp, rv]) {
        const err = await applyPlan(plan, { force: true, skipProcessCheck: true, client }).catch((e: Error) => e);
        expect(err, plan.action).toBeInstanceOf(RefusedError);
        expect((err as Error).message).toContain(root);
      }
      expect(readdirSync(path.join(root, 'multipart_upload_metadata'))).toEqual(['1']);
      expect((await allVersions(client, bucket)).filter((v) => v.key.startsWith('rec/'))).toEqual([]);
    } finally {
      client.destroy();
    }
  }, 60_000);
});
