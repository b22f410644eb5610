/**
 * Multipart settlement (docs/fluent-bit-store-format.md#multipart-records): for each local `multipart_upload_metadata/` record,
 * look up the server upload and its parts (ListParts) and plan: complete it (parts from the record
 * ∩ ListParts, ETags must match), or abort it, or just remove the record when the server no longer
 * has the upload. Server uploads with no local record are listed and aborted only on request.
 * After success the local record is removed through the journal (backed up, undoable).
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { awsS3 } from '../s3/sdk';
import * as path from 'node:path';
import type { MultipartRecord, RepairPlan, RepairResult, RootReport, SettleItem } from '../../../shared/model';
import { durableUnlink } from './atomic';
import { assertInside } from './confine';
import { assertNotRefused, forcedWarning } from './errors';
import { checkWriteAllowed, watchStore, type WriteTestHooks } from './guard';
import { openAction } from './journal';
import { headObject, httpStatus, unquote } from './s3ops';

export type MultipartDecision = 'auto' | 'complete' | 'abort';

export interface MultipartInput {
  storePath: string;
  rootPath: string;
  root: RootReport;
  bucket: string;
  client: S3Client | null;
  decision?: MultipartDecision;
  abortOrphans?: boolean;
  /** Only consider server uploads under this prefix (default: the whole bucket). */
  prefix?: string;
  readOnlySource?: boolean;
  archive?: boolean;
  skipProcessCheck?: boolean;
  force?: boolean;
  signal?: AbortSignal;
}

async function serverParts(client: S3Client, bucket: string, key: string, uploadId: string, signal?: AbortSignal): Promise<Map<number, string> | null> {
  const out = new Map<number, string>();
  let marker: string | undefined;
  try {
    for (;;) {
      const r = await client.send(new (awsS3().ListPartsCommand)({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }), {
        abortSignal: signal,
      });
      for (const p of r.Parts ?? []) out.set(p.PartNumber!, unquote(p.ETag) ?? '');
      if (!r.IsTruncated) return out;
      marker = r.NextPartNumberMarker;
    }
  } catch (err) {
    // A 404 means the upload is gone (AWS: NoSuchUpload; Ceph RGW: NoSuchKey) — but a 404 NoSuchBucket
    // (wrong bucket or endpoint) must not make us forget the local record.
    const e = err as { name?: string; Code?: string };
    if (e.name === 'NoSuchBucket' || e.Code === 'NoSuchBucket') throw err;
    if (httpStatus(err) === 404 || e.name === 'NoSuchUpload' || e.Code === 'NoSuchUpload') return null;
    throw err;
  }
}

async function serverUploads(client: S3Client, bucket: string, prefix: string | undefined, signal?: AbortSignal): Promise<{ key: string; uploadId: string }[]> {
  const out: { key: string; uploadId: string }[] = [];
  let KeyMarker: string | undefined;
  let UploadIdMarker: string | undefined;
  for (;;) {
    const r = await client.send(new (awsS3().ListMultipartUploadsCommand)({ Bucket: bucket, Prefix: prefix, KeyMarker, UploadIdMarker }), {
      abortSignal: signal,
    });
    for (const u of r.Uploads ?? []) out.push({ key: u.Key!, uploadId: u.UploadId! });
    if (!r.IsTruncated) return out;
    KeyMarker = r.NextKeyMarker;
    UploadIdMarker = r.NextUploadIdMarker;
  }
}

function decide(
  rec: MultipartRecord,
  server: Map<number, string>,
  decision: MultipartDecision,
): { op: SettleItem['op']; parts: SettleItem['parts']; reason: string } {
  const wanted = rec.completeParts;
  const matched = wanted.filter((p) => server.get(p.partNumber)?.toLowerCase() === p.etag.toLowerCase());
  const missing = wanted.filter((p) => !server.has(p.partNumber)).map((p) => p.partNumber);
  const differ = wanted.filter((p) => server.has(p.partNumber) && server.get(p.partNumber)!.toLowerCase() !== p.etag.toLowerCase()).map((p) => p.partNumber);
  const facts = `record lists ${wanted.length} part(s), the server has ${server.size}; ${matched.length} match by number and ETag${missing.length ? `; missing on server: ${missing.join(', ')}` : ''}${differ.length ? `; ETag differs: ${differ.join(', ')}` : ''}`;
  if (decision === 'abort') return { op: 'abort', parts: [], reason: `abort requested (${facts})` };
  if (decision === 'complete') {
    return matched.length
      ? { op: 'complete', parts: matched, reason: `complete requested with the ${matched.length} matching part(s) (${facts})` }
      : { op: 'none', parts: [], reason: `cannot complete: no part matches (${facts})` };
  }
  if (matched.length && matched.length === wanted.length)
    return { op: 'complete', parts: matched, reason: `every recorded part is on the server with the same ETag (${facts})` };
  // Aborting deletes the uploaded parts for good: only on request (--abort), never by default.
  return {
    op: 'none',
    parts: [],
    reason: `the record and the server disagree, completing would build a wrong object (${facts}); left alone: choose abort to abort it, or complete to complete it with the matching parts`,
  };
}

