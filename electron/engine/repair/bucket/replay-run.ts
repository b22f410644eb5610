/**
 * Replay apply. Every chunk gets its key before its upload starts, in the plan's order
 * (replay-prepare.ts: ordered batches, each batch's intents fsynced with one write before its
 * uploads, while the next batch is read and hashed); a bounded pool (default 10, like the AWS CLI) uploads
 * them create-only (`If-None-Match: *`, replay-upload.ts), records each outcome in the journal
 * (`uploaded`, `conflict`, `failed`, `cancelled`), and moves each uploaded chunk to
 * `.store-doctor/replayed/<stream>/` so Fluent Bit never sends it again (replay-moves.ts). Outcome
 * lines are written at once and fsynced per batch, with the moved chunks' folders: a kill -9 at any
 * point loses nothing (written lines are in the page cache) and the next run resumes every chunk
 * still in a stream from its fsynced intent — HEAD finds an object already sent, so nothing is sent
 * twice. Finally the next index is written atomically, above every key used.
 *
 * Cancel stops starting uploads; the ones in flight finish (their requests are not aborted) and are
 * recorded and moved, so a cancelled run leaves no upload unaccounted for.
 */
import * as path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Progress, RepairPlan, RepairResult, ReplayItem, ReplayPlanDetails } from '../../../../shared/model';
import { assertNotRefused, startResult } from '../outcome';
import { type WriteFrame, writeFrame, type WriteTestHooks } from '../preconditions';
import { openJournalAppender, toolDir } from '../journal';
import { loadReplayState, REPLAY_JOURNAL, type ReplayLine } from './replay-journal';
import { ReplayMover } from './replay-moves';
import { renderReplayKey } from './replay-plan';
import { drainPool, Feed, prepareReplay, replayBatches } from './replay-prepare';
import { uploadOne, type Prepared, type UploadContext } from './replay-upload';
import { probeConditionalWrites, type ConditionalMode } from './s3ops';
import { readSeqIndexState, seqIndexPaths, writeSeqIndex } from '../index-actions';

/** Parallel uploads when not given (the AWS CLI's default `max_concurrent_requests`). */
export const DEFAULT_REPLAY_CONCURRENCY = 10;
/** Prepared chunks waiting for an upload before the next batch is read (about one batch ahead). */
const READ_AHEAD = 256;
/** Moves (and outcome lines) made durable together. */
export const DEFAULT_REPLAY_BATCH = 64;

export interface ReplayApplyOptions {
  client: S3Client;
  force?: boolean;
  skipProcessCheck?: boolean;
  /** The write frame applyPlan made (preconditions/write-frame.ts); absent: made from these options. */
  frame?: WriteFrame;
  /** Parallel uploads (default {@link DEFAULT_REPLAY_CONCURRENCY}). */
  concurrency?: number;
  /** Moves fsynced together (default {@link DEFAULT_REPLAY_BATCH}). */
  batch?: number;
  /** `probe` (default) tests the endpoint; or force a mode. */
  conditional?: 'probe' | ConditionalMode;
  onProgress?: (p: Progress) => void;
  /** Cancel: no new upload starts; those in flight finish and are recorded. */
  signal?: AbortSignal;
  /**
   * After a kill, a PUT the dead process had fully sent can still be committed by the server a
   * moment later. An unconfirmed intent younger than this is re-checked after the wait instead of
   * being re-sent at once (default 5000 ms).
   */
  resumeSettleMs?: number;
  /** Test hooks (kill trials). */
  hooks?: WriteTestHooks & {
    afterIntent?: () => Promise<void> | void;
    afterUpload?: () => Promise<void> | void;
    afterMove?: () => Promise<void> | void;
  };
}

