/**
 * Every chunk of a replay gets its key before its upload starts: a chunk an interrupted run had
 * already given a key keeps it (its intent is in the journal), every other one gets the next
 * `$INDEX` in the plan's order (first record time, then path) — the keys Fluent Bit would have
 * written, in order, however many uploads then run at once. The chunks are read, hashed and given
 * their keys in ordered batches ({@link replayBatches}: small first, so the first uploads start
 * early, then larger); a batch's new intents are appended with one write and one fsync before any
 * of its PUTs, while the next batch is read. Batches are given keys one after another, so the
 * indices are exactly those of one pass in the plan's order.
 *
 * A kill while an intent write is under way leaves a prefix of the intents (a torn last line is
 * ignored); the next run allocates from the last complete one, so the remaining chunks get the
 * same indices they would have had.
 *
 * The bodies read here are kept for the upload (up to {@link BODY_CACHE_BYTES}); a chunk beyond
 * that is read again when its turn comes and must still hash to its intent's `src`.
 */
import * as path from 'node:path';
import type { ReplayItem, ReplayPlanDetails } from '../../../../shared/model';
import { md5Hex, objectBody, readChunkFile, readChunkFileSync, replayContent } from './chunkfile';
import { sha256 } from '../journal';
import { assertInsideRoot, resolveWriteRoot } from '../write';
import type { ChunkState, ReplayLine } from './replay-journal';
import type { Prepared } from './replay-upload';

/** Run `f` over `items` with at most `n` at once, results in order. */
export async function mapPool<T, R>(items: T[], n: number, f: (t: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await f(items[i], i);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, worker));
  return out;
}

/** Items handed over as they are ready; {@link drainPool} takes them in order. */
export class Feed<T> {
  private items: T[] = [];
  private closed = false;
  private waiting: (() => void)[] = [];
  private taken: (() => void)[] = [];
  push(...items: T[]): void {
    this.items.push(...items);
    this.wake();
  }
  /** No more items: the takers finish what is queued and stop. */
  close(): void {
    this.closed = true;
    this.wake();
    for (const w of this.taken.splice(0)) w();
  }
  /** Resolves once at most `n` items wait (the producer reads ahead only so far). */
  async below(n: number): Promise<void> {
    while (this.items.length > n && !this.closed) await new Promise<void>((r) => this.taken.push(r));
  }
  async take(): Promise<T | undefined> {
    for (;;) {
      if (this.items.length) {
        const t = this.items.shift();
        for (const w of this.taken.splice(0)) w();
        return t;
      }
      if (this.closed) return undefined;
      await new Promise<void>((r) => this.waiting.push(r));
    }
  }
  private wake(): void {
    for (const w of this.waiting.splice(0)) w();
  }
}

/** Run `f` over the items of `feed` as they come, at most `n` at once. */
export async function drainPool<T>(feed: Feed<T>, n: number, f: (t: T) => Promise<void>): Promise<void> {
  const worker = async () => {
    for (let t = await feed.take(); t !== undefined; t = await feed.take()) await f(t);
  };
  await Promise.all(Array.from({ length: Math.max(1, n) }, worker));
}

/** Batches in order: `first` items, then twice as many each time up to `max`. */
export function* replayBatches<T>(items: T[], first = 8, max = 256): Generator<T[]> {
  let n = Math.max(1, first);
  for (let i = 0; i < items.length; i += n, n = Math.min(max, n * 2)) yield items.slice(i, i + n);
}

/** Chunks up to this size are read with synchronous calls (a quick read; no thread-pool round trip per step). */
const SYNC_READ_BYTES = 1024 * 1024;

/** Bodies read here are kept for their upload up to this many bytes in all (memory stays bounded). */
export const BODY_CACHE_BYTES = 64 * 1024 * 1024;

export interface PrepareResult {
  prepared: Prepared[];
  /** Intents to append (fsynced) before the first upload. */
  intents: Extract<ReplayLine, { t: 'intent' }>[];
  /** Chunks that could not be read (damaged since the plan, vanished, outside the root). */
  failed: { item: ReplayItem; message: string }[];
}

export async function prepareReplay(
  d: ReplayPlanDetails,
  todo: ReplayItem[],
  states: Map<string, ChunkState>,
  alloc: (item: ReplayItem) => { key: string; index: number | null },
  budget: { cached: number } = { cached: 0 },
): Promise<PrepareResult> {
  // Reading is done in parallel; keys are given afterwards, one by one in the plan's order.
  // The root is resolved once per batch; each chunk's path is still checked component by component.
  const root = await resolveWriteRoot(d.rootPath);
  const read = await mapPool(todo, 8, async (item) => {
    const file = path.join(d.rootPath, item.chunkPath);
    try {
      await assertInsideRoot(root, file, 'the chunk');
      // a small chunk is read with synchronous calls (same checks), a large one without blocking
      const content = replayContent(item.bytes <= SYNC_READ_BYTES ? readChunkFileSync(file) : await readChunkFile(file));
      const { body } = objectBody(content, d.compression);
      // kept for the upload while the budget lasts (else read again then)
      const keep = budget.cached + body.length <= BODY_CACHE_BYTES;
      if (keep) budget.cached += body.length;
      return { ok: true as const, item, file, src: sha256(content), md5: md5Hex(body), size: body.length, body: keep ? body : undefined };
    } catch (err) {
      return { ok: false as const, item, message: (err as Error).message };
    }
  });
  const res: PrepareResult = { prepared: [], intents: [], failed: [] };
  const at = new Date().toISOString();
  for (const r of read) {
    if (!r.ok) {
      res.failed.push({ item: r.item, message: r.message });
      continue;
    }
    const st = states.get(`${r.item.chunkPath}\0${r.src}`) ?? {};
    const base = { item: r.item, file: r.file, src: r.src, md5: r.md5, size: r.size, body: r.body };
    let p: Prepared;
    if (st.uploaded) p = { ...base, key: st.uploaded.key, index: st.intent?.index ?? null, from: 'uploaded' };
    else if (st.intent) {
      // the settle wait runs from the last PUT the interrupted run started, else from the intent
      const last = st.started?.key === st.intent.key && st.started.at > st.intent.at ? st.started.at : st.intent.at;
      p = { ...base, key: st.intent.key, index: st.intent.index, from: 'intent', intentAt: last };
    } else {
      const { key, index } = alloc(r.item);
      p = { ...base, key, index, from: 'fresh' };
      res.intents.push({ t: 'intent', chunk: r.item.chunkPath, src: r.src, key, index, size: r.size, md5: r.md5, at });
    }
    r.item.key = p.key;
    r.item.index = p.index;
    res.prepared.push(p);
  }
  return res;
}
