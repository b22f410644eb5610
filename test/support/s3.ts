/**
 * Test helpers for the real S3 server of the test run (see s3-global-setup.ts).
 *
 *   describe.skipIf(!s3Enabled())('…', () => { const s3 = testS3(); … })
 *   const bucket = await s3.createBucket('planner', { versioning: true });  // unique name
 *   await s3.putKeys(bucket, keys);
 *
 * Only skipped when STORE_DOCTOR_S3=off; otherwise a missing server is an error.
 */
import { CreateBucketCommand, PutBucketVersioningCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { createS3Client } from '../../electron/engine/s3/client';

export interface S3TestEnv {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** A second user who has no access to the first user's buckets. */
  otherCredentials: { accessKeyId: string; secretAccessKey: string };
}

export function s3Enabled(): boolean {
  return process.env.STORE_DOCTOR_S3 !== 'off';
}

export function s3Env(): S3TestEnv {
  const e = process.env;
  if (!e.S3_TEST_ENDPOINT || !e.S3_TEST_ACCESS_KEY_ID || !e.S3_TEST_SECRET_ACCESS_KEY) {
    throw new Error(
      s3Enabled()
        ? 'S3 test server not available: S3_TEST_ENDPOINT is not set. Run through vitest (globalSetup test/support/s3-global-setup.ts starts Ceph RGW) or start one: npx tsx test/support/rgw.ts start'
        : 'S3 tests are off (STORE_DOCTOR_S3=off): skip this suite with describe.skipIf(!s3Enabled())',
    );
  }
  return {
    endpoint: e.S3_TEST_ENDPOINT,
    region: e.S3_TEST_REGION ?? 'us-east-1',
    credentials: { accessKeyId: e.S3_TEST_ACCESS_KEY_ID, secretAccessKey: e.S3_TEST_SECRET_ACCESS_KEY },
    otherCredentials: { accessKeyId: e.S3_TEST_OTHER_ACCESS_KEY_ID ?? '', secretAccessKey: e.S3_TEST_OTHER_SECRET_ACCESS_KEY ?? '' },
  };
}

/** A bucket name no other test (or earlier run) uses: `<base>-<time>-<random>`, valid for S3. */
export function uniqueBucketName(base = 'test'): string {
  const clean =
    base
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 30) || 'test';
  return `${clean}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** Run `fn` over `items` with at most `limit` in flight. */
export async function mapLimit<T>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export function testS3() {
  const env = s3Env();
  const client = (opts: { other?: boolean } = {}): S3Client =>
    createS3Client({ endpoint: env.endpoint, region: env.region, pathStyle: true, credentials: opts.other ? env.otherCredentials : env.credentials });
  const admin = client();
  return {
    ...env,
    client,
    /** Creates a bucket with a unique name derived from `base`; returns the name. */
    async createBucket(base: string, opts: { versioning?: boolean } = {}): Promise<string> {
      const bucket = uniqueBucketName(base);
      await admin.send(new CreateBucketCommand({ Bucket: bucket }));
      if (opts.versioning) await admin.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }));
      return bucket;
    },
    /** PUTs every key (body: the key itself unless `body` says otherwise), `concurrency` at a time. */
    async putKeys(bucket: string, keys: readonly string[], opts: { concurrency?: number; body?: (key: string) => string } = {}): Promise<void> {
      await mapLimit(keys, opts.concurrency ?? 16, async (key) => {
        const body = opts.body ? opts.body(key) : key;
        await admin.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentLength: Buffer.byteLength(body) }));
      });
    },
  };
}

export type TestS3 = ReturnType<typeof testS3>;
