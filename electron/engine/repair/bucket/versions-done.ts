/**
 * What recover-versions already did: every manifest it wrote under its recovery folder names each
 * copy with its source key, version id and the sha256 of the copied bytes. A version whose copy is
 * still there with exactly those bytes is recognised and planned no more (issue 18 case 6: right
 * after `--apply` the same copies were offered again, under a new time-stamped prefix).
 * Manifests are read from the bucket: hostile input, bounded, and checked field by field.
 */
import { sha256 } from '../journal';
import type { S3Client } from '@aws-sdk/client-s3';
import { awsS3 } from '../../s3/sdk';
import { getObjectBytes, headObject } from './s3ops';

/** Where recover-versions puts its copies by default (`<root><UTC stamp>/`). */
export const RECOVERY_ROOT = 'store-doctor-recovered/';
const MAX_MANIFESTS = 1000;
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;
/** Copies larger than this are not hashed (their sha256 is not recorded, so they are not recognised). */
export const MAX_HASHED = 256 * 1024 * 1024;

export interface DoneCopy {
  targetKey: string;
  sha256: string;
  manifestKey: string;
}

export const versionKey = (sourceKey: string, versionId: string) => `${sourceKey}\0${versionId}`;

/** sha256 of an object's bytes, or null when it is missing or larger than MAX_HASHED. */
export async function objectSha256(client: S3Client, bucket: string, key: string, signal?: AbortSignal): Promise<string | null> {
  const h = await headObject(client, bucket, key, signal);
  if (!h || h.size > MAX_HASHED) return null;
  return sha256(await getObjectBytes(client, bucket, key, signal));
}

async function manifestKeys(client: S3Client, bucket: string, prefixes: string[], signal?: AbortSignal): Promise<string[]> {
  const out = new Set<string>();
  for (const Prefix of prefixes) {
    let ContinuationToken: string | undefined;
    do {
      const r = await client.send(new (awsS3().ListObjectsV2Command)({ Bucket: bucket, Prefix, ContinuationToken }), { abortSignal: signal });
      for (const o of r.Contents ?? []) if (o.Key?.endsWith('manifest.json') && (o.Size ?? 0) <= MAX_MANIFEST_BYTES) out.add(o.Key);
      ContinuationToken = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (ContinuationToken && out.size < MAX_MANIFESTS);
  }
  return [...out].slice(0, MAX_MANIFESTS);
}

const str = (v: unknown, max = 4096): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

/** Copies the manifests under `prefixes` record as made, per source version; `problems`: manifests that could not be read. */
export async function readDoneCopies(
  client: S3Client,
  bucket: string,
  prefixes: string[],
  signal?: AbortSignal,
): Promise<{ done: Map<string, DoneCopy[]>; problems: string[] }> {
  const done = new Map<string, DoneCopy[]>();
  const problems: string[] = [];
  for (const manifestKey of await manifestKeys(client, bucket, prefixes, signal)) {
    let doc: unknown;
    try {
      doc = JSON.parse((await getObjectBytes(client, bucket, manifestKey, signal)).toString('utf8'));
    } catch (err) {
      problems.push(`${manifestKey}: not read (${(err as Error).message.slice(0, 200)})`);
      continue;
    }
    const copies = (doc as { tool?: unknown; copies?: unknown })?.copies;
    if ((doc as { tool?: unknown })?.tool !== 'store-doctor' || !Array.isArray(copies)) continue;
    for (const c of copies as Record<string, unknown>[]) {
      if (!c || c.status !== 'copied' || !str(c.sourceKey) || !str(c.versionId, 1024) || !str(c.targetKey) || !str(c.sha256, 64)) continue;
      if (!/^[0-9a-f]{64}$/.test(c.sha256)) continue;
      const k = versionKey(c.sourceKey, c.versionId);
      done.set(k, [...(done.get(k) ?? []), { targetKey: c.targetKey, sha256: c.sha256, manifestKey }]);
    }
  }
  return { done, problems };
}
