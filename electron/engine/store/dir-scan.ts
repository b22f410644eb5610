/**
 * Scan of a directory store: walk it, decide its layout, then read every chunk file in batches of
 * one stream — in worker threads when the store is big (scan-pool.ts), else on this thread in
 * short slices — and turn each file into its finished {@link ChunkInfo} as soon as it is read, so
 * no file contents, analyses or read buffers outlive their file. Read-only.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RootReport, StoreProblem, StoreSourceInfo } from '../../../shared/model';
import { MULTIPART_CAP, SEQ_CAP } from './archive-source';
import { StringPool } from './chunk-info';
import { classifyRoot, classifyStream, streamKind } from './classify';
import { pushAll } from '../../../shared/arrays';
import { plural } from '../../../shared/format';
import { isWritable, listNode, walkDir, writability } from './dir-source';
import { StoreError } from './errors';
import { isoFromMs } from './io';
import { notRegularReason, safeReadFile } from './safe-read';
import { seqFailureOf } from './seq-index';
import { ScanPool, scanPool } from './scan-pool';
import type { ScanStoreOptions } from './scan';
import { detectLayout, rootsOf, type TreeNode } from './tree';
import { nameOf, pathOf, readHere, take, type Batch, type SeqItem, type StreamWork } from './scan-batch';

/** Files per batch handed to a worker (or read in one go on this thread). */
const BATCH = 512;

/** Default worker count: STORE_DOCTOR_SCAN_WORKERS when set, else one per core besides this one (1..3). */
function defaultWorkers(): number {
  const env = Number(process.env.STORE_DOCTOR_SCAN_WORKERS);
  return Number.isInteger(env) && env >= 0 ? env : ScanPool.defaultSize();
}

/** List the stream folders the walk left unlisted (names only for chunk files), a few at a time; problems in folder order. */
async function listStreams(r: { node: TreeNode; path: string }, streams: TreeNode[], conc: number, problems: StoreProblem[]): Promise<void> {
  const todo = streams.filter((s) => s.children === undefined);
  const found: StoreProblem[][] = todo.map(() => []);
  let i = 0;
  const lister = async () => {
    while (i < todo.length) {
      const k = i++;
      await listNode(todo[k], `${r.path}/${todo[k].name}`, found[k], true);
    }
  };
  await Promise.all(Array.from({ length: Math.min(conc, todo.length) }, lister));
  for (const f of found) pushAll(problems, f);
}

