/**
 * Watches the `$INDEX` files of roots for the guard (docs/fluent-bit-store-format.md#the-index-file,
 * #graceful-stop): inotify through `fs.watch` on the root and on `sequence/index_metadata/`, plus a
 * periodic stat as a fallback (a missed event, a folder that came back, a file system without
 * inotify).
 *
 * Fluent Bit rewrites `seq_index_<id>` in place (`fopen("w+")`): a read can see it empty for a
 * moment — such a read is never reported. Its graceful stop deletes `sequence/` a few
 * milliseconds after the exit flush's last write (measured with 5.0.9: 6 ms), too soon to rely on
 * reading the path. So while Fluent Bit may be running the watcher *holds* a read-only descriptor
 * on each index file (`hold`): the writes land in that inode, and after the unlink the descriptor
 * still reads the last value written — the final one. `release` closes them (a descriptor under
 * the root makes this process "use" the store for other tools' process checks).
 *
 * Files are read as hostile input: regular files only (O_NOFOLLOW|O_NONBLOCK, fstat), at most
 * 64 KiB, parsed with the scanner's own fscanf rule.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openRegularSync } from '../store/safe-read';
import { parseSeqIndex, SEQ_INDEX_MAX } from '../store/seq-index';

export type SeqEvent =
  /** A value read from an index file (never an empty or unparsable read). */
  | { kind: 'value'; rootPath: string; id: number; value: number; at: number }
  /** `sequence/index_metadata/` (or the file) is gone; `values`: what each held descriptor read after the unlink. */
  | { kind: 'deleted'; rootPath: string; values: { id: number; value: number | null; held: boolean }[]; at: number }
  /** Something in the root changed besides the index files (a stream folder came or went: Fluent Bit started or stopped). */
  | { kind: 'activity'; rootPath: string; name: string; at: number };

interface Held {
  fd: number;
  ino: number;
}

interface SeqRoot {
  rootPath: string;
  indexDir: string;
  rootWatcher: fs.FSWatcher | null;
  /** On `sequence/` while it exists without `index_metadata/` (being created: a restore, a start). */
  sequenceWatcher: fs.FSWatcher | null;
  indexWatcher: fs.FSWatcher | null;
  held: Map<number, Held>;
  /** stat signature per id (ino:size:mtime) of the last read. */
  seen: Map<number, string>;
  indexPresent: boolean;
  wantHold: boolean;
}

const FILE = /^seq_index_(\d{1,9})$/;

function readValue(buf: Buffer, n: number): number | null {
  if (n === 0) return null;
  const p = parseSeqIndex(buf.subarray(0, n));
  if (p.valueText === null) return null;
  const v = Number(p.valueText);
  return Number.isSafeInteger(v) ? v : null;
}

export class SeqWatcher {
  private readonly roots = new Map<string, SeqRoot>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly buf = Buffer.alloc(SEQ_INDEX_MAX);

  constructor(
    private readonly onEvent: (e: SeqEvent) => void,
    private readonly opts: { pollMs?: number } = {},
  ) {}

  add(rootPath: string): void {
    if (this.roots.has(rootPath)) return;
    const w: SeqRoot = {
      rootPath,
      indexDir: path.join(rootPath, 'sequence', 'index_metadata'),
      rootWatcher: null,
      sequenceWatcher: null,
      indexWatcher: null,
      held: new Map(),
      seen: new Map(),
      indexPresent: false,
      wantHold: false,
    };
    this.roots.set(rootPath, w);
    this.check(w);
    if (!this.timer) {
      this.timer = setInterval(() => {
        for (const r of this.roots.values()) this.check(r);
      }, this.opts.pollMs ?? 1000);
      this.timer.unref();
    }
  }

  /** Hold a descriptor on every index file of the root (Fluent Bit may be running). */
  hold(rootPath: string): void {
    const w = this.roots.get(rootPath);
    if (!w) return;
    w.wantHold = true;
    for (const id of this.ids(w)) this.ensureHeld(w, id);
  }

  /** Close the root's descriptors (no Fluent Bit uses the root). */
  release(rootPath: string): void {
    const w = this.roots.get(rootPath);
    if (!w) return;
    w.wantHold = false;
    for (const h of w.held.values()) fs.closeSync(h.fd);
    w.held.clear();
  }

  holding(rootPath: string): boolean {
    return (this.roots.get(rootPath)?.held.size ?? 0) > 0;
  }

  /** Re-check a root now (after our own write, or when told something changed). */
  check(w: SeqRoot | string): void {
    const r = typeof w === 'string' ? this.roots.get(w) : w;
    if (!r || this.closed) return;
    if (!r.rootWatcher)
      r.rootWatcher = this.watch(
        r.rootPath,
        (ev, name) => this.onRootEvent(r, ev, name),
        () => (r.rootWatcher = null),
      );
    const present = fs.existsSync(r.indexDir);
    if (!present) {
      if (r.indexPresent || r.held.size) this.deleted(r);
      r.indexPresent = false;
      // sequence/ made before index_metadata/ (mkdir -p): the root's watch does not see the second
      // step, so watch sequence/ until it is there — else a deletion soon after goes unseen
      const sequenceDir = path.dirname(r.indexDir);
      if (!fs.existsSync(sequenceDir)) {
        r.sequenceWatcher?.close(); // a watch on a deleted folder sees nothing more
        r.sequenceWatcher = null;
      } else if (!r.sequenceWatcher)
        r.sequenceWatcher = this.watch(
          sequenceDir,
          () => this.check(r),
          () => (r.sequenceWatcher = null),
        );
      if (r.sequenceWatcher && fs.existsSync(r.indexDir)) this.check(r); // created meanwhile
      return;
    }
    r.indexPresent = true;
    r.sequenceWatcher?.close();
    r.sequenceWatcher = null;
    if (!r.indexWatcher) {
      r.indexWatcher = this.watch(
        r.indexDir,
        (ev, name) => this.onIndexEvent(r, ev, name),
        () => (r.indexWatcher = null),
      );
    }
    for (const id of this.ids(r)) this.read(r, id, false);
    // a file we saw that is gone, with sequence/ still there
    for (const id of [...r.seen.keys()]) if (!fs.existsSync(path.join(r.indexDir, `seq_index_${id}`))) this.fileGone(r, id);
  }

