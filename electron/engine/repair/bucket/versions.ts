/**
 * Version recovery: in a versioned bucket, an index reset leaves the overwritten
 * objects as non-current versions. Copy each one create-only to a new key under a recovery prefix
 * (`<prefix><key>.version-<n>-<versionId>`, n = 1 for the oldest) and write a manifest JSON that
 * maps every copy to its source key, version and time. Nothing in the store is touched.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { awsS3 } from '../../s3/sdk';
import type { RecoveryCopy, RepairPlan, RepairResult, S3VersionEntry } from '../../../../shared/model';
import { assertNotRefused, startPlan } from '../outcome';
import { checkWriteAllowed, type WriteFrame, writeFrame } from '../preconditions';
import { getObjectBytes, headObject, isPreconditionFailed, putCreateOnly, unquote } from './s3ops';
import { startResult } from '../outcome';
import { MAX_HASHED, objectSha256, readDoneCopies, RECOVERY_ROOT, versionKey, type DoneCopy } from './versions-done';
import { sha256 } from '../journal';

export interface RecoverInput {
  storePath: string;
  bucket: string;
  client: S3Client | null;
  /** Only keys under this prefix. */
  prefix?: string;
  /** Where copies go; default `store-doctor-recovered/<UTC stamp>/`. */
  recoveryPrefix?: string;
  /** Offline evidence (e.g. `aws s3api list-object-versions` JSON) when no client. */
  versions?: S3VersionEntry[] | null;
  /** The store must be a writable folder like for every write action (not an archive or a read-only source). */
  archive?: boolean;
  readOnlySource?: boolean;
  signal?: AbortSignal;
}

async function listAllVersions(client: S3Client, bucket: string, prefix: string | undefined, signal?: AbortSignal): Promise<S3VersionEntry[]> {
  const out: S3VersionEntry[] = [];
  let KeyMarker: string | undefined;
  let VersionIdMarker: string | undefined;
  for (;;) {
    const r = await client.send(new (awsS3().ListObjectVersionsCommand)({ Bucket: bucket, Prefix: prefix, KeyMarker, VersionIdMarker }), {
      abortSignal: signal,
    });
    for (const v of r.Versions ?? []) {
      out.push({
        key: v.Key!,
        versionId: v.VersionId ?? 'null',
        isLatest: !!v.IsLatest,
        isDeleteMarker: false,
        size: v.Size ?? 0,
        etag: unquote(v.ETag),
        lastModified: v.LastModified?.toISOString() ?? null,
      });
    }
    if (!r.IsTruncated) return out;
    KeyMarker = r.NextKeyMarker;
    VersionIdMarker = r.NextVersionIdMarker;
  }
}

export async function planRecoverVersions(input: RecoverInput): Promise<RepairPlan> {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const recoveryPrefix = input.recoveryPrefix ?? `${RECOVERY_ROOT}${stamp}/`;
  const plan = startPlan('recover-versions', input.storePath, null);
  const copies: RecoveryCopy[] = [];
  const src = await checkWriteAllowed(input.storePath, { archive: input.archive, readOnlySource: input.readOnlySource, skipProcessCheck: true });
  plan.refusals.push(...src.refusals);
  if (src.refusals.length) {
    plan.summary = 'Cannot recover versions from this source (see the refusal).';
    plan.details = { kind: 'recover', bucket: input.bucket, copies: [], recoveryPrefix };
    return plan;
  }
  let versions = input.versions ?? null;
  if (input.client) versions = await listAllVersions(input.client, input.bucket, input.prefix, input.signal);
  else plan.refusals.push({ reason: 'Copying versions needs a live connection to the bucket (with credentials).', forceable: false });
  if (!versions) {
    plan.summary = 'No version listing: nothing to recover.';
    plan.details = { kind: 'recover', bucket: input.bucket, copies: [], recoveryPrefix };
    return plan;
  }
  // Copies this tool made before (its manifests): recognised by sha256, never offered again.
  const ours = [RECOVERY_ROOT, ...(recoveryPrefix.startsWith(RECOVERY_ROOT) ? [] : [recoveryPrefix])];
  const { done, problems } = input.client
    ? await readDoneCopies(input.client, input.bucket, ours, input.signal)
    : { done: new Map<string, DoneCopy[]>(), problems: [] };
  for (const p of problems) plan.warnings.push(`Recovery manifest ${p}: copies it lists are not recognised.`);
  const byKey = new Map<string, S3VersionEntry[]>();
  for (const v of versions) {
    if (v.isDeleteMarker || (input.prefix && !v.key.startsWith(input.prefix)) || ours.some((p) => v.key.startsWith(p))) continue;
    byKey.set(v.key, [...(byKey.get(v.key) ?? []), v]);
  }
  let recognised = 0;
  for (const [key, vs] of [...byKey].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const old = vs.filter((v) => !v.isLatest).sort((a, b) => (a.lastModified ?? '').localeCompare(b.lastModified ?? ''));
    for (const [i, v] of old.entries()) {
      const made = await verifiedCopy(input, done.get(versionKey(key, v.versionId)) ?? []);
      if (made) {
        recognised++;
        plan.why.push(`${key} version ${v.versionId}: already copied to ${made.targetKey} (${made.manifestKey}, sha256 verified).`);
        continue;
      }
      const copy: RecoveryCopy = {
        sourceKey: key,
        versionId: v.versionId,
        lastModified: v.lastModified,
        size: v.size,
        etag: v.etag,
        targetKey: `${recoveryPrefix}${key}.version-${i + 1}-${v.versionId}`,
      };
      copies.push(copy);
      plan.steps.push({
        kind: 'copy-object',
        target: `s3://${input.bucket}/${copy.targetKey}`,
        description: `copy ${key} version ${v.versionId} (${v.size} bytes, ${v.lastModified ?? '?'}) create-only`,
      });
    }
  }
  if (copies.length)
    plan.steps.push({
      kind: 'put-object',
      target: `s3://${input.bucket}/${recoveryPrefix}manifest.json`,
      description: 'manifest: every copy with its source key, version id and time',
    });
  plan.summary = copies.length
    ? `Recover ${copies.length} overwritten version(s) of ${new Set(copies.map((c) => c.sourceKey)).size} key(s) under s3://${input.bucket}/${recoveryPrefix}${recognised ? ` (${recognised} already copied)` : ''}.`
    : recognised
      ? `Nothing to recover: every overwritten version (${recognised}) already has a verified copy.`
      : 'No overwritten versions found: nothing to recover.';
  plan.why.push(
    'Keys reused after an index reset keep their earlier data only as non-current versions; copies under a new prefix make them ordinary objects again, and a lifecycle rule can no longer expire them.',
  );
  plan.details = { kind: 'recover', bucket: input.bucket, copies, recoveryPrefix };
  return plan;
}

