/**
 * Which parts of a root changed, for the guard's incremental report: `fs.watch` (inotify) on the
 * root and on each of its stream folders — one watch per folder, not per chunk (chokidar watches
 * every file on its own, which on a 100k-chunk store means 100k inotify watches) — plus a periodic
 * listing of the root as a fallback. Changed paths are batched (debounced) into one callback; the
 * guard then re-reads only those (store.refresh → store/refresh.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Watched {
  root: string;
  rootWatcher: fs.FSWatcher | null;
  streams: Map<string, fs.FSWatcher>;
  names: string;
}

export class TreeWatcher {
  private readonly roots = new Map<string, Watched>();
  private readonly pending = new Set<string>();
  private flushTimer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly onChange: (paths: string[]) => void,
    private readonly opts: { debounceMs?: number; pollMs?: number } = {},
  ) {}

  add(root: string): void {
    if (this.roots.has(root)) return;
    const w: Watched = { root, rootWatcher: null, streams: new Map(), names: '' };
    this.roots.set(root, w);
    this.arm(w, false);
    if (!this.poll) {
      this.poll = setInterval(() => {
        for (const r of this.roots.values()) this.arm(r, true);
      }, this.opts.pollMs ?? 5000);
      this.poll.unref();
    }
  }

  /** Report a path as changed (e.g. an index file the seq watcher read). */
  touch(p: string): void {
    this.mark(p);
  }

  private mark(p: string): void {
    if (this.closed) return;
    this.pending.add(p);
    if (!this.flushTimer) this.flushTimer = setTimeout(() => this.flush(), this.opts.debounceMs ?? 1000);
  }

  private flush(): void {
    this.flushTimer = null;
    if (this.closed || !this.pending.size) return;
    const paths = [...this.pending].sort();
    this.pending.clear();
    this.onChange(paths);
  }

  private watch(dir: string, fn: (name: string | null) => void, gone: () => void): fs.FSWatcher | null {
    try {
      const w = fs.watch(dir, { persistent: false }, (_ev, name) => fn(name === null ? null : String(name)));
      w.on('error', () => {
        w.close();
        gone();
      });
      return w;
    } catch {
      return null;
    }
  }

  /** (Re)arm the root's watchers; from the poll, a changed listing counts as a change. */
  private arm(w: Watched, fromPoll: boolean): void {
    if (this.closed) return;
    if (!w.rootWatcher)
      w.rootWatcher = this.watch(
        w.root,
        (name) => {
          if (!name || name.startsWith('.')) return;
          this.mark(path.join(w.root, name));
          this.arm(w, false);
        },
        () => (w.rootWatcher = null),
      );
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(w.root, { withFileTypes: true });
    } catch {
      /* the root is not there (yet) */
    }
    const dirs = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
    const names = dirs.sort().join('/');
    if (fromPoll && names !== w.names) for (const d of dirs) this.mark(path.join(w.root, d));
    w.names = names;
    for (const d of dirs) {
      if (w.streams.has(d)) continue;
      const dir = path.join(w.root, d);
      const sw = this.watch(
        dir,
        (name) => {
          if (name && !name.startsWith('.')) this.mark(path.join(dir, name));
          else this.mark(dir);
        },
        () => w.streams.delete(d),
      );
      if (sw) w.streams.set(d, sw);
    }
    for (const [d, sw] of w.streams)
      if (!dirs.includes(d)) {
        sw.close();
        w.streams.delete(d);
        this.mark(path.join(w.root, d));
      }
  }

  close(): void {
    this.closed = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.poll) clearInterval(this.poll);
    for (const w of this.roots.values()) {
      w.rootWatcher?.close();
      for (const sw of w.streams.values()) sw.close();
    }
    this.roots.clear();
  }
}
