/**
 * The app's live watch (`liveWatch`; not repair's before/after snapshot of a write, also once
 * called watchStore): watch a live store for changes (Fluent Bit writing, another tool, our own repairs) with
 * chokidar. Changes are batched (debounced) into one callback with the changed paths. Store
 * Doctor's own `.store-doctor/` folder and dot temp files are ignored. For an archive, the archive
 * file itself is watched.
 */
import * as path from 'node:path';
import { watch } from 'chokidar';

export interface StoreWatcher {
  close(): Promise<void>;
}

export function liveWatch(storePath: string, onChange: (paths: string[]) => void, opts: { debounceMs?: number } = {}): StoreWatcher {
  const abs = path.resolve(storePath);
  const debounce = opts.debounceMs ?? 200;
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const ignored = (p: string) => {
    const rel = path.relative(abs, p);
    if (!rel || rel.startsWith('..')) return false;
    return rel.split(path.sep).some((seg) => seg.startsWith('.'));
  };
  const watcher = watch(abs, { ignoreInitial: true, ignored, depth: 4, followSymlinks: false, persistent: true });
  const flush = () => {
    timer = null;
    if (closed || pending.size === 0) return;
    const paths = [...pending].sort();
    pending.clear();
    onChange(paths);
  };
  watcher.on('all', (_event, p) => {
    if (closed) return;
    pending.add(p);
    if (!timer) timer = setTimeout(flush, debounce);
  });
  watcher.on('error', () => {
    /* a vanished or unreadable folder: the next scan reports it */
  });
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await watcher.close();
    },
  };
}
