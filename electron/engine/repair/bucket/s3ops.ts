/**
 * Create-only S3 writes for replay and recovery: PutObject with `If-None-Match: *` (412 when the
 * key exists), a probe for endpoints that ignore or reject conditional writes (then HEAD-then-PUT,
 * not atomic, with a warning), and HEAD/GET confirmation.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { awsS3 } from '../../s3/sdk';
import { randomBytes } from 'node:crypto';

interface AwsError {
  name?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

export function httpStatus(err: unknown): number | undefined {
  return (err as AwsError)?.$metadata?.httpStatusCode;
}

export function isPreconditionFailed(err: unknown): boolean {
  const e = err as AwsError;
  return httpStatus(err) === 412 || e?.name === 'PreconditionFailed' || e?.Code === 'PreconditionFailed';
}

/** 409 ConditionalRequestConflict: a concurrent conditional write; retry. */
export function isConditionalConflict(err: unknown): boolean {
  return httpStatus(err) === 409;
}

export function isNotFound(err: unknown): boolean {
  const e = err as AwsError;
  return httpStatus(err) === 404 || e?.name === 'NotFound' || e?.name === 'NoSuchKey';
}

function isNotImplemented(err: unknown): boolean {
  const e = err as AwsError;
  return httpStatus(err) === 501 || e?.name === 'NotImplemented';
}

export interface HeadResult {
  size: number;
  etag: string | null;
  contentEncoding: string | null;
}

export async function headObject(client: S3Client, bucket: string, key: string, signal?: AbortSignal): Promise<HeadResult | null> {
  try {
    const h = await client.send(new (awsS3().HeadObjectCommand)({ Bucket: bucket, Key: key }), { abortSignal: signal });
    return { size: h.ContentLength ?? 0, etag: unquote(h.ETag), contentEncoding: h.ContentEncoding ?? null };
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

export async function getObjectBytes(client: S3Client, bucket: string, key: string, signal?: AbortSignal): Promise<Buffer> {
  const r = await client.send(new (awsS3().GetObjectCommand)({ Bucket: bucket, Key: key }), { abortSignal: signal });
  const bytes = await r.Body!.transformToByteArray();
  return Buffer.from(bytes);
}

export function unquote(etag: string | undefined | null): string | null {
  if (!etag) return null;
  return etag.replace(/^W\//, '').replace(/^"+|"+$/g, '');
}

export type ConditionalMode = 'if-none-match' | 'head-then-put';

/** How a create-only PUT is made: the server's conditional mode, the body's encoding, cancellation. */
interface PutOptions {
  mode: ConditionalMode;
  contentEncoding?: string;
  signal?: AbortSignal;
}

export type PutOutcome = { created: true; etag: string | null } | { created: false; reason: 'exists' };

/** Create `key` only if it does not exist. Never overwrites (within the limits of `mode`). */
export async function putCreateOnly(client: S3Client, bucket: string, key: string, body: Buffer, opts: PutOptions): Promise<PutOutcome> {
  if (opts.mode === 'head-then-put' && (await headObject(client, bucket, key, opts.signal))) return { created: false, reason: 'exists' };
  for (let attempt = 1; ; attempt++) {
    try {
      return await putOnce(client, bucket, key, body, opts);
    } catch (err) {
      // 409 ConditionalRequestConflict: another conditional write to the key raced this one; the
      // retry ends in 412 (it won) or a create (it failed). Never taken as "created".
      if (!isConditionalConflict(err) || attempt >= 4) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}

async function putOnce(client: S3Client, bucket: string, key: string, body: Buffer, opts: PutOptions): Promise<PutOutcome> {
  try {
    const r = await client.send(
      new (awsS3().PutObjectCommand)({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentLength: body.length,
        ...(opts.contentEncoding ? { ContentEncoding: opts.contentEncoding } : {}),
        ...(opts.mode === 'if-none-match' ? { IfNoneMatch: '*' } : {}),
      }),
      { abortSignal: opts.signal },
    );
    return { created: true, etag: unquote(r.ETag) };
  } catch (err) {
    if (isPreconditionFailed(err)) return { created: false, reason: 'exists' };
    throw err;
  }
}

/**
 * Does this endpoint honour `If-None-Match: *` on PutObject? Writes a probe key twice (the second
 * must fail with 412) and deletes it. Returns the mode to use and a warning when falling back.
 */
export async function probeConditionalWrites(
  client: S3Client,
  bucket: string,
  signal?: AbortSignal,
): Promise<{ mode: ConditionalMode; warning: string | null }> {
  const key = `.store-doctor-probe/${Date.now()}-${randomBytes(6).toString('hex')}`;
  const put = () =>
    client.send(new (awsS3().PutObjectCommand)({ Bucket: bucket, Key: key, Body: Buffer.from('probe'), ContentLength: 5, IfNoneMatch: '*' }), {
      abortSignal: signal,
    });
  const fallback = (why: string) => ({
    mode: 'head-then-put' as const,
    warning: `WARNING: this endpoint ${why}: falling back to HEAD-then-PUT, which is NOT atomic — a key created by someone else between the HEAD and the PUT would be overwritten. Stop every writer to this bucket prefix while replaying.`,
  });
  let versionId: string | undefined;
  try {
    versionId = (await put()).VersionId;
  } catch (err) {
    if (isNotImplemented(err) || httpStatus(err) === 400) return fallback(`rejects conditional writes (${(err as AwsError).name ?? httpStatus(err)})`);
    throw err;
  }
  try {
    const second = await put();
    if (second.VersionId)
      await client.send(new (awsS3().DeleteObjectCommand)({ Bucket: bucket, Key: key, VersionId: second.VersionId })).catch(() => undefined);
    return fallback('ignores If-None-Match: * (a second create of the same key succeeded)');
  } catch (err) {
    if (isPreconditionFailed(err)) return { mode: 'if-none-match', warning: null };
    if (isNotImplemented(err)) return fallback('rejects conditional writes');
    throw err;
  } finally {
    // delete the probe's own version when the bucket is versioned, so it leaves no trace
    await client.send(new (awsS3().DeleteObjectCommand)({ Bucket: bucket, Key: key, ...(versionId ? { VersionId: versionId } : {}) })).catch(() => undefined);
  }
}
