/**
 * Replay apply: for each planned chunk, journal the intent (key), PutObject create-only
 * (`If-None-Match: *`; on 412 take the next index), confirm with HeadObject, journal `uploaded`,
 * move the chunk to `.store-doctor/replayed/<stream>/<name>` so Fluent Bit never sends it again,
 * journal `moved`; finally write the next index atomically. Every journal line is fsynced before
 * the step it announces, so a killed replay resumes without sending anything twice: an intent
 * without `uploaded` is resolved by HEAD (and a byte compare when the ETag is not an MD5).
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Progress, RepairPlan, RepairResult, ReplayItem, ReplayPlanDetails } from '../../../shared/model';
import { durableMove } from './atomic';
import { assertInside } from './confine';
import { objectBody, md5Hex, readChunkFile, replayContent, sha256Hex } from './chunkfile';
import { assertNotRefused } from './errors';
import { checkWriteAllowed, watchStore, type WriteTestHooks } from './guard';
import { appendLine, ensureToolDir, openAction, toolDir } from './journal';
import { loadReplayState, REPLAY_JOURNAL } from './replay-journal';
import { renderReplayKey } from './replay-plan';
import { getObjectBytes, headObject, probeConditionalWrites, putCreateOnly, type ConditionalMode, type HeadResult } from './s3ops';
import { readSeqIndexState, seqIndexPaths, writeSeqIndex } from './seqindex';

export interface ReplayApplyOptions {
  client: S3Client;
  force?: boolean;
  skipProcessCheck?: boolean;
  /** Parallel uploads (default 4). */
  concurrency?: number;
  /** `probe` (default) tests the endpoint; or force a mode. */
  conditional?: 'probe' | ConditionalMode;
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
  /**
   * After a kill, a PUT the dead process had fully sent can still be committed by the server a
   * moment later. An unconfirmed intent younger than this is re-checked after the wait instead of
   * being re-sent at once (default 5000 ms).
   */
  resumeSettleMs?: number;
  /** Test hooks (kill trials). */
  hooks?: WriteTestHooks & { afterIntent?: () => Promise<void> | void; afterUpload?: () => Promise<void> | void };
}

async function isOurs(client: S3Client, bucket: string, key: string, h: HeadResult, body: Buffer, md5: string, signal?: AbortSignal): Promise<boolean> {
  if (h.size !== body.length) return false;
  if (h.etag === md5) return true;
  return (await getObjectBytes(client, bucket, key, signal)).equals(body);
}

async function uniqueDest(dir: string, name: string): Promise<string> {
  for (let n = 0; ; n++) {
    const p = path.join(dir, n ? `${name}.${n}` : name);
    if (
      !(await fsp.lstat(p).then(
        () => true,
        () => false,
      ))
    )
      return p;
  }
}

