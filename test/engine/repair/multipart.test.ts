import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, PutObjectCommand, UploadPartCommand, type S3Client } from '@aws-sdk/client-s3';
import { encodeChunk } from '../../../electron/engine/chunk';
import { scanStore } from '../../../electron/engine/store/scan';
import { applyMultipart, planMultipart } from '../../../electron/engine/repair/bucket/multipart';
import { applyRecoverVersions, planRecoverVersions } from '../../../electron/engine/repair/bucket/versions';
import { undoLast } from '../../../electron/engine/repair/undo/undo';
import { getObjectBytes } from '../../../electron/engine/repair/bucket/s3ops';
import { newBucket, testClient } from './s3env';
import { copiesOf, settleOf, tempDir } from './helpers';
import { s3Enabled } from '../../support/s3';
import { twoTagCrash } from './two-tag';

const PART1 = Buffer.alloc(5 * 1024 * 1024, 'a');
const PART2 = Buffer.from('tail of the upload\n');

async function startUpload(client: S3Client, bucket: string, key: string) {
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
  const e1 = (await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: 1, Body: PART1, ContentLength: PART1.length }))).ETag!;
  const e2 = (await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: 2, Body: PART2, ContentLength: PART2.length }))).ETag!;
  return { uploadId: UploadId!, etags: [e1.replace(/"/g, ''), e2.replace(/"/g, '')] };
}

/** A multipart record exactly as Fluent Bit writes it (docs/fluent-bit-store-format.md#multipart-records). */
function writeRecord(root: string, name: string, key: string, uploadId: string, etags: string[]): string {
  const dir = path.join(root, 'multipart_upload_metadata');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, encodeChunk({ meta: `/${key}\n${uploadId}`, content: etags.map((e, i) => `part_number=${i + 1}\tetag=${e}\n`).join('') }));
  return file;
}

async function uploads(client: S3Client, bucket: string) {
  return (await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads ?? [];
}

describe.skipIf(!s3Enabled())('multipart settlement against RGW', () => {
  let client: S3Client;
  beforeAll(() => {
    client = testClient();
  });

  it('completes an upload whose recorded parts match ListParts, removes the record; undo restores the record', async () => {
    const t = tempDir('sd-mpu-');
    try {
      const bucket = await newBucket(client, 'sd-mpu');
      const root = path.join(t.dir, bucket);
      const key = 'app.big/2026/11/29/18_36_06-0';
      const up = await startUpload(client, bucket, key);
      const rec = writeRecord(root, '14065334001068727105-4791705444923465403', key, up.uploadId, up.etags);
      const orphan = await startUpload(client, bucket, 'orphan/key-1');
      const report = await scanStore(root);
      const plan = await planMultipart({ storePath: root, rootPath: root, root: report.roots[0], bucket, client, skipProcessCheck: true });
      expect(settleOf(plan).map((s) => s.op)).toEqual(['complete']);
      expect(settleOf(plan)[0].parts.map((p) => p.partNumber)).toEqual([1, 2]);
      expect(plan.warnings.join('\n')).toContain(orphan.uploadId);
      const r = await applyMultipart(plan, { client, skipProcessCheck: true });
      expect(r.verified).toBe(true);
      expect((await getObjectBytes(client, bucket, key)).equals(Buffer.concat([PART1, PART2]))).toBe(true);
      expect(existsSync(rec)).toBe(false);
      expect((await uploads(client, bucket)).map((u) => u.UploadId)).toEqual([orphan.uploadId]);
      await undoLast(root, { skipProcessCheck: true });
      expect(existsSync(rec)).toBe(true);

      // orphans are aborted only on request
      const p2 = await planMultipart({
        storePath: root,
        rootPath: root,
        root: (await scanStore(root)).roots[0],
        bucket,
        client,
        abortOrphans: true,
        skipProcessCheck: true,
      });
      // the restored record now points at a completed upload: forget it; the orphan is aborted
      expect(
        settleOf(p2)
          .map((s) => s.op)
          .sort(),
      ).toEqual(['abort', 'forget']);
      await applyMultipart(p2, { client, skipProcessCheck: true });
      expect(await uploads(client, bucket)).toEqual([]);
      expect(existsSync(rec)).toBe(false);
    } finally {
      t.cleanup();
    }
  }, 60_000);

  it('leaves an upload alone when the record and the server disagree (ETag mismatch; abort only on request), and refuses to complete over an existing key', async () => {
    const t = tempDir('sd-mpu-');
    try {
      const bucket = await newBucket(client, 'sd-mpu2');
      const root = path.join(t.dir, bucket);
      const up = await startUpload(client, bucket, 'k/one');
      writeRecord(root, '1-1', 'k/one', up.uploadId, [up.etags[0], '0123456789abcdef0123456789abcdef']);
      const up2 = await startUpload(client, bucket, 'k/two');
      writeRecord(root, '2-2', 'k/two', up2.uploadId, up2.etags);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'k/two', Body: 'existing' }));
      const plan = await planMultipart({ storePath: root, rootPath: root, root: (await scanStore(root)).roots[0], bucket, client, skipProcessCheck: true });
      const one = settleOf(plan).find((s) => s.key === 'k/one')!;
      // abort deletes the parts for good: only with --abort (was 'abort' by default, a data-loss bug)
      expect(one.op).toBe('none');
      expect(one.reason).toMatch(/ETag differs: 2/);
      expect(one.reason).toMatch(/choose abort/);
      expect(plan.refusals.some((r) => /k\/two already exists/.test(r.reason))).toBe(true);
      await expect(applyMultipart(plan, { client, skipProcessCheck: true })).rejects.toThrow(/refused/);
      expect((await getObjectBytes(client, bucket, 'k/two')).toString()).toBe('existing');
      const abortAll = await planMultipart({
        storePath: root,
        rootPath: root,
        root: (await scanStore(root)).roots[0],
        bucket,
        client,
        decision: 'abort',
        skipProcessCheck: true,
      });
      await applyMultipart(abortAll, { client, skipProcessCheck: true });
      expect(await uploads(client, bucket)).toEqual([]);
      expect((await getObjectBytes(client, bucket, 'k/two')).toString()).toBe('existing');
    } finally {
      t.cleanup();
    }
  }, 60_000);
});