export async function planMultipart(input: MultipartInput): Promise<RepairPlan & { settle: SettleItem[] }> {
  const rootPath = path.resolve(input.rootPath);
  const plan: RepairPlan & { settle: SettleItem[] } = {
    action: 'multipart',
    storePath: path.resolve(input.storePath),
    rootPath,
    summary: '',
    why: [],
    steps: [],
    warnings: [],
    refusals: [],
    settle: [],
  };
  // Settling removes local records and journals in the root: never from an archive or a read-only source.
  const src = await checkWriteAllowed(rootPath, { readOnlySource: input.readOnlySource, archive: input.archive, skipProcessCheck: true });
  plan.refusals.push(...src.refusals);
  if (src.refusals.length) {
    plan.summary = 'Cannot settle multipart uploads from this source (see the refusal).';
    plan.details = { kind: 'multipart', rootPath, bucket: input.bucket, settle: [] };
    return plan;
  }
  const records = input.root.streams.filter((s) => s.kind === 'multipart').flatMap((s) => s.chunks.map((c) => ({ c, rec: c.multipart })));
  if (!input.client) {
    plan.refusals.push({
      reason: 'Multipart settlement needs a live connection to the bucket (with credentials): ListParts decides between complete and abort.',
      forceable: false,
    });
    plan.summary = `${records.length} local multipart record(s); not settled without a live connection to the bucket.`;
    plan.details = { kind: 'multipart', rootPath, bucket: input.bucket, settle: [] };
    return plan;
  }
  const known = new Set<string>();
  for (const { c, rec } of records) {
    const recordPath = path.join(rootPath, c.path);
    if (!rec || !rec.uploadId || rec.problems.length) {
      plan.warnings.push(`${c.path}: malformed multipart record (${rec?.problems.join('; ') || 'unreadable'}): Fluent Bit skips it; not settled.`);
      continue;
    }
    known.add(rec.uploadId);
    const server = await serverParts(input.client, input.bucket, rec.s3Key, rec.uploadId, input.signal);
    let item: SettleItem;
    if (!server)
      item = {
        recordPath,
        key: rec.s3Key,
        uploadId: rec.uploadId,
        op: 'forget',
        parts: [],
        reason: 'the server has no such upload (completed, aborted or expired): remove the local record so Fluent Bit stops retrying it',
      };
    else {
      const d = decide(rec, server, input.decision ?? 'auto');
      item = { recordPath, key: rec.s3Key, uploadId: rec.uploadId, ...d };
      if (d.op === 'complete' && (await headObject(input.client, input.bucket, rec.s3Key, input.signal))) {
        plan.refusals.push({
          reason: `s3://${input.bucket}/${rec.s3Key} already exists: completing upload ${rec.uploadId} would overwrite it. Abort it instead, or force.`,
          forceable: true,
        });
      }
    }
    plan.settle.push(item);
  }
  const orphans = (await serverUploads(input.client, input.bucket, input.prefix, input.signal)).filter((u) => !known.has(u.uploadId));
  for (const o of orphans) {
    if (input.abortOrphans)
      plan.settle.push({
        recordPath: null,
        key: o.key,
        uploadId: o.uploadId,
        op: 'abort',
        parts: [],
        reason: 'server upload with no local record; abort requested',
      });
    else
      plan.warnings.push(
        `Server upload with no local record: s3://${input.bucket}/${o.key} (${o.uploadId}) is left alone; to abort it, ask for it (also abort server uploads that have no local record).`,
      );
  }
  for (const s of plan.settle) {
    const target = `s3://${input.bucket}/${s.key}`;
    if (s.op === 'complete')
      plan.steps.push({
        kind: 'complete-upload',
        target,
        description: `complete ${s.uploadId} with parts ${s.parts.map((p) => p.partNumber).join(', ')}: ${s.reason}`,
      });
    if (s.op === 'abort') plan.steps.push({ kind: 'abort-upload', target, description: `abort ${s.uploadId}: ${s.reason}` });
    if (s.op === 'forget') plan.why.push(`${s.key} (${s.uploadId}): ${s.reason}`);
    if (s.op === 'none') plan.warnings.push(`${s.key} (${s.uploadId}): ${s.reason}`);
    if (s.recordPath && s.op !== 'none')
      plan.steps.push({ kind: 'delete-file', target: s.recordPath, description: 'remove the local record afterwards (backed up for undo)' });
  }
  const n = (op: string) => plan.settle.filter((s) => s.op === op).length;
  plan.summary = `${records.length} local record(s), ${orphans.length} server upload(s) without one: complete ${n('complete')}, abort ${n('abort')}, forget ${n('forget')}.`;
  plan.details = { kind: 'multipart', rootPath, bucket: input.bucket, settle: plan.settle };
  if (plan.settle.some((s) => s.recordPath) && !src.refusals.length) {
    const g = await checkWriteAllowed(rootPath, { skipProcessCheck: input.skipProcessCheck });
    plan.refusals.push(...g.refusals);
    plan.warnings.push(...g.warnings);
  }
  const forced = input.force ? forcedWarning(plan.refusals) : null;
  if (forced) plan.warnings.unshift(forced);
  return plan;
}