export async function applyReplay(plan: RepairPlan, opts: ReplayApplyOptions): Promise<RepairResult & { items: ReplayItem[] }> {
  if (plan.details?.kind !== 'replay') throw new Error('not a replay plan');
  const d: ReplayPlanDetails = plan.details;
  assertNotRefused(plan.refusals, opts.force);
  const guard = await checkWriteAllowed(d.rootPath, { skipProcessCheck: opts.skipProcessCheck });
  assertNotRefused(guard.refusals, opts.force);
  const items: ReplayItem[] = d.items.map((i) => ({ ...i }));
  const todo = items.filter((i) => i.state === 'planned');
  const result: RepairResult & { items: ReplayItem[] } = {
    action: 'replay',
    applied: false,
    summary: '',
    steps: [],
    undoId: null,
    verified: false,
    warnings: [...plan.warnings],
    items,
  };
  if (!todo.length && !(d.indexBehind && d.hasIndex && d.outputId !== null)) {
    result.summary = 'Nothing to replay.';
    result.verified = true;
    return result;
  }
  let mode: ConditionalMode = opts.conditional && opts.conditional !== 'probe' ? opts.conditional : 'if-none-match';
  if (todo.length && (!opts.conditional || opts.conditional === 'probe')) {
    const p = await probeConditionalWrites(opts.client, d.bucket, opts.signal);
    mode = p.mode;
    if (p.warning) result.warnings.push(p.warning);
  } else if (mode === 'head-then-put') result.warnings.push('WARNING: conditional writes disabled: HEAD-then-PUT is NOT atomic.');

  // One replay (one writer) per root: applyPlan holds the root's write lock for the whole run.
  await ensureToolDir(d.rootPath);
  return run();

  async function run(): Promise<RepairResult & { items: ReplayItem[] }> {
    const watch = await watchStore(d.rootPath, opts.hooks);
    const journal = path.join(toolDir(d.rootPath), REPLAY_JOURNAL);
    const { states, maxIndex } = await loadReplayState(d.rootPath);
    const idxFile = d.outputId !== null ? seqIndexPaths(d.rootPath, d.outputId).file : null;
    const cur = idxFile ? await readSeqIndexState(idxFile) : null;
    let counter = Math.max(d.firstIndex, maxIndex !== null ? maxIndex + 1 : 0, cur?.state === 'value' ? cur.value : 0);
    const alloc = () => counter++;
    const action = await openAction({
      rootPath: d.rootPath,
      storePath: plan.storePath,
      action: 'replay',
      summary: plan.summary,
      changes: idxFile && d.hasIndex ? [{ kind: 'file', path: idxFile }] : [],
      undoable: false,
      undoNote:
        'A replay cannot be undone: its objects are in the bucket, and moving the chunks back would make Fluent Bit send them a second time. The replayed chunks are kept in .store-doctor/replayed/.',
    });
    result.undoId = action.id;
    const randomKeys = d.keyFormat.includes('$UUID') || (!d.hasIndex && !d.staticFilePath);
    const fmt = { keyFormat: d.keyFormat, tagDelimiters: d.tagDelimiters, staticFilePath: d.staticFilePath };
    const now = () => new Date().toISOString();
    let done = 0;
    let bytes = 0;
    const total = todo.length;
    const totalBytes = todo.reduce((a, i) => a + i.bytes, 0);

    async function one(item: ReplayItem): Promise<void> {
      const file = path.join(d.rootPath, item.chunkPath);
      await assertInside(d.rootPath, file, 'the chunk');
      const content = replayContent(await readChunkFile(file));
      const src = sha256Hex(content);
      const st = states.get(`${item.chunkPath}\0${src}`) ?? {};
      const { body, contentEncoding } = objectBody(content, d.compression);
      const md5 = md5Hex(body);
      const time = new Date(d.times[item.chunkPath] ?? now());
      let key: string | null = null;
      let uploaded = !!st.uploaded;
      if (st.intent) item.index = st.intent.index;
      if (st.uploaded) key = st.uploaded.key;
      else if (st.intent) {
        let h = await headObject(opts.client, d.bucket, st.intent.key, opts.signal);
        const age = Date.now() - Date.parse(st.intent.at);
        const settle = opts.resumeSettleMs ?? 5000;
        if (!h && age < settle) {
          await new Promise((r) => setTimeout(r, settle - age));
          h = await headObject(opts.client, d.bucket, st.intent.key, opts.signal);
        }
        if (h && (await isOurs(opts.client, d.bucket, st.intent.key, h, body, md5, opts.signal))) {
          key = st.intent.key;
          uploaded = true;
          await appendLine(journal, { t: 'uploaded', chunk: item.chunkPath, src, key, etag: h.etag, at: now() });
          item.message = 'resumed: the object from the interrupted run is in the bucket';
        } else if (!h)
          key = st.intent.key; // never created: put the same key again
        else await appendLine(journal, { t: 'conflict', chunk: item.chunkPath, src, key: st.intent.key, at: now() });
      }
      for (let attempt = 0; !uploaded; attempt++) {
        if (attempt > 1000) throw new Error('1000 keys taken in a row; giving up');
        if (!key) {
          const index = d.hasIndex ? alloc() : null;
          key = renderReplayKey(fmt, item.tag, index ?? 0, time);
          item.index = index;
          await appendLine(journal, { t: 'intent', chunk: item.chunkPath, src, key, index, size: body.length, md5, at: now() });
          await opts.hooks?.afterIntent?.();
        }
        const out = await putCreateOnly(opts.client, d.bucket, key, body, { mode, contentEncoding, signal: opts.signal });
        if (out.created) {
          const h = await headObject(opts.client, d.bucket, key, opts.signal);
          if (!h || h.size !== body.length || (out.etag && h.etag && out.etag !== h.etag))
            throw new Error(`s3://${d.bucket}/${key}: HeadObject does not confirm the upload (${h ? `${h.size} bytes` : 'missing'})`);
          await appendLine(journal, { t: 'uploaded', chunk: item.chunkPath, src, key, etag: h.etag, at: now() });
          await opts.hooks?.afterUpload?.();
          uploaded = true;
        } else {
          // 412: if the object there is byte-for-byte this chunk (a late commit of a killed run's PUT), it is ours.
          const h = await headObject(opts.client, d.bucket, key, opts.signal);
          if (h && (await isOurs(opts.client, d.bucket, key, h, body, md5, opts.signal))) {
            await appendLine(journal, { t: 'uploaded', chunk: item.chunkPath, src, key, etag: h.etag, at: now() });
            uploaded = true;
            continue;
          }
          await appendLine(journal, { t: 'conflict', chunk: item.chunkPath, src, key, at: now() });
          item.message = `${item.message ? item.message + '; ' : ''}key ${key} exists (412): took the next ${d.hasIndex ? 'index' : 'key'}`;
          if (!d.hasIndex && !randomKeys) throw new Error(`s3://${d.bucket}/${key} exists and the key format cannot produce another key; not overwriting`);
          key = null;
        }
      }
      item.key = key!;
      const dest = await uniqueDest(path.join(toolDir(d.rootPath), 'replayed', item.stream), path.basename(item.chunkPath));
      await assertInside(d.rootPath, file, 'the chunk');
      await durableMove(d.rootPath, file, dest);
      await appendLine(journal, { t: 'moved', chunk: item.chunkPath, src, to: path.relative(d.rootPath, dest), at: now() });
      item.state = 'done';
    }

    const queue = [...todo];
    const workers = Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 4, queue.length)) }, async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        if (opts.signal?.aborted) {
          item.state = 'planned';
          item.message = 'cancelled before it started';
          continue;
        }
        try {
          await one(item);
          result.steps.push({
            step: { kind: 'put-object', target: `s3://${d.bucket}/${item.key}`, description: item.chunkPath },
            ok: true,
            message: item.message ?? 'uploaded, confirmed, moved',
          });
        } catch (err) {
          item.state = 'failed';
          item.message = (err as Error).message;
          result.steps.push({
            step: { kind: 'put-object', target: `s3://${d.bucket}/${item.key}`, description: item.chunkPath },
            ok: false,
            message: item.message,
          });
        }
        done++;
        bytes += item.bytes;
        opts.onProgress?.({ task: 'replay', done, total, bytes, totalBytes, current: item.chunkPath });
      }
    });
    try {
      await Promise.all(workers);
    } finally {
      // The next index must be above every key we used, even after a failure or cancel.
      if (idxFile && d.hasIndex) {
        const now2 = await readSeqIndexState(idxFile);
        if (!(now2.state === 'value' && now2.value >= counter)) {
          const w = await writeSeqIndex(d.rootPath, d.outputId!, counter);
          result.warnings.push(...w.warnings);
          await appendLine(journal, { t: 'index', value: counter, at: now() });
          result.steps.push({ step: { kind: 'write-file', target: idxFile, description: `next index ${counter}` }, ok: true, message: 'written atomically' });
        }
      }
      await action.applied(items.every((i) => i.state !== 'failed'));
    }
    const expected = [...todo.map((i) => path.join(d.rootPath, i.chunkPath)), ...(idxFile ? [idxFile] : [])];
    const changed = await watch.warning(expected, 'the replay');
    if (changed) result.warnings.push(changed);
    const ok = items.filter((i) => i.state === 'done').length;
    const failed = items.filter((i) => i.state === 'failed').length;
    const left = todo.length - ok - failed;
    result.applied = true;
    result.verified = failed === 0 && left === 0;
    if (!todo.length) result.summary = `Nothing left to replay; the next index now covers every key an earlier replay used.`;
    else
      result.summary = `Replayed ${ok} of ${todo.length} chunks to s3://${d.bucket}${failed ? `; ${failed} failed` : ''}${left ? `; ${left} not started (cancelled) — run again to resume` : ''}.`;
    return result;
  }
}