describe.skipIf(!s3Enabled())('multipart settlement from ListParts: the two-tag crash and its edge cases', () => {
  let client: S3Client;
  beforeAll(() => {
    client = testClient();
  });

  it('completes both uploads — also the one with no record, proven by the lines of the other — then removes the record; undo restores it', async () => {
    const t = tempDir('sd-mpu2tag-');
    onTestFinished(() => t.cleanup());
    const bucket = await newBucket(client, 'sd-mpu2tag');
    const root = path.join(t.dir, bucket);
    const x = await twoTagCrash(client, bucket, root);
    const report = await scanStore(root);
    // Fluent Bit reads the last line for part 1: the other upload's ETag (InvalidPart at its next start)
    expect(report.roots[0].streams[0].chunks[0].multipart?.completeParts).toEqual([{ partNumber: 1, etag: x.etags[1] }]);
    const plan = await planMultipart({ storePath: root, rootPath: root, root: report.roots[0], bucket, client, decision: 'complete', skipProcessCheck: true });
    expect(settleOf(plan).map((s) => `${s.key} ${s.op} ${s.recordRole}`)).toEqual([`${x.a.key} complete own`, `${x.h.key} complete lines`]);
    expect(plan.steps.map((s) => s.kind)).toEqual(['complete-upload', 'complete-upload', 'delete-file']);
    expect(plan.details).toMatchObject({ kind: 'multipart', records: [x.rec], unsettled: [] });
    const r = await applyMultipart(plan, { client, skipProcessCheck: true });
    expect(r.verified).toBe(true);
    expect(r.unsettled).toEqual([]);
    expect(r.summary).toBe('Settled 2 of 2 multipart upload(s). Removed 1 record(s).');
    expect((await getObjectBytes(client, bucket, x.a.key)).equals(x.a.body)).toBe(true);
    expect((await getObjectBytes(client, bucket, x.h.key)).equals(x.h.body)).toBe(true);
    expect(await uploads(client, bucket)).toEqual([]);
    expect(existsSync(x.rec)).toBe(false);
    await undoLast(root, { skipProcessCheck: true });
    expect(existsSync(x.rec)).toBe(true);
    // both uploads are gone now: the restored record is forgotten
    const again = await planMultipart({ storePath: root, rootPath: root, root: (await scanStore(root)).roots[0], bucket, client, skipProcessCheck: true });
    expect(settleOf(again).map((s) => s.op)).toEqual(['forget']);
    expect(again.why.join('\n')).toContain(`line part_number=1 etag=${x.etags[1]} matches no part of any open upload`);
  }, 60_000);

  it('the default (no decision) settles the two-tag crash the same way', async () => {
    const t = tempDir('sd-mpu2tag-');
    onTestFinished(() => t.cleanup());
    const bucket = await newBucket(client, 'sd-mpu2tag');
    const root = path.join(t.dir, bucket);
    const x = await twoTagCrash(client, bucket, root);
    const plan = await planMultipart({ storePath: root, rootPath: root, root: (await scanStore(root)).roots[0], bucket, client, skipProcessCheck: true });
    expect(settleOf(plan).map((s) => s.op)).toEqual(['complete', 'complete']);
    expect(settleOf(plan)[1].parts).toEqual([{ partNumber: 1, etag: x.etags[1] }]);
  }, 60_000);

  it('a part below 5 MiB that is not the last (and a gap): nothing completed, the record kept, the upload reported unsettled; abort on request', async () => {
    const t = tempDir('sd-mpubad-');
    onTestFinished(() => t.cleanup());
    const bucket = await newBucket(client, 'sd-mpubad');
    const root = path.join(t.dir, bucket);
    const small = Buffer.from('small part\n');
    const key = 'k/small';
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    const etags: string[] = [];
    for (const n of [1, 2, 4])
      etags.push(
        (
          await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: n, Body: small, ContentLength: small.length }))
        ).ETag!.replace(/"/g, ''),
      );
    const dir = path.join(root, 'multipart_upload_metadata');
    mkdirSync(dir, { recursive: true });
    const rec = path.join(dir, '1-1');
    writeFileSync(rec, encodeChunk({ meta: `/${key}\n${UploadId}`, content: [1, 2, 4].map((n, i) => `part_number=${n}\tetag=${etags[i]}\n`).join('') }));
    const plan = await planMultipart({ storePath: root, rootPath: root, root: (await scanStore(root)).roots[0], bucket, client, skipProcessCheck: true });
    expect(settleOf(plan).map((s) => s.op)).toEqual(['none']);
    expect(settleOf(plan)[0].reason).toMatch(/part 1 is 0\.00 MiB, below the 5 MiB minimum, and not the last part/);
    expect(plan.steps).toEqual([]);
    const r = await applyMultipart(plan, { client, skipProcessCheck: true });
    expect(r.summary).toBe('Nothing settled: 1 upload(s) left as they are.');
    expect(r.unsettled).toEqual([
      `${key} (${UploadId}): part 1 is 0.00 MiB, below the 5 MiB minimum, and not the last part: S3 refuses such an object (EntityTooSmall)`,
    ]);
    expect(existsSync(rec)).toBe(true);
    expect((await uploads(client, bucket)).map((u) => u.UploadId)).toEqual([UploadId]);
    // asked to complete: still not (RGW refuses a completion naming fewer parts than were uploaded: InvalidPart)
    const forced = await planMultipart({
      storePath: root,
      rootPath: root,
      root: (await scanStore(root)).roots[0],
      bucket,
      client,
      decision: 'complete',
      skipProcessCheck: true,
    });
    expect(settleOf(forced)[0]).toMatchObject({ op: 'none' });
    expect(settleOf(forced)[0].reason).toMatch(/^cannot complete: part 1 is 0\.00 MiB/);
    // asked to abort: the parts are gone, the record with them
    const abort = await planMultipart({
      storePath: root,
      rootPath: root,
      root: (await scanStore(root)).roots[0],
      bucket,
      client,
      decision: 'abort',
      skipProcessCheck: true,
    });
    const done = await applyMultipart(abort, { client, skipProcessCheck: true });
    expect(done.verified).toBe(true);
    expect(done.unsettled).toEqual([]);
    expect(await uploads(client, bucket)).toEqual([]);
    expect(existsSync(rec)).toBe(false);
  }, 60_000);
});

