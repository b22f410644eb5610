/**
 * Replay plan: one item per chunk in data streams and `quarantine/` — the newest stream too unless
 * a running Fluent Bit uses the store (active-stream.ts; then only when asked). Each item shows the key it will get
 * (the key-format engine with its tag, the first record's time or a chosen time, and a `$INDEX`
 * allocated upwards from the repaired index), the compression, size and record count. Damaged
 * chunks, empty chunks and multipart records are never replayed.
 */
import * as path from 'node:path';
import { renderKey, toS3Key } from '../../../../shared/keyformat';
import { DAMAGED_CHUNK_STATUSES, type ChunkInfo, type ReplayItem, type ReplayPlanDetails, type RepairPlan, type RootReport } from '../../../../shared/model';
import { checkWriteAllowed } from '../preconditions';
import { finishPlan, startPlan } from '../outcome';
import type { ReplayCompression } from './chunkfile';
import { exactValue, readSeqIndexState, seqIndexPaths, unsafeIndexReason } from '../index-actions';
import { loadReplayState } from './replay-journal';
import { checkActiveStream } from '../preconditions';

export interface ReplayTarget {
  bucket: string;
  keyFormat: string;
  tagDelimiters?: string;
  staticFilePath?: boolean;
  compression: string;
  /** Output instance id (for `seq_index_<id>`); null when unknown (then the index file is not written). */
  outputId: number | null;
}

export interface ReplayPlanInput {
  storePath: string;
  root: RootReport;
  /** Absolute path of the root on disk. */
  rootPath: string;
  target: ReplayTarget;
  /** Diagnosis `safeNextIndex` (the plan never allocates below it or below the index file). */
  safeNextIndex: number;
  includeActive?: boolean;
  /** Key time for every chunk instead of its first record's time. */
  time?: Date;
  /** Replay only these chunk paths (`<stream>/<name>`). */
  only?: string[];
  readOnlySource?: boolean;
  archive?: boolean;
  skipProcessCheck?: boolean;
  force?: boolean;
}

function keyTime(c: ChunkInfo, forced?: Date): Date {
  if (forced) return forced;
  if (c.firstRecordTime) {
    const d = new Date(c.firstRecordTime);
    if (!Number.isNaN(d.getTime())) return d;
  }
  if (c.mtime) return new Date(c.mtime);
  return new Date();
}

export function renderReplayKey(t: { keyFormat: string; tagDelimiters: string; staticFilePath: boolean }, tag: string, index: number, time: Date): string {
  return toS3Key(renderKey(t.keyFormat, { tag, index, time, tagDelimiters: t.tagDelimiters, putObject: true, staticFilePath: t.staticFilePath }));
}

