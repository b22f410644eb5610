/**
 * S3 for repair tests: the real Ceph RGW the vitest globalSetup provides (test/support/s3.ts).
 * Test files that use it import `s3Enabled` from '../../support/s3' directly, so the globalSetup
 * sees they need the server; suites skip only with STORE_DOCTOR_S3=off.
 */
import { CreateBucketCommand, PutBucketVersioningCommand, ListObjectVersionsCommand, type S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { createS3Client } from '../../../electron/engine/s3/client';
import { s3Env } from '../../support/s3';

export function s3Conn() {
  const e = s3Env();
  return { endpoint: e.endpoint, region: e.region, pathStyle: true, credentials: e.credentials };
}

export function testClient(): S3Client {
  return createS3Client(s3Conn());
}

export async function newBucket(client: S3Client, prefix: string, versioned = false): Promise<string> {
  const name = `${prefix}-${randomBytes(5).toString('hex')}`;
  await client.send(new CreateBucketCommand({ Bucket: name }));
  if (versioned) await client.send(new PutBucketVersioningCommand({ Bucket: name, VersioningConfiguration: { Status: 'Enabled' } }));
  return name;
}

export async function allVersions(client: S3Client, bucket: string): Promise<{ key: string; versionId: string; isLatest: boolean; size: number }[]> {
  const out: { key: string; versionId: string; isLatest: boolean; size: number }[] = [];
  let KeyMarker: string | undefined;
  let VersionIdMarker: string | undefined;
  for (;;) {
    const r = await client.send(new ListObjectVersionsCommand({ Bucket: bucket, KeyMarker, VersionIdMarker }));
    for (const v of r.Versions ?? []) out.push({ key: v.Key!, versionId: v.VersionId!, isLatest: !!v.IsLatest, size: v.Size ?? 0 });
    if (!r.IsTruncated) break;
    KeyMarker = r.NextKeyMarker;
    VersionIdMarker = r.NextVersionIdMarker;
  }
  return out;
}