describe.skipIf(!s3Enabled())('version recovery against RGW', () => {
  it('copies non-current versions create-only under a recovery prefix with a manifest', async () => {
    const client = testClient();
    const store = tempDir('sd-ver-'); // a writable store folder (recover-versions refuses archives and read-only sources)
    onTestFinished(() => store.cleanup());
    const bucket = await newBucket(client, 'sd-ver', true);
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'logs/segment_0', Body: 'run 1 data' }));
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'logs/segment_0', Body: 'run 2 data (overwrote run 1)' }));
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'logs/segment_1', Body: 'only once' }));
    const plan = await planRecoverVersions({ storePath: store.dir, bucket, client, recoveryPrefix: 'recovered/' });
    expect(copiesOf(plan)).toHaveLength(1);
    expect(copiesOf(plan)[0].targetKey).toMatch(/^recovered\/logs\/segment_0\.version-1-/);
    const r = await applyRecoverVersions(plan, { client });
    expect(r.verified).toBe(true);
    expect((await getObjectBytes(client, bucket, copiesOf(plan)[0].targetKey)).toString()).toBe('run 1 data');
    const manifest = JSON.parse((await getObjectBytes(client, bucket, 'recovered/manifest.json')).toString());
    expect(manifest.copies[0]).toMatchObject({ sourceKey: 'logs/segment_0', status: 'copied', targetKey: copiesOf(plan)[0].targetKey });
    // running it again never overwrites the copies
    const again = await planRecoverVersions({ storePath: store.dir, bucket, client, recoveryPrefix: 'recovered/' });
    const r2 = await applyRecoverVersions(again, { client });
    expect(r2.steps.every((s) => !s.ok && /not overwritten/.test(s.message))).toBe(true);
    expect((await getObjectBytes(client, bucket, copiesOf(plan)[0].targetKey)).toString()).toBe('run 1 data');
  }, 60_000);

  it('is idempotent: right after --apply it recognises its copies (manifest + sha256) and plans nothing for them', async () => {
    const client = testClient();
    const store = tempDir('sd-ver2-');
    onTestFinished(() => store.cleanup());
    const bucket = await newBucket(client, 'sd-ver2', true);
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'logs/segment_0', Body: 'run 1 data' }));
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'logs/segment_0', Body: 'run 2 data (overwrote run 1)' }));
    // the default recovery prefix carries a time stamp: a second plan would copy under a new one
    const plan = await planRecoverVersions({ storePath: store.dir, bucket, client });
    expect(copiesOf(plan)).toHaveLength(1);
    const r = await applyRecoverVersions(plan, { client });
    expect(r.verified).toBe(true);
    const manifest = JSON.parse((await getObjectBytes(client, bucket, r.manifestKey!)).toString());
    expect(manifest.copies[0].sha256).toBe(createHash('sha256').update('run 1 data').digest('hex'));

    const again = await planRecoverVersions({ storePath: store.dir, bucket, client });
    expect(copiesOf(again)).toEqual([]);
    expect(again.steps).toEqual([]);
    expect(again.summary).toBe('Nothing to recover: every overwritten version (1) already has a verified copy.');
    expect(again.why.join('\n')).toContain(
      `logs/segment_0 version ${copiesOf(plan)[0].versionId}: already copied to ${copiesOf(plan)[0].targetKey} (${r.manifestKey}, sha256 verified)`,
    );

    // a copy that no longer holds the recorded bytes is not recognised: that version is planned again
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: copiesOf(plan)[0].targetKey, Body: 'tampered' }));
    const third = await planRecoverVersions({ storePath: store.dir, bucket, client });
    expect(copiesOf(third).map((c) => c.versionId)).toEqual([copiesOf(plan)[0].versionId]);
  }, 60_000);
});