  private ids(w: SeqRoot): number[] {
    try {
      return fs
        .readdirSync(w.indexDir)
        .map((n) => FILE.exec(n))
        .filter((m): m is RegExpExecArray => !!m)
        .map((m) => Number(m[1]));
    } catch {
      return [];
    }
  }

  private watch(dir: string, fn: (ev: string, name: string | null) => void, onGone: () => void): fs.FSWatcher | null {
    try {
      const watcher = fs.watch(dir, { persistent: false }, (ev, name) => fn(ev, name === null ? null : String(name)));
      watcher.on('error', () => {
        watcher.close();
        onGone();
      });
      return watcher;
    } catch {
      return null;
    }
  }

  private onRootEvent(w: SeqRoot, ev: string, name: string | null): void {
    if (name === 'sequence') {
      this.check(w);
      return;
    }
    if (name && !name.startsWith('.')) {
      // a new stream folder: a Fluent Bit is starting on this root
      if (ev === 'rename' && w.wantHold === false && fs.existsSync(path.join(w.rootPath, name))) this.hold(w.rootPath);
      this.onEvent({ kind: 'activity', rootPath: w.rootPath, name, at: Date.now() });
    }
  }

  private onIndexEvent(w: SeqRoot, ev: string, name: string | null): void {
    const m = name ? FILE.exec(name) : null;
    if (!m) {
      this.check(w);
      return;
    }
    const id = Number(m[1]);
    // Fluent Bit writes in place ("change"): it is running, hold the file from now on.
    if (ev === 'change') w.wantHold = true;
    this.read(w, id, true);
    if (!fs.existsSync(w.indexDir)) this.check(w);
  }

  private ensureHeld(w: SeqRoot, id: number): void {
    const file = path.join(w.indexDir, `seq_index_${id}`);
    const h = w.held.get(id);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(file);
    } catch {
      return;
    }
    if (h && h.ino === st.ino) return;
    try {
      const { fd, stat } = openRegularSync(file);
      if (h) fs.closeSync(h.fd);
      w.held.set(id, { fd, ino: stat.ino });
    } catch {
      /* not a regular file (never held), or gone meanwhile */
    }
  }

  private read(w: SeqRoot, id: number, fromEvent: boolean): void {
    const file = path.join(w.indexDir, `seq_index_${id}`);
    if (w.wantHold) this.ensureHeld(w, id);
    let fd: number;
    let sig: string;
    try {
      const o = openRegularSync(file);
      fd = o.fd;
      sig = `${o.stat.ino}:${o.stat.size}:${o.stat.mtimeMs}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && w.seen.has(id)) this.fileGone(w, id);
      return;
    }
    try {
      if (!fromEvent && w.seen.get(id) === sig) return;
      const n = fs.readSync(fd, this.buf, 0, this.buf.length, 0);
      const value = readValue(this.buf, n);
      if (value === null) return; // empty for a moment (fopen "w+"), or not a number: never recorded
      w.seen.set(id, sig);
      this.onEvent({ kind: 'value', rootPath: w.rootPath, id, value, at: Date.now() });
    } finally {
      fs.closeSync(fd);
    }
  }

  private readHeld(w: SeqRoot, id: number): number | null {
    const h = w.held.get(id);
    if (!h) return null;
    try {
      return readValue(this.buf, fs.readSync(h.fd, this.buf, 0, this.buf.length, 0));
    } finally {
      fs.closeSync(h.fd);
      w.held.delete(id);
    }
  }

  private fileGone(w: SeqRoot, id: number): void {
    const held = w.held.has(id);
    const value = this.readHeld(w, id);
    w.seen.delete(id);
    this.onEvent({ kind: 'deleted', rootPath: w.rootPath, values: [{ id, value, held }], at: Date.now() });
  }

  private deleted(w: SeqRoot): void {
    w.indexWatcher?.close();
    w.indexWatcher = null;
    const ids = new Set([...w.seen.keys(), ...w.held.keys()]);
    const values = [...ids].map((id) => {
      const held = w.held.has(id);
      return { id, value: this.readHeld(w, id), held };
    });
    w.seen.clear();
    this.onEvent({ kind: 'deleted', rootPath: w.rootPath, values, at: Date.now() });
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    for (const w of this.roots.values()) {
      w.rootWatcher?.close();
      w.sequenceWatcher?.close();
      w.indexWatcher?.close();
      this.release(w.rootPath);
    }
    this.roots.clear();
  }
}
