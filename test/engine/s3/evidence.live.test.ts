/**
 * Versions, multipart uploads and permission degradation against a real S3 (Ceph RGW).
 */
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  PutBucketPolicyCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listForKeyFormat, listMultipartUploads, listVersions, S3EvidenceError } from '../../../electron/engine/s3';
import { s3Enabled, testS3, type TestS3 } from '../../support/s3';

const FORMAT = '/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX';
const KEY = 'app.db/2026/11/29/18_32_54-1';

describe.skipIf(!s3Enabled())('S3 evidence on a real S3', () => {
  let s3: TestS3;
  let versioned: string;
  let plain: string;
  let uploadId: string;

  beforeAll(async () => {
    s3 = testS3();
    versioned = await s3.createBucket('versions', { versioning: true });
    plain = await s3.createBucket('plain');
    const c = s3.client();
    await c.send(new PutObjectCommand({ Bucket: versioned, Key: KEY, Body: 'first run', ContentLength: 9 }));
    await new Promise((r) => setTimeout(r, 1100)); // distinct LastModified seconds
    await c.send(new PutObjectCommand({ Bucket: versioned, Key: KEY, Body: 'second run!', ContentLength: 11 }));
    await s3.putKeys(versioned, ['app.db/2026/11/29/18_33_06-4', 'app.web/2026/11/29/18_32_54-0']);
    await c.send(new DeleteObjectCommand({ Bucket: versioned, Key: 'app.web/2026/11/29/18_32_54-0' }));
    await s3.putKeys(plain, [KEY, 'app.web/2026/11/29/18_32_54-0']);
    const up = await c.send(new CreateMultipartUploadCommand({ Bucket: plain, Key: 'app.big/2026/11/29/18_36_06-0' }));
    uploadId = up.UploadId!;
    const body = Buffer.alloc(1024, 7);
    await c.send(
      new UploadPartCommand({ Bucket: plain, Key: 'app.big/2026/11/29/18_36_06-0', UploadId: uploadId, PartNumber: 1, Body: body, ContentLength: body.length }),
    );
  }, 60_000);

  afterAll(async () => {
    if (uploadId) await s3.client().send(new AbortMultipartUploadCommand({ Bucket: plain, Key: 'app.big/2026/11/29/18_36_06-0', UploadId: uploadId }));
  });

  it('lists every version: a key written twice has two versions, the newest is latest', async () => {
    const v = await listVersions(s3.client(), versioned);
    const ofKey = v.filter((e) => e.key === KEY);
    expect(ofKey).toHaveLength(2);
    expect(ofKey.map((e) => e.isLatest)).toEqual([true, false]);
    expect(ofKey.map((e) => e.size)).toEqual([11, 9]);
    expect(ofKey[0].versionId).not.toBe(ofKey[1].versionId);
    expect(ofKey[0].etag).not.toBe(ofKey[1].etag);
    expect(ofKey[0].lastModified! >= ofKey[1].lastModified!).toBe(true);
    const deleted = v.filter((e) => e.key === 'app.web/2026/11/29/18_32_54-0');
    expect(deleted.map((e) => [e.isDeleteMarker, e.isLatest])).toEqual([
      [true, true],
      [false, false],
    ]);
  });

  it('the planner adds versions of the same scope, and says so when versioning is off', async () => {
    const ev = await listForKeyFormat(s3.client(), { bucket: versioned, keyFormat: FORMAT, versions: true });
    expect(ev.objects.map((o) => o.key)).toEqual([KEY, 'app.db/2026/11/29/18_33_06-4']);
    expect(ev.versions!.filter((e) => e.key === KEY)).toHaveLength(2);
    expect(ev.versions!.filter((e) => e.isDeleteMarker).map((e) => e.key)).toEqual(['app.web/2026/11/29/18_32_54-0']);

    const off = await listForKeyFormat(s3.client(), { bucket: plain, keyFormat: FORMAT, versions: true });
    expect(off.versions).toBeNull();
    expect(off.notes.join('\n')).toMatch(/Versioning is not enabled on bucket "plain-/);
    expect(off.complete).toBe(true);
  });

  it('shows a multipart upload in progress with its parts', async () => {
    const uploads = await listMultipartUploads(s3.client(), plain, { withParts: true });
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ key: 'app.big/2026/11/29/18_36_06-0', uploadId });
    expect(uploads[0].initiated).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(uploads[0].parts).toEqual([{ partNumber: 1, size: 1024, etag: expect.stringMatching(/^"?[0-9a-f]{32}"?$/) }]);

    const ev = await listForKeyFormat(s3.client(), { bucket: plain, keyFormat: FORMAT, multipart: true });
    expect(ev.multipartUploads).toEqual(uploads);
    const none = await listForKeyFormat(s3.client(), { bucket: versioned, keyFormat: FORMAT, multipart: true });
    expect(none.multipartUploads).toEqual([]);
  });

  it('degrades with notes when another user may not list the bucket', async () => {
    const ev = await listForKeyFormat(s3.client({ other: true }), { bucket: plain, keyFormat: FORMAT, versions: true, multipart: true });
    expect(ev.complete).toBe(false);
    expect(ev.objects).toEqual([]);
    expect(ev.versions).toBeNull();
    expect(ev.multipartUploads).toBeNull();
    const notes = ev.notes.join('\n');
    expect(notes).toMatch(/ListObjectsV2 denied \(AccessDenied \(HTTP 403\)/);
    expect(notes).toMatch(/ListMultipartUploads denied .*multipart checks skipped/);
  });

  it('with a bucket policy that allows only ListBucket: objects listed, versions and uploads degrade', async () => {
    const bucket = await s3.createBucket('policy', { versioning: true });
    await s3.putKeys(bucket, [KEY]);
    const policy = {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { AWS: ['arn:aws:iam:::user/other'] }, Action: ['s3:ListBucket'], Resource: [`arn:aws:s3:::${bucket}`] }],
    };
    await s3.client().send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: JSON.stringify(policy) }));
    const ev = await listForKeyFormat(s3.client({ other: true }), { bucket, keyFormat: FORMAT, versions: true, multipart: true });
    expect(ev.objects.map((o) => o.key)).toEqual([KEY]);
    expect(ev.versions).toBeNull();
    expect(ev.multipartUploads).toBeNull();
    const notes = ev.notes.join('\n');
    expect(notes).toMatch(/GetBucketVersioning denied/);
    expect(notes).toMatch(/ListObjectVersions denied .*cannot be proven/);
    expect(notes).toMatch(/ListMultipartUploads denied/);
  });

  it('a missing bucket is an error that names it', async () => {
    const err = await listForKeyFormat(s3.client(), { bucket: 'no-such-bucket-here', keyFormat: FORMAT }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(S3EvidenceError);
    expect((err as S3EvidenceError).code).toBe('not-found');
    expect((err as Error).message).toMatch(/bucket "no-such-bucket-here" does not exist/);
  });
});
