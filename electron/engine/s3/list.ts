/**
 * Paginated S3 listings (objects, versions, multipart uploads, parts), each request counted,
 * each cancellable. Results use the domain types of shared/model.ts.
 */
import type {
  ListObjectsV2CommandOutput,
  ListObjectVersionsCommandOutput,
  ListPartsCommandOutput,
  ListMultipartUploadsCommandOutput,
  S3Client,
  _Object,
} from '@aws-sdk/client-s3';
import { awsS3 } from './sdk';
import type { S3ObjectEntry, S3UploadEntry, S3VersionEntry } from '../../../shared/model';

export interface RequestCounter {
  requests: number;
}

export interface ListOptions {
  signal?: AbortSignal;
  /** Incremented once per request sent. */
  counter?: RequestCounter;
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : Object.assign(new Error('cancelled'), { name: 'AbortError' });
}

async function send<T>(client: S3Client, command: object, opts: ListOptions): Promise<T> {
  throwIfAborted(opts.signal);
  if (opts.counter) opts.counter.requests++;
  return (await client.send(command as never, { abortSignal: opts.signal })) as T;
}

const iso = (d: Date | string | undefined | null): string | null => {
  if (!d) return null;
  const t = d instanceof Date ? d : new Date(d);
  return Number.isNaN(t.getTime()) ? null : t.toISOString();
};

export function toObjectEntry(o: _Object): S3ObjectEntry {
  return { key: o.Key ?? '', size: o.Size ?? 0, etag: o.ETag ?? null, lastModified: iso(o.LastModified) };
}

export interface ScanRange {
  prefix?: string;
  /** Exclusive lower bound (ListObjectsV2 `StartAfter`). */
  startAfter?: string;
  /** Stop once a key is beyond this (keys are returned in byte order). */
  stopWhen?: (key: string) => boolean;
  delimiter?: string;
  maxKeys?: number;
}

/** Every page of a ListObjectsV2 walk; stops early when `stopWhen` says so. */
export async function* objectPages(client: S3Client, bucket: string, range: ScanRange, opts: ListOptions = {}): AsyncGenerator<ListObjectsV2CommandOutput> {
  let token: string | undefined;
  for (;;) {
    const page = await send<ListObjectsV2CommandOutput>(
      client,
      new (awsS3().ListObjectsV2Command)({
        Bucket: bucket,
        Prefix: range.prefix || undefined,
        Delimiter: range.delimiter,
        StartAfter: token ? undefined : range.startAfter,
        ContinuationToken: token,
        MaxKeys: range.maxKeys,
      }),
      opts,
    );
    yield page;
    const last = page.Contents?.at(-1)?.Key;
    if (range.stopWhen && last !== undefined && range.stopWhen(last)) return;
    if (!page.IsTruncated || !page.NextContinuationToken) return;
    token = page.NextContinuationToken;
  }
}

/** Every object under `prefix` (default: the whole bucket), in key order. */
export async function listAllObjects(
  client: S3Client,
  bucket: string,
  prefix?: string,
  opts: ListOptions & Omit<ScanRange, 'prefix' | 'delimiter'> = {},
): Promise<S3ObjectEntry[]> {
  const out: S3ObjectEntry[] = [];
  for await (const page of objectPages(client, bucket, { ...opts, prefix }, opts)) {
    for (const o of page.Contents ?? []) {
      if (opts.stopWhen?.(o.Key ?? '')) return out;
      out.push(toObjectEntry(o));
    }
  }
  return out;
}

