/**
 * One replay upload: read the chunk again (it must still be the bytes its intent names), resolve
 * an intent an interrupted run left (HEAD: is the object there, and is it ours?), PutObject
 * create-only under the intent's key, and confirm. A 412 on a key that holds another object takes
 * the next index (a new intent, fsynced before that PUT).
 *
 * Confirmation: a PUT whose ETag is the MD5 of the bytes sent proves the server stored exactly
 * them, so no HEAD is needed; any other ETag (SSE-KMS, SSE-C, none) is confirmed by HEAD (size).
 *
 * Retries: throttling (SlowDown, 503) and other transient errors are retried by the S3 client's
 * own retry strategy (the SDK's standard mode: exponential backoff with jitter, `maxAttempts`).
 * A create-only PUT is safe to retry: if a lost answer hid a commit, the retry ends in 412 and the
 * object is recognised as ours. When the attempts run out, the error names the object and chunk.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { ReplayItem } from '../../../../shared/model';
import { objectBody, md5Hex, readChunkFile, replayContent, type ReplayCompression } from './chunkfile';
import { sha256 } from '../journal';
import { assertInside } from '../write';
import { getObjectBytes, headObject, putCreateOnly, type ConditionalMode, type HeadResult } from './s3ops';
import type { ReplayLine } from './replay-journal';

/** A planned chunk with the key (and index) assigned before any upload started. */
export interface Prepared {
  item: ReplayItem;
  /** Absolute path of the chunk. */
  file: string;
  /** sha256 of the content sent (before compression): the journal's identity of the chunk. */
  src: string;
  md5: string;
  size: number;
  /** The body to send, kept from the read that hashed it (absent beyond the cache budget). */
  body?: Buffer;
  key: string;
  index: number | null;
  /** `fresh`: intent written by this run; `intent`: left by an interrupted run; `uploaded`: recorded uploaded. */
  from: 'fresh' | 'intent' | 'uploaded';
  /** When the interrupted run wrote its intent or, later, started its PUT (for `intent`). */
  intentAt?: string;
}

export interface UploadContext {
  client: S3Client;
  bucket: string;
  rootPath: string;
  mode: ConditionalMode;
  compression: ReplayCompression;
  /** Another key may be taken when one exists ($INDEX or $UUID formats). */
  canTakeNext: boolean;
  /** The next free key (allocates an index). */
  nextKey(p: Prepared): Promise<{ key: string; index: number | null }>;
  /** Record one journal line (written at once; fsynced per batch). */
  record(line: ReplayLine): Promise<void>;
  /** Record an intent and fsync it (before the PUT that uses it). */
  recordIntent(line: Extract<ReplayLine, { t: 'intent' }>): Promise<void>;
  settleMs: number;
  afterIntent?: () => Promise<void> | void;
  afterUpload?: () => Promise<void> | void;
}

export interface Uploaded {
  key: string;
  etag: string | null;
  message?: string;
}

interface AwsErrorLike {
  name?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number; attempts?: number; totalRetryDelay?: number };
}

/** An S3 error turned into one that names the object, the chunk and how often it was tried. */
export function uploadError(err: unknown, bucket: string, key: string, chunkPath: string, op: string): Error {
  const e = err as AwsErrorLike;
  const status = e?.$metadata?.httpStatusCode;
  const attempts = e?.$metadata?.attempts;
  const delay = e?.$metadata?.totalRetryDelay;
  const tried = attempts ? ` after ${attempts} attempt${attempts === 1 ? '' : 's'}${delay ? ` (${delay} ms of backoff)` : ''}` : '';
  const what = [e?.name && e.name !== 'Error' ? e.name : null, status ? `HTTP ${status}` : null].filter(Boolean).join(', ');
  const out = new Error(`s3://${bucket}/${key} (${chunkPath}): ${op} failed${tried}${what ? ` — ${what}` : ''}: ${e?.message ?? String(err)}`);
  (out as Error & { cause?: unknown }).cause = err;
  return out;
}

async function isOurs(ctx: UploadContext, key: string, h: HeadResult, body: Buffer, md5: string): Promise<boolean> {
  if (h.size !== body.length) return false;
  if (h.etag === md5) return true;
  return (await getObjectBytes(ctx.client, ctx.bucket, key)).equals(body);
}

const now = () => new Date().toISOString();

