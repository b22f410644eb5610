/**
 * Watch a live store for changes (Fluent Bit writing, another tool, our own repairs): `fs.watch`
 * (inotify) on the store folder and on every folder below it down to {@link DEPTH} levels — one
 * watch per folder, never one per chunk file (a folder's watch reports its files' creation,
 * change and removal). Chokidar, used before, watched and lstat'ed every file on its own: on a
 * 100,000-chunk store that was 100,000 inotify watches, ~0.5 GB and seconds of CPU right after
 * the store was opened. Changes are batched (debounced) into one callback with the changed paths.
 * Dot entries (Store Doctor's own `.store-doctor/`, dot temp files) are ignored; symbolic links
 * are not followed. A folder that appears is watched and its entries are reported.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface StoreWatcher {
  close(): Promise<void>;
}

/** Folder levels below the store that are watched (store_dir → root → stream, with room for a support bundle's prefix). */
const DEPTH = 4;

export function watchStore(storePath: string, onChange: (paths: string[]) => void, opts: { debounceMs?: number } = {}): StoreWatcher {
  const abs = path.resolve(storePath);
  const debounce = opts.debounceMs ?? 200;
  const pending = new Set<string>();
  const watchers = new Map<string, fs.FSWatcher>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const flush = () => {
    timer = null;
    if (closed || pending.size === 0) return;
    const paths = [...pending].sort();
    pending.clear();
    onChange(paths);
  };
  const mark = (p: string) => {
    if (closed) return;
    pending.add(p);
    if (!timer) timer = setTimeout(flush, debounce);
  };
  const unwatch = (dir: string) => {
    for (const [d, w] of watchers) {
      if (d === dir || d.startsWith(dir + path.sep)) {
        w.close();
        watchers.delete(d);
      }
    }
  };
  /** Watch `dir` (at `depth` below the store) and the folders in it; `report` marks its entries as changed (a new folder). */
  const watchDir = (dir: string, depth: number, report: boolean) => {
    if (closed || watchers.has(dir)) return;
    let w: fs.FSWatcher;
    try {
      w = fs.watch(dir, { persistent: true }, (event, name) => onEvent(dir, depth, event, name === null ? null : String(name)));
    } catch {
      return; // gone or unreadable: the next scan reports it
    }
    w.on('error', () => unwatch(dir));
    watchers.set(dir, w);
    if (depth >= DEPTH && !report) return;
    const list = () =>
      fs.readdir(dir, { withFileTypes: true }, (err, entries) => {
        if (err || closed) return;
        for (const e of entries) {
          if (e.name.startsWith('.') || (!report && !e.isDirectory())) continue;
          const p = path.join(dir, e.name);
          if (report) mark(p);
          if (depth < DEPTH && e.isDirectory()) watchDir(p, depth + 1, report);
        }
      });
    if (report || depth === 0) return list();
    // A folder's link count is 2 + its subfolders where the file system keeps it so (ext4, xfs,
    // tmpfs; btrfs says 1): a stream folder of 5,000 chunks with 2 links has no folder to watch,
    // and is not listed.
    fs.stat(dir, (err, st) => {
      if (!err && !closed && st.nlink !== 2) list();
    });
  };
  const onEvent = (dir: string, depth: number, event: string, name: string | null) => {
    if (closed) return;
    if (name === null) return mark(dir);
    if (name.startsWith('.')) return;
    const p = path.join(dir, name);
    mark(p);
    // A folder appeared (watch it) or went away (stop watching it); files need nothing more.
    if (event !== 'rename') return;
    fs.lstat(p, (err, st) => {
      if (closed) return;
      unwatch(p); // a folder removed, or removed and made again: its old watch is stale
      if (!err && st.isDirectory() && depth < DEPTH) watchDir(p, depth + 1, true);
    });
  };

  watchDir(abs, 0, false);
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