export async function planReplay(input: ReplayPlanInput): Promise<RepairPlan & { replayItems: ReplayItem[] }> {
  const rootPath = path.resolve(input.rootPath);
  const t = input.target;
  const hasIndex = t.keyFormat.includes('$INDEX');
  const plan: RepairPlan & { replayItems: ReplayItem[] } = { ...startPlan('replay', path.resolve(input.storePath), rootPath), replayItems: [] };
  const compression: ReplayCompression | null = t.compression === 'gzip' ? 'gzip' : t.compression === 'none' ? 'none' : null;
  if (!compression)
    plan.refusals.push({
      reason: `compression ${t.compression} is not supported by replay (only none and gzip); choose the compression none or gzip for the replay.`,
      forceable: false,
    });
  let first = input.safeNextIndex;
  let indexBehind = false;
  if (hasIndex && t.outputId !== null) {
    const cur = await readSeqIndexState(seqIndexPaths(rootPath, t.outputId).file);
    const curExact = exactValue(cur);
    const unsafe = curExact !== null ? unsafeIndexReason(curExact, `seq_index_${t.outputId} holds`) : null;
    if (unsafe) plan.refusals.push({ reason: unsafe, forceable: false });
    if (cur.state === 'value' && !unsafe && cur.value > first) {
      plan.why.push(`seq_index_${t.outputId} holds ${cur.valueText}, above the safe index ${first}: allocating from ${cur.value}.`);
      first = cur.value;
    }
    // An interrupted replay may have used indices the listing does not show yet.
    const { maxIndex } = await loadReplayState(rootPath);
    if (maxIndex !== null && maxIndex + 1 > first) {
      plan.why.push(`An earlier replay of this root used $INDEX up to ${maxIndex}: allocating from ${maxIndex + 1}.`);
      first = maxIndex + 1;
    }
    indexBehind = maxIndex !== null && !(cur.state === 'value' && cur.value > maxIndex);
  }
  const tooBig = hasIndex ? unsafeIndexReason(first, 'The first $INDEX to allocate') : null;
  if (tooBig) {
    plan.refusals.push({ reason: tooBig, forceable: false });
    first = 0; // keeps the (refused) plan printable; nothing is allocated from it
  }
  // The newest stream is a running Fluent Bit's current run only while a process uses the store.
  const activeCheck = await checkActiveStream(input.root, rootPath, { archive: input.archive });
  const active = activeCheck.active ? activeCheck.newest : null;
  if (activeCheck.newest) plan.why.push(activeCheck.reason + (active && input.includeActive ? ' It is included, as asked.' : ''));
  let next = first;
  const delims = t.tagDelimiters ?? '.';
  const fmt = { keyFormat: t.keyFormat, tagDelimiters: delims, staticFilePath: !!t.staticFilePath };
  const candidates: { c: ChunkInfo; skip: string | null }[] = [];
  const times: Record<string, string> = {};
  for (const s of input.root.streams) {
    if (s.kind === 'multipart' || s.kind === 'sequence') continue;
    for (const c of s.chunks) {
      let skip: string | null = null;
      if (input.only && !input.only.includes(c.path)) continue;
      if (s.kind === 'data' && s.name === active && !input.includeActive)
        skip = 'active stream (the current run of a Fluent Bit that uses the store, or may: see why): include the active stream to replay it';
      else if (DAMAGED_CHUNK_STATUSES.includes(c.status)) skip = `damaged (${c.status}): never replayed`;
      else if (!c.contentLength) skip = 'no content (empty chunk): nothing to send';
      candidates.push({ c, skip });
    }
  }
  candidates.sort((a, b) => keyTime(a.c, input.time).getTime() - keyTime(b.c, input.time).getTime() || (a.c.path < b.c.path ? -1 : 1));
  for (const { c, skip } of candidates) {
    const tag = c.tag ?? '';
    const time = keyTime(c, input.time);
    times[c.path] = time.toISOString();
    const index = hasIndex && !skip ? next++ : null;
    // a legacy-length chunk's zero padding is not sent (chunkfile.ts replayContent)
    const padding = c.status === 'legacy-length' ? (c.nulTail ?? 0) : 0;
    const item: ReplayItem = {
      chunkPath: c.path,
      stream: c.stream,
      tag,
      key: skip ? '' : renderReplayKey(fmt, tag, index ?? 0, time),
      index,
      bytes: (c.contentLength ?? 0) - padding,
      records: c.records,
      compression: compression ?? t.compression,
      state: skip ? 'skipped' : 'planned',
      ...(skip ? { message: skip } : !c.firstRecordTime && !input.time ? { message: 'no record time: key uses the file time' } : {}),
    };
    plan.replayItems.push(item);
    if (!skip) {
      plan.steps.push({
        kind: 'put-object',
        target: `s3://${t.bucket}/${item.key}`,
        description: `${c.path} (${tag}, ${item.records ?? '?'} records, ${item.bytes} bytes${padding ? `, without the ${padding} NUL bytes of zero padding Fluent Bit would send` : ''}${compression === 'gzip' ? ', gzip + Content-Encoding: gzip' : ''}) create-only (If-None-Match: *), then move it to .store-doctor/replayed/`,
      });
    }
  }
  const todo = plan.replayItems.filter((i) => i.state === 'planned');
  if (hasIndex && t.outputId !== null && (todo.length || indexBehind)) {
    const idx = seqIndexPaths(rootPath, t.outputId).file;
    plan.steps.push({
      kind: 'write-file',
      target: idx,
      description: todo.length
        ? `write the next index (${next} if no key is taken) atomically`
        : `write the next index ${next}: an interrupted replay used keys up to ${next - 1}`,
      after: String(next),
    });
  }
  if (hasIndex && t.outputId === null)
    plan.warnings.push('Output id unknown (no Fluent Bit config): the next index is not written after replay; repair the index afterwards.');
  if (!hasIndex && !t.keyFormat.includes('$UUID') && t.staticFilePath)
    plan.warnings.push('The key format has neither $INDEX nor $UUID and static_file_path is on: a key that exists is skipped, never overwritten.');
  const skipped = plan.replayItems.length - todo.length;
  plan.summary = `Replay ${todo.length} chunk${todo.length === 1 ? '' : 's'} (${todo.reduce((a, i) => a + i.bytes, 0)} bytes) to s3://${t.bucket}${hasIndex && todo.length ? ` with $INDEX ${first}..${next - 1}` : ''}${skipped ? `; ${skipped} skipped` : ''}.`;
  plan.why.push(
    `Chunks in stopped Fluent Bit runs' streams and quarantine/ are not sent by Fluent Bit (5.x quarantine) or would be sent with the restart time and a possibly reset $INDEX.`,
  );
  if (!todo.length) plan.why.push('Nothing to replay.');
  const details: ReplayPlanDetails = {
    kind: 'replay',
    rootPath,
    bucket: t.bucket,
    keyFormat: t.keyFormat,
    tagDelimiters: delims,
    staticFilePath: !!t.staticFilePath,
    compression: compression ?? 'none',
    outputId: t.outputId,
    hasIndex,
    firstIndex: first,
    indexBehind,
    time: input.time ? input.time.toISOString() : null,
    items: plan.replayItems,
    times,
  };
  plan.details = details;
  const g = await checkWriteAllowed(rootPath, { readOnlySource: input.readOnlySource, archive: input.archive, skipProcessCheck: input.skipProcessCheck });
  plan.refusals.push(...g.refusals);
  plan.warnings.push(...g.warnings);
  return finishPlan(plan, input.force);
}