export async function scanDirectory(
  abs: string,
  given: string,
  opts: ScanStoreOptions,
  problems: StoreProblem[],
): Promise<{ roots: RootReport[]; source: StoreSourceInfo }> {
  const conc = Math.max(1, opts.concurrency ?? 8);
  const records = opts.records ?? true;
  const top = await walkDir(abs, 4, problems, conc);
  if (top.listError) throw new StoreError(top.listError, abs);
  const layout = detectLayout(top, false);
  if (!layout) {
    // Read, and said: no store here (diagnose reports NO_STORE); nothing of it is taken for a root.
    problems.push({ severity: 'error', path: abs, message: `${abs}: not a Fluent Bit store — no stream folders and no bucket roots inside` });
    return {
      roots: [],
      source: { kind: 'store_dir', path: given, readOnly: true, description: 'no Fluent Bit store found (no stream folders and no bucket roots)' },
    };
  }
  const inside = layout.prefix.join('/');
  const base = layout.prefix.length ? path.join(abs, ...layout.prefix) : abs;
  if (inside) problems.push({ severity: 'info', path: abs, message: `store found at ${base} (the folder given holds more than the store)` });
  for (const o of layout.others ?? []) {
    problems.push({ severity: 'warning', path: path.join(abs, ...o), message: 'holds bucket roots too: not scanned here; scan it on its own' });
  }
  const roots = rootsOf(layout.kind, layout.node, base, problems);
  if (layout.kind === 'root' && ![...(layout.node.children?.keys() ?? [])].some((n) => !n.startsWith('.'))) {
    problems.push({
      severity: 'info',
      path: base,
      message: `the folder is empty: read as the root of bucket ${roots[0].bucket} (its name) — nothing in it shows that it is one; repairs check that it is the root of the bucket they are for`,
    });
  }
  // Work in the order problems are reported: per root, its streams' chunk files, then its seq_index files.
  const units: (Batch | SeqItem)[] = [];
  const batches: Batch[] = [];
  const seqs: SeqItem[] = [];
  let total = 0;
  for (const r of roots) {
    if (r.node.children === undefined) await listNode(r.node, r.path, problems);
    const streams = [...(r.node.children?.values() ?? [])].filter((s) => s.type === 'directory' && !s.name.startsWith('.'));
    await listStreams(r, streams, conc, problems);
    let denied = 0;
    for (const s of streams) {
      const w = await writability(s.fsPath as string | Buffer);
      s.writable = w.writable;
      if (w.denied) denied++;
      const items: (string | TreeNode)[] = [...(s.files ?? [])];
      for (const f of s.children?.values() ?? []) if (f.type === 'file' && !f.name.startsWith('.')) items.push(f);
      if (items.length === 0) continue;
      const keep = s.name === 'multipart_upload_metadata' ? MULTIPART_CAP : 0;
      const fsDir = s.fsPath as string | Buffer;
      const dir = typeof fsDir === 'string' ? `${fsDir}${path.sep}` : Buffer.concat([fsDir, Buffer.from(path.sep)]);
      const work: StreamWork = {
        node: s,
        kind: streamKind(s.name),
        keep,
        prefix: `${s.name}/`,
        base: `${r.path}/${s.name}`,
        dir,
        infos: [],
        left: Math.ceil(items.length / BATCH),
      };
      for (let i = 0; i < items.length; i += BATCH) {
        const b: Batch = { work, items: items.slice(i, i + BATCH), next: 0, errors: [] };
        units.push(b);
        batches.push(b);
      }
      total += items.length;
    }
    if (denied) {
      problems.push({
        severity: 'info',
        path: r.path,
        message: `${plural(denied, 'stream folder')} ${denied === 1 ? 'is' : 'are'} not writable by this user (uid ${process.getuid?.() ?? '?'}): Fluent Bit skips a stream its own user cannot write, which cannot be checked from here; run Store Doctor as the user Fluent Bit runs as, or as root`,
      });
    }
    const im = r.node.children?.get('sequence')?.children?.get('index_metadata');
    if (im?.type === 'directory') {
      if (im.children === undefined) await listNode(im, `${r.path}/sequence/index_metadata`, problems);
      for (const f of im.children?.values() ?? []) {
        // Every seq_index_* entry is reported: one that is not a regular file is a problem, never silently "missing".
        if (f.name.startsWith('.') || !f.name.startsWith('seq_index_')) continue;
        const item: SeqItem = { node: f, shown: `${r.path}/sequence/index_metadata/${f.name}`, errors: [] };
        units.push(item);
        seqs.push(item);
        total++;
      }
    }
  }
  let done = 0;
  let bytes = 0;
  let lastEmit = 0;
  let current: string | undefined;
  const emit = (force = false) => {
    const now = Date.now();
    if (!opts.onProgress || (!force && now - lastEmit < 100)) return;
    lastEmit = now;
    opts.onProgress({ task: 'scan', done, total, bytes, totalBytes: null, current });
  };
  emit(true);
  for (const s of seqs) {
    opts.signal?.throwIfAborted();
    const n = s.node;
    if (n.type === 'file') {
      try {
        const r = await safeReadFile(n.fsPath as string | Buffer, { maxBytes: SEQ_CAP, head: true, shown: s.shown });
        Object.assign(n, { raw: r.bytes, size: r.size, mtime: isoFromMs(r.stat.mtime.getTime()), mode: r.stat.mode & 0o7777 });
        bytes += r.bytes.length;
        if (r.truncated) n.seqFailure = seqFailureOf(s.shown, { tooLarge: r.size });
      } catch (err) {
        n.seqFailure = seqFailureOf(s.shown, { error: err });
      }
    } else if (n.type === 'other') {
      // Which special file it is (FIFO, socket, device), from lstat: it is never opened.
      const st = await fs.promises.lstat(n.fsPath as string | Buffer).catch(() => null);
      const bad = st ? notRegularReason(st) : null;
      n.seqFailure = bad ? { status: 'not-regular', message: `${s.shown}: ${bad.reason}` } : seqFailureOf(s.shown, { node: n });
    } else n.seqFailure = seqFailureOf(s.shown, { node: n });
    if (n.seqFailure) s.errors.push({ severity: 'error', path: s.shown, message: n.seqFailure.message });
    done++;
  }
  const pool = new StringPool();
  const finished = (b: Batch) => {
    const w = b.work;
    done += b.items.length;
    current = `${w.base}/${nameOf(b.items[b.items.length - 1])}`;
    b.items = [];
    if (--w.left === 0) {
      // All chunks of the stream are read: its report is final; names and nodes of its files can go.
      w.node.report = classifyStream(w.node, pool, w.infos);
      w.node.files = undefined;
      if (w.node.name !== 'sequence') w.node.children = new Map();
      w.infos = [];
    }
    emit();
  };
  /** Read on this thread for ~20 ms (a batch may take several turns); true when `b` is finished. */
  const readSlice = (b: Batch): boolean => {
    bytes += readHere(b, records, buf, pool, Date.now() + 20);
    if (b.next < b.items.length) return false;
    finished(b);
    return true;
  };
  const workers = Math.max(0, Math.floor(opts.workers ?? defaultWorkers()));
  const chunkFiles = total - seqs.length;
  const wp = workers > 0 && chunkFiles >= (opts.workerThreshold ?? 4096) ? scanPool(workers) : null;
  const buf = Buffer.allocUnsafe(1024 * 1024);
  if (wp?.usable) {
    // Up to two batches per worker in flight; between taking their results this thread reads
    // batches too. A batch a worker cannot read is read here instead.
    const inflight = new Set<Promise<void>>();
    let failure: unknown = null;
    let mine: Batch | null = null;
    let next = 0;
    while (next < batches.length || inflight.size || mine) {
      opts.signal?.throwIfAborted();
      if (failure) throw failure;
      while (next < batches.length && inflight.size < workers * 2) {
        const b = batches[next++];
        const p: Promise<void> = wp
          .run({ kind: b.work.kind, records, keep: b.work.keep, paths: b.items.map((item) => pathOf(b.work, item)) })
          .then(
            (wire) => {
              bytes += take(b, wire, pool);
              finished(b);
            },
            () => {
              if (opts.signal?.aborted) return;
              bytes += readHere(b, records, buf, pool);
              finished(b);
            },
          )
          .catch((err: unknown) => {
            failure = err;
          })
          .finally(() => inflight.delete(p));
        inflight.add(p);
      }
      if (!mine && next < batches.length) mine = batches[next++];
      if (mine) {
        if (readSlice(mine)) mine = null;
        await new Promise((r) => setImmediate(r));
      } else if (inflight.size) await Promise.race(inflight);
    }
    if (failure) throw failure;
  } else {
    // On this thread: synchronous reads (no thread-pool hop per syscall) in ~20 ms slices between
    // event-loop turns, so progress, cancellation and other work get their turn.
    for (const b of batches) {
      for (;;) {
        opts.signal?.throwIfAborted();
        const whole = readSlice(b);
        await new Promise((r) => setImmediate(r));
        if (whole) break;
      }
    }
  }
  opts.signal?.throwIfAborted();
  for (const u of units) pushAll(problems, u.errors);
  emit(true);
  const reports = roots.map((r) => {
    const rep = classifyRoot(r.node, r.bucket, r.path, pool);
    return r.node.followedLink ? { ...rep, linkTarget: r.node.followedLink } : rep;
  });
  const writable = await isWritable(base);
  const description =
    layout.kind === 'root'
      ? `one root (bucket ${roots[0].bucket}) with ${plural(reports[0].streams.length, 'stream')} and ${plural(reports[0].totals.chunks, 'chunk')}`
      : `a store_dir with ${plural(roots.length, 'bucket root')}${roots.length ? ` (${roots.map((r) => r.bucket).join(', ')})` : ''}`;
  return {
    roots: reports,
    source: {
      kind: layout.kind,
      path: given,
      readOnly: writable !== true,
      description: inside ? `${description}; store found at ${inside}/` : description,
      ...(inside ? { foundAt: inside } : {}),
    },
  };
}