/** The body of a chunk whose bytes were not kept: read again, and it must be what its intent names. */
async function readAgain(ctx: UploadContext, p: Prepared): Promise<Buffer> {
  await assertInside(ctx.rootPath, p.file, 'the chunk');
  const content = replayContent(await readChunkFile(p.file));
  if (sha256(content) !== p.src) throw new Error(`${p.file}: the chunk changed after its key was assigned; not sent (run the replay again)`);
  const { body } = objectBody(content, ctx.compression);
  if (md5Hex(body) !== p.md5) throw new Error(`${p.file}: the chunk's body is not the one its intent names; not sent`);
  return body;
}

/** Upload one prepared chunk; resolves when its object is in the bucket and recorded as `uploaded`. */
export async function uploadOne(ctx: UploadContext, p: Prepared): Promise<Uploaded> {
  const chunk = p.item.chunkPath;
  if (p.from === 'uploaded') {
    p.body = undefined;
    return { key: p.key, etag: null, message: 'uploaded by an earlier run; moved now' };
  }
  const body = p.body ?? (await readAgain(ctx, p));
  p.body = undefined; // the cache holds each body until its upload only
  const contentEncoding = ctx.compression === 'gzip' ? 'gzip' : undefined;
  const md5 = p.md5;
  let key: string | null = p.key;
  let message: string | undefined;
  const attempt = async <T>(op: string, k: string, f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (err) {
      throw uploadError(err, ctx.bucket, k, chunk, op);
    }
  };
  if (p.from === 'intent') {
    const k = p.key;
    let h = await attempt('HeadObject', k, () => headObject(ctx.client, ctx.bucket, k));
    const age = Date.now() - Date.parse(p.intentAt ?? now());
    // A PUT the killed run had fully sent can still be committed a moment later.
    if (!h && age < ctx.settleMs) {
      await new Promise((r) => setTimeout(r, ctx.settleMs - age));
      h = await attempt('HeadObject', k, () => headObject(ctx.client, ctx.bucket, k));
    }
    if (h && (await attempt('GetObject', k, () => isOurs(ctx, k, h!, body, md5)))) {
      await ctx.record({ t: 'uploaded', chunk, src: p.src, key: k, etag: h.etag, at: now() });
      return { key: k, etag: h.etag, message: 'resumed: the object from the interrupted run is in the bucket' };
    }
    if (h) {
      await ctx.record({ t: 'conflict', chunk, src: p.src, key: k, at: now() });
      message = `key ${k} exists (another object): took the next ${p.index !== null ? 'index' : 'key'}`;
      key = null;
    }
  }
  for (let round = 0; ; round++) {
    if (round > 1000) throw new Error(`${chunk}: 1000 keys taken in a row; giving up`);
    if (!key) {
      if (!ctx.canTakeNext) throw new Error(`s3://${ctx.bucket}/${p.key} exists and the key format cannot produce another key; not overwriting`);
      const next = await ctx.nextKey(p);
      key = next.key;
      p.index = next.index;
      p.item.index = next.index;
      await ctx.recordIntent({ t: 'intent', chunk, src: p.src, key, index: next.index, size: body.length, md5, at: now() });
      await ctx.afterIntent?.();
    }
    const k = key;
    await ctx.record({ t: 'started', chunk, src: p.src, key: k, at: now() });
    const out = await attempt('PutObject', k, () => putCreateOnly(ctx.client, ctx.bucket, k, body, { mode: ctx.mode, contentEncoding }));
    if (out.created) {
      let etag = out.etag;
      if (etag !== md5) {
        const h = await attempt('HeadObject', k, () => headObject(ctx.client, ctx.bucket, k));
        if (!h || h.size !== body.length || (out.etag && h.etag && out.etag !== h.etag))
          throw new Error(`s3://${ctx.bucket}/${k} (${chunk}): HeadObject does not confirm the upload (${h ? `${h.size} bytes` : 'missing'})`);
        etag = h.etag;
      }
      await ctx.record({ t: 'uploaded', chunk, src: p.src, key: k, etag, at: now() });
      await ctx.afterUpload?.();
      return { key: k, etag, message };
    }
    // 412: if the object there is byte-for-byte this chunk (a late commit of a killed run's PUT, or
    // a retried PUT whose first attempt was committed), it is ours.
    const h = await attempt('HeadObject', k, () => headObject(ctx.client, ctx.bucket, k));
    if (h && (await attempt('GetObject', k, () => isOurs(ctx, k, h, body, md5)))) {
      await ctx.record({ t: 'uploaded', chunk, src: p.src, key: k, etag: h.etag, at: now() });
      return { key: k, etag: h.etag, message };
    }
    await ctx.record({ t: 'conflict', chunk, src: p.src, key: k, at: now() });
    message = `${message ? message + '; ' : ''}key ${k} exists (412): took the next ${p.index !== null ? 'index' : 'key'}`;
    key = null;
  }
}
