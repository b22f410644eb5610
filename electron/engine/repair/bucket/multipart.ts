/**
 * Multipart settlement (docs/fluent-bit-store-format.md#multipart-records, docs/fluent-bit-versions.md
 * §9): list the server's in-progress uploads and their parts (ListParts: numbers, ETags, sizes),
 * read the local `multipart_upload_metadata/` records, and let multipart-match.ts decide — complete
 * an upload whose parts are proven by record lines and form a valid object (also a recordless one
 * whose part lines sit in another upload's record), forget a record whose upload is gone, abort
 * only on request. A record is removed (backed up, undoable) once every upload it holds or proves
 * is settled. What stays unsettled is listed, so no door reports success when nothing was done.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { awsS3 } from '../../s3/sdk';
import * as path from 'node:path';
import type { RepairPlan, RepairResult, RootReport } from '../../../../shared/model';
import { durableUnlink } from '../write';
import { assertInside } from '../write';
import { assertNotRefused, finishPlan, startPlan } from '../outcome';
import { checkWriteAllowed, type WriteFrame, writeFrame, type WriteTestHooks } from '../preconditions';
import { sameEtag, settleMultipart, type LocalRecord, type MultipartDecision, type ServerPart, type ServerUpload } from './multipart-match';
import { headObject, httpStatus, unquote } from './s3ops';
import { startResult } from '../outcome';

export type { MultipartDecision } from './multipart-match';

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
  /** Can this output's key format produce the key? (a server upload of such a key left open counts as unsettled) */
  ownsKey?: (key: string) => boolean;
  readOnlySource?: boolean;
  archive?: boolean;
  skipProcessCheck?: boolean;
  force?: boolean;
  signal?: AbortSignal;
}

