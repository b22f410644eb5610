/**
 * `scanStore`: open a store_dir, one root, or a .tar/.tar.gz snapshot of either (read in place),
 * analyse every chunk with bounded concurrency, and report it as Fluent Bit sees it. Read-only.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Progress, RootReport, StoreProblem, StoreReport, StoreSourceInfo } from '../../../shared/model';
import { classifyRoot } from './classify';
import { isWritable, listDir, walkDir } from './dir-source';
import { describeFsError, StoreError } from './errors';
import { analyzeFileSync, readSmall } from './io';
import { MULTIPART_CAP, readArchive, SEQ_CAP, sniffArchive } from './archive-source';
import { detectLayout, type TreeNode } from './tree';

export interface ScanStoreOptions {
  /** Count records in every data chunk (reads all content). Default true; false reads headers only. */
  records?: boolean;
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
  /** Folders listed at the same time (default 8). Files are read in time slices on this thread. */
  concurrency?: number;
}

const BLOCK = 1024 * 1024;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The bucket roots under a layout node, with their display path. */
function rootsOf(layoutKind: 'store_dir' | 'root', node: TreeNode, base: string, problems: StoreProblem[]): { node: TreeNode; bucket: string; path: string }[] {
  if (layoutKind === 'root') return [{ node, bucket: node.name, path: base }];
  const out: { node: TreeNode; bucket: string; path: string }[] = [];
  for (const c of [...(node.children?.values() ?? [])].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (c.name.startsWith('.')) continue;
    if (c.type === 'directory') out.push({ node: c, bucket: c.name, path: `${base}/${c.name}` });
    else problems.push({ severity: 'info', path: `${base}/${c.name}`, message: `not a bucket root (a ${c.type}, not a folder): ignored` });
  }
  return out;
}

/** Streams of a root, its sequence/index_metadata folder, and the files to read in them. */
function collectFiles(root: TreeNode): { chunks: { node: TreeNode; keep: number; rel: string }[]; seq: TreeNode[]; indexMeta: TreeNode | null; streams: TreeNode[] } {
  const chunks: { node: TreeNode; keep: number; rel: string }[] = [];
  const streams: TreeNode[] = [];
  for (const s of root.children?.values() ?? []) {
    if (s.type !== 'directory' || s.name.startsWith('.')) continue;
    streams.push(s);
    for (const f of s.children?.values() ?? []) {
      if (f.type === 'file' && !f.name.startsWith('.')) chunks.push({ node: f, keep: s.name === 'multipart_upload_metadata' ? MULTIPART_CAP : 0, rel: `${s.name}/${f.name}` });
    }
  }
  const im = root.children?.get('sequence')?.children?.get('index_metadata');
  const indexMeta = im?.type === 'directory' ? im : null;
  const seq = indexMeta ? [...(indexMeta.children?.values() ?? [])].filter((f) => f.type === 'file' && !f.name.startsWith('.') && f.name.startsWith('seq_index_')) : [];
  return { chunks, seq, indexMeta, streams };
}

async function scanDirectory(abs: string, given: string, opts: ScanStoreOptions, problems: StoreProblem[]): Promise<{ roots: RootReport[]; source: StoreSourceInfo }> {
  const conc = Math.max(1, opts.concurrency ?? 8);
  const top = await walkDir(abs, 3, problems, conc);
  if (top.listError) throw new StoreError(top.listError, abs);
  const layout = detectLayout(top, false);
  if (!layout) throw new StoreError(`${abs}: not a Fluent Bit store — no stream folders and no bucket roots inside`, abs);
  const roots = rootsOf(layout.kind, top, abs, problems);
  const work: { node: TreeNode; keep: number; seq: boolean; shown: string }[] = [];
  for (const r of roots) {
    if (r.node.children === undefined) await listDir(r.node, r.path, problems);
    for (const s of r.node.children?.values() ?? []) {
      if (s.type === 'directory' && !s.name.startsWith('.') && s.children === undefined) await listDir(s, `${r.path}/${s.name}`, problems);
    }
    const { chunks, indexMeta, streams } = collectFiles(r.node);
    for (const s of streams) s.writable = await isWritable(s.fsPath as string | Buffer);
    if (indexMeta && indexMeta.children === undefined) await listDir(indexMeta, `${r.path}/sequence/index_metadata`, problems);
    const { seq } = collectFiles(r.node);
    for (const c of chunks) work.push({ node: c.node, keep: c.keep, seq: false, shown: `${r.path}/${c.rel}` });
    for (const f of seq) work.push({ node: f, keep: 0, seq: true, shown: `${r.path}/sequence/index_metadata/${f.name}` });
  }
  let done = 0;
  let bytes = 0;
  let next = 0;
  let lastEmit = 0;
  const emit = (current?: string, force = false) => {
    const now = Date.now();
    if (!opts.onProgress || (!force && now - lastEmit < 100)) return;
    lastEmit = now;
    opts.onProgress({ task: 'scan', done, total: work.length, bytes, totalBytes: null, current });
  };
  emit(undefined, true);
  // Files are read with synchronous calls in slices of ~20 ms between event-loop turns: for many
  // small files this is several times faster than a thread-pool round trip per syscall, and
  // progress, cancellation and other work still get their turn.
  const buf = Buffer.allocUnsafe(BLOCK);
  const records = opts.records ?? true;
  while (next < work.length) {
    opts.signal?.throwIfAborted();
    const sliceEnd = Date.now() + 20;
    while (next < work.length && Date.now() < sliceEnd) {
      const w = work[next++];
      try {
        if (w.seq) {
          const r = await readSmall(w.node.fsPath as string | Buffer, SEQ_CAP);
          Object.assign(w.node, { raw: r.bytes, size: r.size, mtime: r.mtime, mode: r.mode });
          bytes += r.bytes.length;
        } else {
          const r = analyzeFileSync(w.node.fsPath as string | Buffer, { records, keepContent: w.keep }, buf);
          Object.assign(w.node, { size: r.size, mtime: r.mtime, mode: r.mode, analysis: r.analysis });
          bytes += r.bytesRead;
        }
      } catch (err) {
        w.node.readError = describeFsError(err, w.shown);
        problems.push({ severity: 'error', path: w.shown, message: w.node.readError });
      }
      done++;
    }
    emit(work[next - 1]?.shown);
    await new Promise((r) => setImmediate(r));
  }
  opts.signal?.throwIfAborted();
  emit(undefined, true);
  const reports = roots.map((r) => classifyRoot(r.node, r.bucket, r.path));
  const writable = await isWritable(abs);
  const description =
    layout.kind === 'root'
      ? `one root (bucket ${roots[0].bucket}) with ${plural(reports[0].streams.length, 'stream')} and ${plural(reports[0].totals.chunks, 'chunk')}`
      : `a store_dir with ${plural(roots.length, 'bucket root')}${roots.length ? ` (${roots.map((r) => r.bucket).join(', ')})` : ''}`;
  return { roots: reports, source: { kind: layout.kind, path: given, readOnly: writable !== true, description } };
}