export async function applyReplay(plan: RepairPlan, opts: ReplayApplyOptions): Promise<RepairResult & { items: ReplayItem[] }> {
  if (plan.details?.kind !== 'replay') throw new Error('not a replay plan');
  const d: ReplayPlanDetails = plan.details;
  assertNotRefused(plan.refusals, opts.force);
  const frame = writeFrame(opts);
  const items: ReplayItem[] = d.items.map((i) => ({ ...i }));
  const todo = items.filter((i) => i.state === 'planned');
  const result: RepairResult & { items: ReplayItem[] } = { ...startResult(plan), items };
  if (!todo.length && !(d.indexBehind && d.hasIndex && d.outputId !== null)) {
    result.summary = 'Nothing to replay.';
    result.verified = true;
    return result;
  }
  let mode: ConditionalMode = opts.conditional && opts.conditional !== 'probe' ? opts.conditional : 'if-none-match';
  // The probe runs while the chunks are read and hashed; no upload starts before it has answered.
  let probeError: unknown = null;
  let probing: Promise<void> = Promise.resolve();
  const startProbe = () => {
    if (todo.length && (!opts.conditional || opts.conditional === 'probe')) {
      probing = probeConditionalWrites(opts.client, d.bucket, opts.signal).then(
        (p) => {
          mode = p.mode;
          if (p.warning) result.warnings.push(p.warning);
        },
        (err: unknown) => {
          probeError = err ?? new Error('the conditional-write probe failed');
        },
      );
    } else if (mode === 'head-then-put') result.warnings.push('WARNING: conditional writes disabled: HEAD-then-PUT is NOT atomic.');
  };
  // One replay (one writer) per root: applyPlan holds the root's write lock for the whole run.
  return run();

  async function run(): Promise<RepairResult & { items: ReplayItem[] }> {
    const idxFile = d.outputId !== null ? seqIndexPaths(d.rootPath, d.outputId).file : null;
    const expected = [...todo.map((i) => path.join(d.rootPath, i.chunkPath)), ...(idxFile ? [idxFile] : [])];
    await frame.journaled(
      plan,
      result,
      {
        root: d.rootPath,
        what: 'the replay',
        changes: () => (idxFile && d.hasIndex ? [{ kind: 'file' as const, path: idxFile }] : []),
        undoable: false,
        undoNote:
          'A replay cannot be undone: its objects are in the bucket, and moving the chunks back would make Fluent Bit send them a second time. The replayed chunks are kept in .store-doctor/replayed/.',
      },
      async () => {
        startProbe();
        try {
          await upload(idxFile);
        } finally {
          await probing; // never left in flight
        }
        return { expected, verified: items.every((i) => i.state !== 'failed') };
      },
    );
    const ok = items.filter((i) => i.state === 'done').length;
    const failed = items.filter((i) => i.state === 'failed').length;
    const left = todo.length - ok - failed;
    result.verified = failed === 0 && left === 0;
    if (!todo.length) result.summary = `Nothing left to replay; the next index now covers every key an earlier replay used.`;
    else
      result.summary = `Replayed ${ok} of ${todo.length} chunks to s3://${d.bucket}${failed ? `; ${failed} failed` : ''}${left ? `; ${left} not started (cancelled) — run again to resume` : ''}.`;
    return result;
  }

  /** The uploads, the moves and the next index, inside the journal entry the frame opened. */
  async function upload(idxFile: string | null): Promise<void> {
    const journal = path.join(toolDir(d.rootPath), REPLAY_JOURNAL);
    const { states, maxIndex } = await loadReplayState(d.rootPath);
    const cur = idxFile ? await readSeqIndexState(idxFile) : null;
    let counter = Math.max(d.firstIndex, maxIndex !== null ? maxIndex + 1 : 0, cur?.state === 'value' ? cur.value : 0);
    const alloc = () => counter++;
    const randomKeys = d.keyFormat.includes('$UUID') || (!d.hasIndex && !d.staticFilePath);
    const fmt = { keyFormat: d.keyFormat, tagDelimiters: d.tagDelimiters, staticFilePath: d.staticFilePath };
    const now = () => new Date().toISOString();
    const keyTime = (item: ReplayItem) => new Date(d.times[item.chunkPath] ?? now());
    const nextKey = (item: ReplayItem) => {
      const index = d.hasIndex ? alloc() : null;
      return { key: renderReplayKey(fmt, item.tag, index ?? 0, keyTime(item)), index };
    };
    let done = 0;
    let bytes = 0;
    const total = todo.length;
    const totalBytes = todo.reduce((a, i) => a + i.bytes, 0);
    const step = (item: ReplayItem, ok: boolean, message: string) =>
      result.steps.push({ step: { kind: 'put-object', target: `s3://${d.bucket}/${item.key}`, description: item.chunkPath }, ok, message });
    const finish = (item: ReplayItem) => {
      done++;
      bytes += item.bytes;
      opts.onProgress?.({ task: 'replay', done, total, bytes, totalBytes, current: item.chunkPath });
    };
    const jw = await openJournalAppender(journal);
    const record = (line: ReplayLine) => jw.append([line], { sync: false });
    const mover = new ReplayMover<Prepared & { destDir: string }>(d.rootPath);
    const batch = Math.max(1, opts.batch ?? DEFAULT_REPLAY_BATCH);
    let unflushed = 0;
    // One flush at a time; the moved lines follow the fsync of the folders they name.
    let flushing: Promise<void> = Promise.resolve();
    const flush = () => {
      unflushed = 0;
      flushing = flushing.then(async () => {
        const moved = await mover.flush();
        await jw.append(
          moved.map((m) => ({ t: 'moved', chunk: m.req.item.chunkPath, src: m.req.src, to: path.relative(d.rootPath, m.to), at: now() })),
          { sync: false },
        );
        await jw.sync();
      });
      return flushing;
    };

    let workers: Promise<unknown> = Promise.resolve();
    // The next index written at the end covers the keys journaled, not keys given but never used.
    const before = counter;
    let used = false;
    // Conflicts take their next index only after every planned chunk has its own (Fluent Bit's order).
    let assigned: Promise<void> = Promise.resolve();
    try {
      const feed = new Feed<Prepared>();
      let uploadsEnded = false;
      const budget = { cached: 0 };
      // Batch k's intents are fsynced before any of its PUTs, while batch k+1 is read and hashed.
      const producing = (async () => {
        try {
          for (const part of replayBatches(todo)) {
            // read ahead of the uploads by about one batch, not the whole backlog (memory, GC)
            await feed.below(READ_AHEAD);
            if (uploadsEnded) break; // the workers stopped (an unexpected error): read no more
            const prep = await prepareReplay(d, part, states, nextKey, budget);
            // no intent is written before the probe has answered
            await probing;
            if (probeError) throw probeError;
            used = true;
            for (const f of prep.failed) {
              f.item.state = 'failed';
              f.item.message = f.message;
              step(f.item, false, f.message);
              finish(f.item);
            }
            if (prep.intents.length) await jw.append(prep.intents); // these keys durable before their PUTs
            await opts.hooks?.afterIntent?.();
            feed.push(...prep.prepared);
          }
        } finally {
          feed.close();
        }
      })();
      assigned = producing.catch(() => undefined);
      await probing;
      if (probeError) {
        await assigned;
        throw probeError;
      }

      const ctx: UploadContext = {
        client: opts.client,
        bucket: d.bucket,
        rootPath: d.rootPath,
        mode,
        compression: d.compression === 'gzip' ? 'gzip' : 'none',
        canTakeNext: d.hasIndex || randomKeys,
        nextKey: async (p) => {
          await assigned;
          return nextKey(p.item);
        },
        record,
        recordIntent: (line) => jw.append([line]),
        settleMs: opts.resumeSettleMs ?? 5000,
        afterIntent: opts.hooks?.afterIntent,
        afterUpload: opts.hooks?.afterUpload,
      };
      const replayed = path.join(toolDir(d.rootPath), 'replayed');
      const concurrency = Math.max(1, opts.concurrency ?? DEFAULT_REPLAY_CONCURRENCY);
      // A worker hands its uploaded chunk to the mover and starts its next upload at once; the moves
      // (one at a time) and their batched fsyncs run beside the uploads.
      const moves: Promise<void>[] = [];
      const failed = async (p: Prepared, err: unknown) => {
        const item = p.item;
        item.state = 'failed';
        item.message = (err as Error).message;
        await record({ t: 'failed', chunk: item.chunkPath, src: p.src, key: item.key, message: item.message.slice(0, 2000), at: now() }).catch(() => undefined);
        step(item, false, item.message);
        finish(item);
      };
      const moveOne = async (p: Prepared) => {
        const item = p.item;
        try {
          await mover.move({ ...p, destDir: path.join(replayed, item.stream) });
        } catch (err) {
          await failed(p, new Error(`${item.chunkPath}: uploaded to s3://${d.bucket}/${item.key}, but not moved out of the stream: ${(err as Error).message}`));
          return;
        }
        item.state = 'done';
        step(item, true, item.message ?? 'uploaded, confirmed, moved');
        finish(item);
        await opts.hooks?.afterMove?.();
        if (++unflushed >= batch) void flush().catch(() => undefined); // a failing fsync surfaces at the final flush
      };
      workers = drainPool(feed, concurrency, async (p) => {
        const item = p.item;
        if (opts.signal?.aborted) {
          item.message = 'cancelled before its upload started; its key is kept for the next run';
          await record({ t: 'cancelled', chunk: item.chunkPath, src: p.src, key: p.key, at: now() });
          return;
        }
        try {
          const up = await uploadOne(ctx, p);
          item.key = up.key;
          if (up.message) item.message = up.message;
        } catch (err) {
          await failed(p, err);
          return;
        }
        moves.push(moveOne(p));
      })
        .finally(() => {
          uploadsEnded = true;
          feed.close(); // a producer waiting for room goes on (and stops)
        })
        .then(() => Promise.all(moves));
      await workers;
      await producing;
    } finally {
      await workers.catch(() => undefined);
      await assigned;
      await flush();
      if (!used) counter = before;
      // The next index must be above every key we used, even after a failure or cancel.
      if (idxFile && d.hasIndex) {
        const now2 = await readSeqIndexState(idxFile);
        if (!(now2.state === 'value' && now2.value >= counter)) {
          const w = await writeSeqIndex(d.rootPath, d.outputId!, counter);
          result.warnings.push(...w.warnings);
          await jw.append([{ t: 'index', value: counter, at: now() }]);
          result.steps.push({ step: { kind: 'write-file', target: idxFile, description: `next index ${counter}` }, ok: true, message: 'written atomically' });
        }
      }
      await jw.close();
    }
  }
}
