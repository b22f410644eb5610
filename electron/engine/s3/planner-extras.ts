/**
 * Versions and multipart uploads for a planned listing. Each degrades to `null` with a clear note
 * when the permission is missing or the bucket does not keep versions.
 */
import type { S3Evidence, S3VersionEntry } from '../../../shared/model';
import { describeS3Error, isAbort, isAccessDenied, toEvidenceError } from './errors';
import { listMultipartUploads, listVersions, sortVersions, versioningStatus, type VersioningStatus } from './list';
import type { PlanState } from './planner';

export async function addVersionEvidence(state: PlanState, evidence: S3Evidence, matcher: RegExp, prefix: string): Promise<void> {
  const { client, opts, counter, notes } = state;
  const io = { signal: opts.signal, counter };
  let status: VersioningStatus | 'unknown' = 'unknown';
  try {
    status = await versioningStatus(client, opts.bucket, io);
  } catch (err) {
    if (isAbort(err, opts.signal)) return cancelled(state);
    if (!isAccessDenied(err)) throw toEvidenceError(err, 'GetBucketVersioning', opts.bucket);
    notes.add(`GetBucketVersioning denied (${describeS3Error(err)}): trying ListObjectVersions anyway.`);
  }
  if (status === 'Off') {
    notes.add(`Versioning is not enabled on bucket "${opts.bucket}": overwritten objects cannot be proven from versions.`);
    return;
  }
  if (status === 'Suspended') notes.add(`Versioning is suspended on bucket "${opts.bucket}": only versions kept while it was enabled can show overwrites.`);
  // Versions are listed under the format's literal prefix, not only under the prefixes the object
  // walk found: a key whose latest version is a delete marker has no object to be discovered by.
  let list: S3VersionEntry[];
  try {
    list = await listVersions(client, opts.bucket, prefix, io);
  } catch (err) {
    if (isAbort(err, opts.signal)) return cancelled(state);
    if (!isAccessDenied(err)) throw toEvidenceError(err, 'ListObjectVersions', opts.bucket);
    notes.add(`ListObjectVersions denied (${describeS3Error(err)}): overwritten objects cannot be proven from versions.`);
    return;
  }
  const versions = list.filter((v) => matcher.test(v.key));
  evidence.versions = sortVersions(versions);
}

export async function addMultipartEvidence(state: PlanState, evidence: S3Evidence, prefix: string): Promise<void> {
  const { client, opts, counter, notes } = state;
  try {
    evidence.multipartUploads = await listMultipartUploads(client, opts.bucket, {
      prefix,
      withParts: true,
      signal: opts.signal,
      counter,
      onPartsError: (u, err) => notes.add(`ListParts failed for upload ${u.uploadId} of "${u.key}" (${describeS3Error(err)}): its parts are unknown.`),
    });
  } catch (err) {
    if (isAbort(err, opts.signal)) return cancelled(state);
    if (!isAccessDenied(err)) throw toEvidenceError(err, 'ListMultipartUploads', opts.bucket);
    notes.add(`ListMultipartUploads denied (${describeS3Error(err)}): multipart checks skipped.`);
  }
}

function cancelled(state: PlanState): void {
  state.complete = false;
  state.notes.add('Listing cancelled: the evidence is incomplete.');
}