async function scanArchive(abs: string, given: string, gzip: boolean, opts: ScanStoreOptions, problems: StoreProblem[]): Promise<{ roots: RootReport[]; source: StoreSourceInfo }> {
  const read = await readArchive(abs, gzip, { records: opts.records ?? true, signal: opts.signal, onProgress: opts.onProgress, problems });
  if (read.error) {
    if (read.entries === 0) throw new StoreError(`${abs}: unreadable archive (${read.error})`, abs);
    problems.push({ severity: 'error', path: abs, message: `archive is truncated or corrupt after ${read.entries} entries (${read.error}); the report shows what could be read` });
  }
  const layout = detectLayout(read.top, true);
  if (!layout) throw new StoreError(`${abs}: the archive holds no Fluent Bit store (no stream folders and no bucket roots)`, abs);
  const inside = layout.prefix.join('/');
  const base = `${abs}!/${inside}`;
  if (layout.kind === 'root' && layout.prefix.length === 0) layout.node.name = path.basename(abs).replace(/\.(tar\.gz|tgz|tar)$/i, '');
  const roots = rootsOf(layout.kind, layout.node, layout.kind === 'root' ? base : base.replace(/\/$/, ''), problems);
  const reports = roots.map((r) => classifyRoot(r.node, r.bucket, r.path));
  const what = layout.kind === 'root' ? `one root (bucket ${roots[0].bucket})` : `a store_dir with ${plural(roots.length, 'bucket root')}${roots.length ? ` (${roots.map((r) => r.bucket).join(', ')})` : ''}`;
  return {
    roots: reports,
    source: {
      kind: 'archive',
      path: given,
      archive: { gzip, entries: read.entries, layout: layout.kind },
      readOnly: true,
      description: `a ${gzip ? '.tar.gz' : '.tar'} snapshot of ${what}${inside ? ` under ${inside}/` : ''}, read in place`,
    },
  };
}

/** Scan a store. Throws {@link StoreError} when the path is missing, unreadable or not a store. */
export async function scanStore(p: string, opts: ScanStoreOptions = {}): Promise<StoreReport> {
  const abs = path.resolve(p);
  let st: fs.Stats;
  try {
    st = await fs.promises.stat(abs);
  } catch (err) {
    throw new StoreError(describeFsError(err, abs), abs, (err as NodeJS.ErrnoException).code);
  }
  const problems: StoreProblem[] = [];
  let result: { roots: RootReport[]; source: StoreSourceInfo };
  if (st.isDirectory()) result = await scanDirectory(abs, p, opts, problems);
  else if (st.isFile()) {
    let head: Buffer;
    try {
      const fd = await fs.promises.open(abs, 'r');
      try {
        head = Buffer.alloc(512);
        const { bytesRead } = await fd.read(head, 0, 512, 0);
        head = head.subarray(0, bytesRead);
      } finally {
        await fd.close();
      }
    } catch (err) {
      throw new StoreError(describeFsError(err, abs), abs, (err as NodeJS.ErrnoException).code);
    }
    const kind = sniffArchive(head);
    if (!kind) throw new StoreError(`${abs}: not a store — a regular file that is neither a directory nor a .tar/.tar.gz archive`, abs);
    result = await scanArchive(abs, p, kind.gzip, opts, problems);
  } else throw new StoreError(`${abs}: not a directory or an archive file`, abs);
  return { source: result.source, roots: result.roots, scannedAt: new Date().toISOString(), problems };
}