async function serverParts(client: S3Client, bucket: string, key: string, uploadId: string, signal?: AbortSignal): Promise<ServerPart[] | null> {
  const out: ServerPart[] = [];
  let marker: string | undefined;
  try {
    for (;;) {
      const r = await client.send(new (awsS3().ListPartsCommand)({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }), {
        abortSignal: signal,
      });
      for (const p of r.Parts ?? []) out.push({ partNumber: p.PartNumber!, etag: unquote(p.ETag) ?? '', size: p.Size ?? 0 });
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

export async function planMultipart(input: MultipartInput): Promise<RepairPlan> {
  const rootPath = path.resolve(input.rootPath);
  const plan = startPlan('multipart', path.resolve(input.storePath), rootPath);
  const empty = () => ({ kind: 'multipart' as const, rootPath, bucket: input.bucket, settle: [], records: [], unsettled: [] });
  // Settling removes local records and journals in the root: never from an archive or a read-only source.
  const src = await checkWriteAllowed(rootPath, { readOnlySource: input.readOnlySource, archive: input.archive, skipProcessCheck: true });
  plan.refusals.push(...src.refusals);
  if (src.refusals.length) {
    plan.summary = 'Cannot settle multipart uploads from this source (see the refusal).';
    plan.details = empty();
    return plan;
  }
  const chunks = input.root.streams.filter((s) => s.kind === 'multipart').flatMap((s) => s.chunks);
  if (!input.client) {
    plan.refusals.push({
      reason: 'Multipart settlement needs a live connection to the bucket (with credentials): ListParts decides between complete and abort.',
      forceable: false,
    });
    plan.summary = `${chunks.length} local multipart record(s); not settled without a live connection to the bucket.`;
    plan.details = empty();
    return plan;
  }
  const records: LocalRecord[] = [];
  for (const c of chunks) {
    const rec = c.multipart;
    if (!rec || !rec.uploadId || rec.problems.length) {
      plan.warnings.push(`${c.path}: malformed multipart record (${rec?.problems.join('; ') || 'unreadable'}): Fluent Bit skips it; not settled.`);
      continue;
    }
    records.push({ path: path.join(rootPath, c.path), key: rec.s3Key, uploadId: rec.uploadId, lines: rec.parts });
  }
  const own = new Map<LocalRecord, ServerUpload>();
  for (const r of records)
    own.set(r, { key: r.key, uploadId: r.uploadId, parts: await serverParts(input.client, input.bucket, r.key, r.uploadId, input.signal) });
  const known = new Set(records.map((r) => `${r.key}\n${r.uploadId}`));
  const listed = (await serverUploads(input.client, input.bucket, input.prefix, input.signal)).filter((u) => !known.has(`${u.key}\n${u.uploadId}`));
  // Recordless uploads need their parts only when some record line proves nothing of its own upload.
  const proved = (r: LocalRecord, l: LocalRecord['lines'][number]) =>
    !!own.get(r)?.parts?.some((p) => p.partNumber === l.partNumber && sameEtag(p.etag, l.etag));
  const loose = records.some((r) => r.lines.some((l) => !proved(r, l)));
  const orphans: (ServerUpload & { owned: boolean })[] = [];
  for (const u of listed)
    orphans.push({
      ...u,
      owned: input.ownsKey ? input.ownsKey(u.key) : true,
      ...(loose ? { parts: await serverParts(input.client, input.bucket, u.key, u.uploadId, input.signal) } : {}),
    });
  const s = settleMultipart(records, own, orphans, input.decision ?? 'auto', !!input.abortOrphans);
  for (const item of s.items) {
    if (item.op === 'complete' && (await headObject(input.client, input.bucket, item.key, input.signal)))
      plan.refusals.push({
        reason: `s3://${input.bucket}/${item.key} already exists: completing upload ${item.uploadId} would overwrite it. Abort it instead, or force.`,
        forceable: true,
      });
  }
  for (const item of s.items) {
    const target = `s3://${input.bucket}/${item.key}`;
    if (item.op === 'complete')
      plan.steps.push({
        kind: 'complete-upload',
        target,
        description: `complete ${item.uploadId} with parts ${item.parts.map((p) => p.partNumber).join(', ')}: ${item.reason}`,
      });
    if (item.op === 'abort') plan.steps.push({ kind: 'abort-upload', target, description: `abort ${item.uploadId}: ${item.reason}` });
    if (item.op === 'forget') plan.why.push(`${item.key} (${item.uploadId}): ${item.reason}`);
    if (item.op === 'none') plan.warnings.push(`${item.key} (${item.uploadId}): ${item.reason}`);
  }
  for (const r of s.records)
    plan.steps.push({
      kind: 'delete-file',
      target: r,
      description: 'remove the local record once every upload it holds or proves is settled (backed up for undo)',
    });
  plan.why.push(...s.notes);
  plan.warnings.push(
    ...s.leftAlone.map((w) => w.replace(/^Server upload with no local record: /, `Server upload with no local record: s3://${input.bucket}/`)),
  );
  if (s.unsettled.length) plan.warnings.push(`Left unsettled: ${s.unsettled.length} upload(s) (see above): the result will not be reported as done.`);
  const n = (op: string) => s.items.filter((i) => i.op === op).length;
  plan.summary = `${records.length} local record(s), ${listed.length} server upload(s) without one: complete ${n('complete')}, abort ${n('abort')}, forget ${n('forget')}${s.unsettled.length ? `, ${s.unsettled.length} left unsettled` : ''}.`;
  plan.details = { kind: 'multipart', rootPath, bucket: input.bucket, settle: s.items, records: s.records, unsettled: s.unsettled };
  if (s.records.length) {
    const g = await checkWriteAllowed(rootPath, { skipProcessCheck: input.skipProcessCheck });
    plan.refusals.push(...g.refusals);
    plan.warnings.push(...g.warnings);
  }
  return finishPlan(plan, input.force);
}

export async function applyMultipart(
  plan: RepairPlan,
  opts: { client: S3Client; force?: boolean; skipProcessCheck?: boolean; signal?: AbortSignal; hooks?: WriteTestHooks; frame?: WriteFrame },
): Promise<RepairResult> {
  assertNotRefused(plan.refusals, opts.force);
  const d = plan.details;
  if (d?.kind !== 'multipart') throw new Error('not a multipart plan');
  const result: RepairResult = { ...startResult(plan), unsettled: [...d.unsettled] };
  const settle = d.settle.filter((s) => s.op !== 'none');
  const frame = writeFrame(opts);
  result.verified = true; // nothing to do, or every settlement confirmed and record removed — until one fails
  if (!settle.length && !d.records.length) {
    result.summary = d.unsettled.length ? `Nothing settled: ${d.unsettled.length} upload(s) left as they are.` : 'Nothing to settle.';
    return result;
  }
  const { removed } = await frame.journaled(
    plan,
    result,
    {
      root: d.rootPath,
      what: 'the settlement',
      // The process check guards the records' removal: without one, only the bucket is written.
      check: { skipProcessCheck: !d.records.length },
      // Only the local records are changed (and backed up); the uploads are settled in the bucket.
      journal: d.records.length > 0,
      changes: () => d.records.map((p) => ({ kind: 'file' as const, path: p })),
    },
    async () => {
      const failed = new Set<string>();
      for (const s of settle) {
        const step = {
          kind: s.op === 'complete' ? 'complete-upload' : s.op === 'abort' ? 'abort-upload' : 'forget-upload',
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
            await opts.client.send(new (awsS3().AbortMultipartUploadCommand)({ Bucket: d.bucket, Key: s.key, UploadId: s.uploadId }), {
              abortSignal: opts.signal,
            });
          }
          result.steps.push({
            step,
            ok: true,
            message: s.op === 'forget' ? 'the server has no such upload' : s.op === 'complete' ? 'completed and confirmed' : 'aborted',
          });
        } catch (err) {
          if (s.recordPath) failed.add(s.recordPath);
          result.verified = false;
          result.unsettled!.push(`${s.key} (${s.uploadId}): ${s.op} failed: ${(err as Error).message}`);
          result.steps.push({ step, ok: false, message: (err as Error).message });
        }
      }
      // a record goes only when every upload it holds or proves was settled just now
      const removed: string[] = [];
      for (const r of d.records) {
        const step = { kind: 'delete-file', target: r, description: 'remove the local record' };
        if (failed.has(r)) {
          result.steps.push({ step, ok: false, message: 'kept: an upload it holds or proves was not settled' });
          continue;
        }
        try {
          await durableUnlink(d.rootPath, await assertInside(d.rootPath, r, 'the multipart record'));
          removed.push(r);
          result.steps.push({ step, ok: true, message: 'removed (backed up for undo)' });
        } catch (err) {
          result.verified = false;
          result.unsettled!.push(`${r}: the record could not be removed: ${(err as Error).message}`);
          result.steps.push({ step, ok: false, message: (err as Error).message });
        }
      }
      return { verified: result.verified, removed, expected: removed };
    },
  );
  const ok = result.steps.filter((x) => x.ok && x.step.kind !== 'delete-file').length;
  const left = result.unsettled!.length;
  result.summary = `Settled ${ok} of ${settle.length} multipart upload(s).${removed.length ? ` Removed ${removed.length} record(s).` : ''}${left ? ` ${left} left unsettled.` : ''}`;
  return result;
}