/** Every version and delete marker under `prefix`, in key order, newest version first per key. */
export async function listVersions(
  client: S3Client,
  bucket: string,
  prefix?: string,
  opts: ListOptions & { keyMarker?: string; stopWhen?: (key: string) => boolean } = {},
): Promise<S3VersionEntry[]> {
  const out: S3VersionEntry[] = [];
  let keyMarker = opts.keyMarker;
  let versionIdMarker: string | undefined;
  for (;;) {
    const page = await send<ListObjectVersionsCommandOutput>(
      client,
      new (awsS3().ListObjectVersionsCommand)({ Bucket: bucket, Prefix: prefix || undefined, KeyMarker: keyMarker, VersionIdMarker: versionIdMarker }),
      opts,
    );
    const entries: S3VersionEntry[] = [
      ...(page.Versions ?? []).map((v) => ({
        key: v.Key ?? '',
        size: v.Size ?? 0,
        etag: v.ETag ?? null,
        lastModified: iso(v.LastModified),
        versionId: v.VersionId ?? 'null',
        isLatest: !!v.IsLatest,
        isDeleteMarker: false,
      })),
      ...(page.DeleteMarkers ?? []).map((d) => ({
        key: d.Key ?? '',
        size: 0,
        etag: null,
        lastModified: iso(d.LastModified),
        versionId: d.VersionId ?? 'null',
        isLatest: !!d.IsLatest,
        isDeleteMarker: true,
      })),
    ];
    for (const e of entries) if (!opts.stopWhen?.(e.key)) out.push(e);
    const stop = opts.stopWhen && entries.length > 0 && entries.every((e) => opts.stopWhen!(e.key));
    if (stop || !page.IsTruncated) break;
    keyMarker = page.NextKeyMarker;
    versionIdMarker = page.NextVersionIdMarker;
    if (!keyMarker) break;
  }
  return sortVersions(out);
}

/** Key order, then newest first (LastModified desc; the latest flagged first on ties). */
export function sortVersions(v: S3VersionEntry[]): S3VersionEntry[] {
  return v.sort((a, b) => {
    if (a.key !== b.key) return a.key < b.key ? -1 : 1;
    if (a.isLatest !== b.isLatest) return a.isLatest ? -1 : 1;
    return (b.lastModified ?? '').localeCompare(a.lastModified ?? '');
  });
}

export type VersioningStatus = 'Enabled' | 'Suspended' | 'Off';

export async function versioningStatus(client: S3Client, bucket: string, opts: ListOptions = {}): Promise<VersioningStatus> {
  const out = await send<{ Status?: string }>(client, new (awsS3().GetBucketVersioningCommand)({ Bucket: bucket }), opts);
  return out.Status === 'Enabled' ? 'Enabled' : out.Status === 'Suspended' ? 'Suspended' : 'Off';
}

export async function listParts(
  client: S3Client,
  bucket: string,
  key: string,
  uploadId: string,
  opts: ListOptions = {},
): Promise<NonNullable<S3UploadEntry['parts']>> {
  const parts: NonNullable<S3UploadEntry['parts']> = [];
  let marker: string | undefined;
  for (;;) {
    const page = await send<ListPartsCommandOutput>(
      client,
      new (awsS3().ListPartsCommand)({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }),
      opts,
    );
    for (const p of page.Parts ?? []) parts.push({ partNumber: p.PartNumber ?? 0, etag: p.ETag ?? '', size: p.Size ?? 0 });
    if (!page.IsTruncated || !page.NextPartNumberMarker) break;
    marker = String(page.NextPartNumberMarker);
  }
  return parts.sort((a, b) => a.partNumber - b.partNumber);
}

/**
 * Multipart uploads in progress (under `prefix`), with their parts when `withParts`.
 * A ListParts that fails for one upload (denied, upload completed meanwhile) leaves its parts null.
 */
export async function listMultipartUploads(
  client: S3Client,
  bucket: string,
  opts: ListOptions & { prefix?: string; withParts?: boolean; onPartsError?: (upload: S3UploadEntry, err: unknown) => void } = {},
): Promise<S3UploadEntry[]> {
  const out: S3UploadEntry[] = [];
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  for (;;) {
    const page = await send<ListMultipartUploadsCommandOutput>(
      client,
      new (awsS3().ListMultipartUploadsCommand)({ Bucket: bucket, Prefix: opts.prefix || undefined, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
      opts,
    );
    for (const u of page.Uploads ?? []) out.push({ key: u.Key ?? '', uploadId: u.UploadId ?? '', initiated: iso(u.Initiated) });
    if (!page.IsTruncated) break;
    keyMarker = page.NextKeyMarker;
    uploadIdMarker = page.NextUploadIdMarker;
    if (!keyMarker && !uploadIdMarker) break;
  }
  if (opts.withParts) {
    for (const u of out) {
      try {
        u.parts = await listParts(client, bucket, u.key, u.uploadId, opts);
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        u.parts = null;
        opts.onPartsError?.(u, err);
      }
    }
  }
  return out;
}
