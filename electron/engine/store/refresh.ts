/**
 * After a write: bring one root's report up to date by reading only what the write changed — the
 * stream folders it touched are listed again, the files it wrote are read (with the scanner's own
 * chunk and seq_index parsers), every other chunk keeps its entry. No door rescans the store.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChunkInfo, RootReport, SeqIndexInfo, StoreProblem, StoreUpdate, StreamInfo } from '../../../shared/model';
import { MULTIPART_CAP, SEQ_CAP } from './archive-source';
import { chunkInfoOf, StringPool } from './chunk-info';
import { classifyStream, finishRoot, ignoredReason, streamKind } from './classify';
import { isWritable, listNode } from './dir-source';
import { describeFsError } from './errors';
import { analyzeFileSync, isoFromMs } from './io';
import { safeReadFile } from './safe-read';
import { seqFailureOf, seqIndexInfo } from './seq-index';
import { newDir, OWN_DIR } from './tree';

export interface RefreshOptions {
  /** seq_index files the write already read back (absolute path → what the scanner reads). */
  known?: Map<string, SeqIndexInfo>;
}

function relParts(rootPath: string, p: string): string[] | null {
  const rel = path.relative(rootPath, p);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep);
}

async function exists(p: string): Promise<boolean> {
  return fs.promises.lstat(p).then(
    () => true,
    () => false,
  );
}

/** List one stream folder again; re-read the `changed` file names, keep the entries of the others. */
async function refreshStream(rootPath: string, old: StreamInfo | undefined, name: string, changed: Set<string>, problems: StoreProblem[]): Promise<StreamInfo> {
  const dir = path.join(rootPath, name);
  const node = newDir(name, { fsPath: dir });
  await listNode(node, `${rootPath}/${name}`, problems, true);
  node.writable = await isWritable(dir);
  const kind = streamKind(name);
  const before = new Map((old?.chunks ?? []).map((c) => [c.name, c] as const));
  const pool = new StringPool();
  const buf = Buffer.allocUnsafe(1024 * 1024);
  const infos: ChunkInfo[] = [];
  for (const file of node.files ?? []) {
    const prev = before.get(file);
    if (prev && !changed.has(file)) {
      infos.push(prev);
      continue;
    }
    try {
      const keepContent = kind === 'multipart' ? MULTIPART_CAP : 0;
      const r = analyzeFileSync(path.join(dir, file), { records: true, keepContent }, buf);
      infos.push(chunkInfoOf(file, name, kind, { size: r.size, mtime: r.mtime, analysis: r.analysis }, `${name}/`, pool));
    } catch (err) {
      const readError = describeFsError(err, `${rootPath}/${name}/${file}`);
      infos.push(chunkInfoOf(file, name, kind, { size: 0, mtime: null, readError }));
      problems.push({ severity: 'error', path: `${rootPath}/${name}/${file}`, message: readError });
    }
  }
  node.files = undefined;
  return classifyStream(node, pool, infos);
}

/** The root's seq_index files now: re-read the changed ones (or take what the write read back). */
async function refreshSeqIndex(
  rootPath: string,
  old: readonly SeqIndexInfo[],
  changed: Set<string>,
  opts: RefreshOptions,
): Promise<{ list: readonly SeqIndexInfo[]; dir: boolean }> {
  const dir = path.join(rootPath, 'sequence', 'index_metadata');
  let names: string[];
  try {
    names = (await fs.promises.readdir(dir, { withFileTypes: true }))
      .filter((d) => !d.name.startsWith('.') && d.name.startsWith('seq_index_'))
      .map((d) => d.name);
  } catch {
    return { list: [], dir: false };
  }
  const before = new Map(old.map((s) => [s.fileName, s] as const));
  const list: SeqIndexInfo[] = [];
  for (const name of names.sort()) {
    const abs = path.join(dir, name);
    const prev = before.get(name);
    if (prev && !changed.has(name)) list.push(prev);
    else if (opts.known?.has(abs)) list.push(opts.known.get(abs)!);
    else {
      // read as the scanner reads it: regular files only, never followed, at most 64 KiB
      const rel = `sequence/index_metadata/${name}`;
      const shown = `${rootPath}/${rel}`;
      try {
        const r = await safeReadFile(abs, { maxBytes: SEQ_CAP, head: true, shown });
        const failure = r.truncated ? seqFailureOf(shown, { tooLarge: r.size }) : undefined;
        list.push(seqIndexInfo(name, rel, r.bytes, r.size, isoFromMs(r.stat.mtime.getTime()), failure));
      } catch (err) {
        list.push(seqIndexInfo(name, rel, Buffer.alloc(0), 0, null, seqFailureOf(shown, { error: err })));
      }
    }
  }
  return { list, dir: true };
}

/** The root's own non-stream entries (a write may have created `.store-doctor/`). */
async function rootIgnored(old: RootReport): Promise<RootReport['ignored']> {
  if (old.ignored.some((e) => e.path === OWN_DIR) || !(await exists(path.join(old.path, OWN_DIR)))) return old.ignored;
  const entry = ignoredReason(newDir(OWN_DIR), 'root');
  return [...old.ignored, { path: OWN_DIR, type: 'directory' as const, reason: entry }].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The root after a write that changed `changedPaths` (absolute paths of files and folders under
 * it), and the update a door merges into its copy of the report.
 */
export async function refreshRoot(
  old: RootReport,
  changedPaths: string[],
  opts: RefreshOptions = {},
): Promise<{ root: RootReport; update: StoreUpdate; problems: StoreProblem[] }> {
  const rootPath = old.path;
  const byStream = new Map<string, Set<string>>();
  const seqFiles = new Set<string>();
  for (const p of changedPaths) {
    const parts = relParts(rootPath, p);
    if (!parts || parts[0].startsWith('.')) continue;
    if (parts[0] === 'sequence' && parts[1] === 'index_metadata') {
      if (parts[2]) seqFiles.add(parts[2]);
      if (!byStream.has('sequence')) byStream.set('sequence', new Set());
      continue;
    }
    if (!byStream.has(parts[0])) byStream.set(parts[0], new Set());
    if (parts.length === 2) byStream.get(parts[0])!.add(parts[1]);
  }
  const problems: StoreProblem[] = [];
  const changedStreams: StreamInfo[] = [];
  const removedStreams: string[] = [];
  const streams = new Map(old.streams.map((s) => [s.name, s] as const));
  for (const [name, files] of byStream) {
    if (!(await exists(path.join(rootPath, name)))) {
      if (streams.delete(name)) removedStreams.push(name);
      continue;
    }
    const fresh = await refreshStream(rootPath, streams.get(name), name, files, problems);
    streams.set(name, fresh);
    changedStreams.push(fresh);
  }
  const seq = byStream.has('sequence')
    ? await refreshSeqIndex(rootPath, old.seqIndex, seqFiles, opts)
    : { list: old.seqIndex, dir: old.sequence.indexMetadataPresent };
  const ordered = [...streams.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const root = finishRoot(old.bucket, rootPath, ordered, seq.list, await rootIgnored(old), seq.dir);
  return {
    root,
    update: { rootPath, streams: changedStreams, removedStreams, seqIndex: root.seqIndex, sequence: root.sequence, totals: root.totals },
    problems,
  };
}
