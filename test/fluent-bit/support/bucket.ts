/**
 * The bucket side of a scenario: listings with ETags and versions, before/after snapshots, the
 * diff that counts overwritten objects, object bodies as records, and the same listings in the
 * JSON shapes of `aws s3api list-objects-v2 / list-object-versions / list-multipart-uploads`.
 */
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  ListPartsCommand,
  PutBucketVersioningCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { objectLines, type JsonLines } from './records';

export interface S3Conn {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export function s3Client(c: S3Conn): S3Client {
  return new S3Client({
    endpoint: c.endpoint,
    region: c.region,
    forcePathStyle: true,
    credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey },
  });
}

/** `fb-<base>-<time>-<hex>`: unique per test, valid for S3 (≤ 63 chars). */
export function bucketName(base: string): string {
  const clean = base
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 36);
  return `fb-${clean}-${Date.now().toString(36)}-${randomBytes(2).toString('hex')}`;
}

export async function createBucket(s3: S3Client, base: string, opts: { versioning?: boolean } = {}): Promise<string> {
  const Bucket = bucketName(base);
  await s3.send(new CreateBucketCommand({ Bucket }));
  if (opts.versioning) await s3.send(new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Enabled' } }));
  return Bucket;
}

export interface ObjectEntry {
  key: string;
  etag: string;
  size: number;
  lastModified: string;
}
export interface VersionEntry extends ObjectEntry {
  versionId: string;
  isLatest: boolean;
}
export interface UploadEntry {
  key: string;
  uploadId: string;
  initiated: string;
  parts: { partNumber: number; etag: string; size: number }[];
}
export interface BucketSnapshot {
  bucket: string;
  takenAt: string;
  objects: ObjectEntry[];
  versions: VersionEntry[];
  deleteMarkers: { key: string; versionId: string; isLatest: boolean; lastModified: string }[];
  uploads: UploadEntry[];
}

const iso = (d: Date | undefined) => (d ? d.toISOString() : '');

export async function listObjects(s3: S3Client, bucket: string): Promise<ObjectEntry[]> {
  const out: ObjectEntry[] = [];
  let token: string | undefined;
  do {
    const r = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    for (const o of r.Contents ?? []) out.push({ key: o.Key!, etag: o.ETag!, size: o.Size ?? 0, lastModified: iso(o.LastModified) });
    token = r.IsTruncated ? r.NextContinuationToken : undefined;
  } while (token);
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

export async function listVersions(s3: S3Client, bucket: string): Promise<Pick<BucketSnapshot, 'versions' | 'deleteMarkers'>> {
  const versions: VersionEntry[] = [];
  const deleteMarkers: BucketSnapshot['deleteMarkers'] = [];
  let keyMarker: string | undefined;
  let versionMarker: string | undefined;
  for (;;) {
    const r = await s3.send(new ListObjectVersionsCommand({ Bucket: bucket, KeyMarker: keyMarker, VersionIdMarker: versionMarker }));
    for (const v of r.Versions ?? [])
      versions.push({
        key: v.Key!,
        etag: v.ETag!,
        size: v.Size ?? 0,
        lastModified: iso(v.LastModified),
        versionId: v.VersionId ?? 'null',
        isLatest: !!v.IsLatest,
      });
    for (const d of r.DeleteMarkers ?? [])
      deleteMarkers.push({ key: d.Key!, versionId: d.VersionId ?? 'null', isLatest: !!d.IsLatest, lastModified: iso(d.LastModified) });
    if (!r.IsTruncated) break;
    keyMarker = r.NextKeyMarker;
    versionMarker = r.NextVersionIdMarker;
  }
  return { versions, deleteMarkers };
}

export async function listUploads(s3: S3Client, bucket: string): Promise<UploadEntry[]> {
  const out: UploadEntry[] = [];
  let keyMarker: string | undefined;
  let idMarker: string | undefined;
  for (;;) {
    const r = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket, KeyMarker: keyMarker, UploadIdMarker: idMarker }));
    for (const u of r.Uploads ?? []) {
      const parts: UploadEntry['parts'] = [];
      let pm: string | undefined;
      for (;;) {
        const p = await s3.send(new ListPartsCommand({ Bucket: bucket, Key: u.Key!, UploadId: u.UploadId!, PartNumberMarker: pm }));
        for (const x of p.Parts ?? []) parts.push({ partNumber: x.PartNumber!, etag: x.ETag!, size: x.Size ?? 0 });
        if (!p.IsTruncated) break;
        pm = p.NextPartNumberMarker;
      }
      out.push({ key: u.Key!, uploadId: u.UploadId!, initiated: iso(u.Initiated), parts });
    }
    if (!r.IsTruncated) break;
    keyMarker = r.NextKeyMarker;
    idMarker = r.NextUploadIdMarker;
  }
  return out;
}