export async function applyMultipart(
  plan: RepairPlan,
  opts: { client: S3Client; force?: boolean; skipProcessCheck?: boolean; signal?: AbortSignal; hooks?: WriteTestHooks },
): Promise<RepairResult> {
  assertNotRefused(plan.refusals, opts.force);
  const d = plan.details;
  if (d?.kind !== 'multipart') throw new Error('not a multipart plan');
  const result: RepairResult = {
    action: 'multipart',
    applied: false,
    summary: plan.summary,
    steps: [],
    undoId: null,
    verified: true,
    warnings: [...plan.warnings],
  };
  const settle = d.settle.filter((s) => s.op !== 'none');
  const records = settle.filter((s) => s.recordPath).map((s) => s.recordPath!);
  assertNotRefused((await checkWriteAllowed(d.rootPath, { skipProcessCheck: opts.skipProcessCheck || !records.length })).refusals, opts.force);
  if (!settle.length) return result;
  const watch = await watchStore(d.rootPath, opts.hooks);
  const action = records.length
    ? await openAction({
        rootPath: d.rootPath,
        storePath: plan.storePath,
        action: 'multipart',
        summary: plan.summary,
        changes: records.map((p) => ({ kind: 'file' as const, path: p })),
      })
    : null;
  result.undoId = action?.id ?? null;
  for (const s of settle) {
    const step = {
      kind: s.op === 'complete' ? 'complete-upload' : s.op === 'abort' ? 'abort-upload' : 'delete-file',
      target: `s3://${d.bucket}/${s.key}`,
      description: s.reason,
    };
    try {
      if (s.recordPath) await assertInside(d.rootPath, s.recordPath, 'the multipart record');
      if (s.op === 'complete') {
        await opts.client.send(
          new (awsS3().CompleteMultipartUploadCommand)({
            Bucket: d.bucket,
            Key: s.key,
            UploadId: s.uploadId,
            ...(opts.force ? {} : { IfNoneMatch: '*' }),
            MultipartUpload: {
              Parts: [...s.parts].sort((a, b) => a.partNumber - b.partNumber).map((p) => ({ PartNumber: p.partNumber, ETag: `"${p.etag}"` })),
            },
          }),
          { abortSignal: opts.signal },
        );
        if (!(await headObject(opts.client, d.bucket, s.key, opts.signal))) throw new Error('HeadObject does not find the completed object');
      } else if (s.op === 'abort') {
        await opts.client.send(new (awsS3().AbortMultipartUploadCommand)({ Bucket: d.bucket, Key: s.key, UploadId: s.uploadId }), { abortSignal: opts.signal });
      }
      if (s.recordPath) await durableUnlink(await assertInside(d.rootPath, s.recordPath, 'the multipart record'));
      result.steps.push({
        step,
        ok: true,
        message: `${s.op === 'forget' ? 'record removed' : s.op === 'complete' ? 'completed and confirmed' : 'aborted'}${s.recordPath ? '; local record removed' : ''}`,
      });
    } catch (err) {
      result.verified = false;
      result.steps.push({ step, ok: false, message: (err as Error).message });
    }
  }
  await action?.applied(result.verified);
  const changed = await watch.warning(records, 'the settlement');
  if (changed) result.warnings.push(changed);
  result.applied = true;
  const ok = result.steps.filter((x) => x.ok).length;
  result.summary = `Settled ${ok} of ${settle.length} multipart upload(s)${result.verified ? '' : '; some failed (see steps)'}.`;
  return result;
}