/** The first copy a manifest records for this version that still holds exactly the recorded bytes. */
async function verifiedCopy(input: RecoverInput, made: DoneCopy[]): Promise<DoneCopy | null> {
  for (const m of made) if ((await objectSha256(input.client!, input.bucket, m.targetKey, input.signal)) === m.sha256) return m;
  return null;
}

export async function applyRecoverVersions(
  plan: RepairPlan,
  opts: { client: S3Client; force?: boolean; signal?: AbortSignal; frame?: WriteFrame },
): Promise<RepairResult & { manifestKey: string | null }> {
  assertNotRefused(plan.refusals, opts.force);
  await writeFrame(opts).assertSource(plan.storePath);
  const d = plan.details;
  if (d?.kind !== 'recover') throw new Error('not a recover-versions plan');
  const result: RepairResult & { manifestKey: string | null } = { ...startResult(plan), manifestKey: null };
  result.verified = true; // nothing to do, or every copy and the manifest confirmed — until one fails
  if (!d.copies.length) return result;
  const done: (RecoveryCopy & { status: string; sha256?: string })[] = [];
  for (const c of d.copies) {
    const step = { kind: 'copy-object', target: `s3://${d.bucket}/${c.targetKey}`, description: `${c.sourceKey}@${c.versionId}` };
    try {
      // HEAD first as well: some S3-compatible servers ignore If-None-Match on CopyObject.
      if (await headObject(opts.client, d.bucket, c.targetKey, opts.signal)) throw Object.assign(new Error('exists'), { exists: true });
      await opts.client.send(
        new (awsS3().CopyObjectCommand)({
          Bucket: d.bucket,
          Key: c.targetKey,
          CopySource: `${d.bucket}/${encodeURIComponent(c.sourceKey).replace(/%2F/g, '/')}?versionId=${encodeURIComponent(c.versionId)}`,
          IfNoneMatch: '*',
        }),
        { abortSignal: opts.signal },
      );
      const h = await headObject(opts.client, d.bucket, c.targetKey, opts.signal);
      if (!h || h.size !== c.size) throw new Error(`copy not confirmed (${h ? h.size : 'missing'} bytes, expected ${c.size})`);
      // the sha256 of what was copied: a later plan recognises this copy by it (versions-done.ts)
      const copied = h.size <= MAX_HASHED ? sha256(await getObjectBytes(opts.client, d.bucket, c.targetKey, opts.signal)) : null;
      done.push({ ...c, status: 'copied', ...(copied ? { sha256: copied } : {}) });
      result.steps.push({ step, ok: true, message: 'copied and confirmed' });
    } catch (err) {
      const exists = (err as { exists?: boolean }).exists || isPreconditionFailed(err);
      done.push({ ...c, status: exists ? 'target exists (not overwritten)' : `failed: ${(err as Error).message}` });
      result.verified = false;
      result.steps.push({ step, ok: false, message: exists ? 'target key exists: not overwritten' : (err as Error).message });
    }
  }
  const manifestKey = `${d.recoveryPrefix}manifest.json`;
  const manifest = Buffer.from(JSON.stringify({ bucket: d.bucket, createdAt: new Date().toISOString(), tool: 'store-doctor', copies: done }, null, 2) + '\n');
  const m = await putCreateOnly(opts.client, d.bucket, manifestKey, manifest, { mode: 'head-then-put', signal: opts.signal });
  if (!m.created) {
    result.verified = false;
    result.warnings.push(`${manifestKey} exists: manifest not written (not overwriting).`);
  } else result.manifestKey = manifestKey;
  result.applied = true;
  result.summary = `Recovered ${done.filter((c) => c.status === 'copied').length} of ${d.copies.length} version(s) under s3://${d.bucket}/${d.recoveryPrefix}; manifest ${result.manifestKey ?? 'not written'}.`;
  return result;
}