export async function snapshotBucket(s3: S3Client, bucket: string): Promise<BucketSnapshot> {
  const takenAt = new Date().toISOString();
  const [objects, v, uploads] = await Promise.all([listObjects(s3, bucket), listVersions(s3, bucket), listUploads(s3, bucket)]);
  return { bucket, takenAt, objects, ...v, uploads };
}

export interface Overwrite {
  key: string;
  before: ObjectEntry;
  after: ObjectEntry | null;
  why: string;
}

/**
 * Objects of `before` that `after` no longer holds as they were: same key with another ETag or
 * LastModified, a new version stacked on it, or gone. New keys are not overwrites.
 */
export function overwritten(before: BucketSnapshot, after: BucketSnapshot): Overwrite[] {
  const now = new Map(after.objects.map((o) => [o.key, o]));
  const versionsAfter = new Map<string, number>();
  for (const v of after.versions) versionsAfter.set(v.key, (versionsAfter.get(v.key) ?? 0) + 1);
  const versionsBefore = new Map<string, number>();
  for (const v of before.versions) versionsBefore.set(v.key, (versionsBefore.get(v.key) ?? 0) + 1);
  const out: Overwrite[] = [];
  for (const b of before.objects) {
    const a = now.get(b.key) ?? null;
    if (!a) out.push({ key: b.key, before: b, after: null, why: 'gone' });
    else if (a.etag !== b.etag) out.push({ key: b.key, before: b, after: a, why: `ETag ${b.etag} → ${a.etag}` });
    else if (a.lastModified !== b.lastModified)
      out.push({ key: b.key, before: b, after: a, why: `written again (LastModified ${b.lastModified} → ${a.lastModified})` });
    else if ((versionsAfter.get(b.key) ?? 0) > (versionsBefore.get(b.key) ?? 0))
      out.push({ key: b.key, before: b, after: a, why: `new version (${versionsBefore.get(b.key) ?? 0} → ${versionsAfter.get(b.key)})` });
  }
  return out;
}

export interface ObjectRecords extends JsonLines {
  key: string;
  size: number;
  contentEncoding?: string;
  gzip: boolean;
}

/** Every current object's body as records (bodies are small in these scenarios). */
export async function readObjects(s3: S3Client, bucket: string, objects?: ObjectEntry[]): Promise<ObjectRecords[]> {
  const list = objects ?? (await listObjects(s3, bucket));
  const out: ObjectRecords[] = [];
  for (const o of list) {
    const r = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: o.key }));
    const body = Buffer.from(await r.Body!.transformToByteArray());
    out.push({ key: o.key, size: body.length, contentEncoding: r.ContentEncoding, ...objectLines(body, r.ContentEncoding) });
  }
  return out;
}

// ── `aws s3api` shapes (what a customer sends; what the CLI's --listing/--versions/--multipart read) ──

const awsTime = (t: string) => (t ? new Date(t).toISOString().replace(/\.\d{3}Z$/, '+00:00') : t);

export function s3apiListObjectsV2(s: BucketSnapshot): unknown {
  const Contents = s.objects.map((o) => ({ Key: o.key, LastModified: awsTime(o.lastModified), ETag: o.etag, Size: o.size, StorageClass: 'STANDARD' }));
  return Contents.length ? { Contents, RequestCharged: null, Prefix: '' } : { RequestCharged: null, Prefix: '' };
}

export function s3apiListObjectVersions(s: BucketSnapshot): unknown {
  return {
    Versions: s.versions.map((v) => ({
      ETag: v.etag,
      Size: v.size,
      StorageClass: 'STANDARD',
      Key: v.key,
      VersionId: v.versionId,
      IsLatest: v.isLatest,
      LastModified: awsTime(v.lastModified),
    })),
    DeleteMarkers: s.deleteMarkers.map((d) => ({ Key: d.key, VersionId: d.versionId, IsLatest: d.isLatest, LastModified: awsTime(d.lastModified) })),
    RequestCharged: null,
    Prefix: '',
  };
}

export function s3apiListMultipartUploads(s: BucketSnapshot): unknown {
  return {
    Uploads: s.uploads.map((u) => ({ UploadId: u.uploadId, Key: u.key, Initiated: awsTime(u.initiated), StorageClass: 'STANDARD' })),
    Bucket: s.bucket,
  };
}

/** Records of every version (current and non-current) of a versioned bucket. */
export async function readVersionRecords(
  s3: S3Client,
  bucket: string,
  versions: VersionEntry[],
): Promise<(ObjectRecords & { versionId: string; isLatest: boolean })[]> {
  const out: (ObjectRecords & { versionId: string; isLatest: boolean })[] = [];
  for (const v of versions) {
    const r = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: v.key, VersionId: v.versionId }));
    const body = Buffer.from(await r.Body!.transformToByteArray());
    out.push({
      key: v.key,
      versionId: v.versionId,
      isLatest: v.isLatest,
      size: body.length,
      contentEncoding: r.ContentEncoding,
      ...objectLines(body, r.ContentEncoding),
    });
  }
  return out;
}
