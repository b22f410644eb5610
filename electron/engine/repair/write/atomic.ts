/**
 * The one atomic-write primitive every repair goes through (the PostgreSQL/etcd durable-rename recipe; docs/fluent-bit-store-format.md#the-index-file):
 * exclusive-create a dot-named temp file in the target's directory, write, fsync, keep the
 * target's mode and owner, rename over the target, fsync the directory, read back and compare.
 * Every step goes through the root's anchor (anchor.ts): the target's folder is held open by
 * descriptor, so a folder swapped for a symlink after its check never receives the write.
 * The temp file is unlinked on any error. A process killed at any point leaves the target holding
 * either its old bytes or the new ones, never an empty or torn file (a stray dot-temp at worst,
 * which Fluent Bit never registers and the next write sweeps).
 */
import { promises as fsp, constants as fsc } from 'node:fs';
import { Anchor, at, canChown, lstatIn, makeDirIn, syncHeld, type HeldDir } from './anchor';
import { RefusedError } from '../outcome';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

export interface AtomicWriteHooks {
  /** Test hook: awaited after the temp file is written + fsynced, before the rename. */
  beforeRename?: () => void | Promise<void>;
  /** Test hook: awaited after the rename, before the directory fsync. */
  afterRename?: () => void | Promise<void>;
}

export interface AtomicWriteOptions {
  /** Mode for a new file (an existing target keeps its own). Default 0o644. */
  mode?: number;
  /** Owner for a new file (an existing target keeps its own). Applied only when we may chown. */
  owner?: { uid: number; gid: number } | null;
  /** Undo: give the file exactly this mode and owner, whatever the current target has. */
  exact?: { mode: number; uid?: number; gid?: number } | null;
  /** Also return the bytes the target held before (costs one more read). */
  readPrevious?: boolean;
  hooks?: AtomicWriteHooks;
}

export interface AtomicWriteResult {
  path: string;
  /** Bytes the target held before (with `readPrevious`), or null when it did not exist or was not read. */
  previous: Buffer | null;
  /** The bytes read back after the rename (equal to what was written). */
  written: Buffer;
  mode: number;
  uid: number;
  gid: number;
  warnings: string[];
}

const TEMP_MARK = '.sd-tmp-';

/** A temp file name this module makes (`.<name>.sd-tmp-<pid>-<hex>`): never part of the store. */
export function isOwnTemp(name: string): boolean {
  return name.startsWith('.') && /\.sd-tmp-\d+-[0-9a-f]+$/.test(name);
}

export function tempNameFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** Run `fn` with the anchor of `root` (the one pinned by the running action, or a fresh one). */
export async function withRoot<T>(root: string, fn: (a: Anchor) => Promise<T>): Promise<T> {
  const a = await Anchor.open(root);
  try {
    return await fn(a);
  } finally {
    await a.close();
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** fsync the folder `dir` inside `root` so a rename/create/unlink in it survives power loss. */
export async function fsyncDir(root: string, dir: string): Promise<void> {
  await withRoot(root, (a) =>
    a.inDir(dir, async (d) => {
      if (d) await syncHeld(d);
    }),
  );
}

async function sweepIn(d: HeldDir, match: (name: string) => number | null): Promise<string[]> {
  const removed: string[] = [];
  const names = await fsp.readdir(d.fd >= 0 ? `/proc/self/fd/${d.fd}` : d.real).catch(() => [] as string[]);
  for (const name of names) {
    const pid = match(name);
    if (pid === null || !Number.isInteger(pid) || pid === process.pid || pidAlive(pid)) continue;
    await fsp.unlink(at(d, name)).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}

function staleTempMatcher(target: string): (name: string) => number | null {
  const prefix = `.${path.basename(target)}${TEMP_MARK}`;
  return (name) => (name.startsWith(prefix) ? Number(name.slice(prefix.length).split('-')[0]) : null);
}

/** Remove temp files of this target left by killed writers (their pid no longer exists). */
export async function sweepStaleTemps(root: string, target: string): Promise<string[]> {
  return withRoot(root, (a) => a.inDir(path.dirname(target), async (d) => (d ? sweepIn(d, staleTempMatcher(target)) : [])));
}

/** Remove every temp file of this module in `dir` whose writer is dead (before removing a folder we created). */
export async function sweepOwnTemps(root: string, dir: string): Promise<string[]> {
  const match = (name: string) => {
    const m = isOwnTemp(name) ? /\.sd-tmp-(\d+)-[0-9a-f]+$/.exec(name) : null;
    return m ? Number(m[1]) : null;
  };
  return withRoot(root, (a) => a.inDir(dir, async (d) => (d ? sweepIn(d, match) : [])));
}

const READ_FLAGS = fsc.O_RDONLY | (fsc.O_NOFOLLOW ?? 0) | (fsc.O_NONBLOCK ?? 0);
const TEMP_FLAGS = fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | (fsc.O_NOFOLLOW ?? 0);

async function readIn(d: HeldDir, name: string): Promise<Buffer> {
  const fh = await fsp.open(at(d, name), READ_FLAGS);
  try {
    if (!(await fh.stat()).isFile()) throw new Error(`${path.join(d.shown, name)}: not a regular file`);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/**
 * Replace (or create) `target` (inside `root`) with `data` atomically. Throws (after removing its
 * temp file) when any step fails or the read-back differs. Refuses symlinks and non-regular targets.
 */
export async function atomicWriteFile(root: string, target: string, data: Buffer | string, opts: AtomicWriteOptions = {}): Promise<AtomicWriteResult> {
  return withRoot(root, (a) => a.inParent(target, (d, name) => writeIn(d, name, target, data, opts)));
}

async function writeIn(d: HeldDir, name: string, target: string, data: Buffer | string, opts: AtomicWriteOptions): Promise<AtomicWriteResult> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const warnings: string[] = [];
  const st = await lstatIn(d, name);
  if (st && !st.isFile()) throw new Error(`${target}: not a regular file (${st.isSymbolicLink() ? 'symlink' : 'special'}); refusing to replace it`);
  const previous = st && opts.readPrevious ? await readIn(d, name) : null;
  const ex = opts.exact ?? null;
  // Never setuid, setgid or sticky: not from an undo record, not kept from a planted target.
  const mode = (ex ? ex.mode : st ? st.mode : (opts.mode ?? 0o644)) & 0o777;
  const uid = ex?.uid ?? (st ? st.uid : (opts.owner?.uid ?? process.getuid?.() ?? 0));
  const gid = ex?.gid ?? (st ? st.gid : (opts.owner?.gid ?? process.getgid?.() ?? 0));

  await sweepIn(d, staleTempMatcher(target));
  const tmp = path.basename(tempNameFor(target));
  let fh: fsp.FileHandle | null = null;
  let created = false;
  let renamed = false;
  try {
    fh = await fsp.open(at(d, tmp), TEMP_FLAGS, 0o600);
    created = true;
    let off = 0;
    while (off < bytes.length) {
      const { bytesWritten } = await fh.write(bytes, off, bytes.length - off, off);
      if (bytesWritten <= 0) throw new Error(`${tmp}: short write`);
      off += bytesWritten;
    }
    await fh.chmod(mode);
    const myUid = process.getuid?.() ?? uid;
    const myGid = process.getgid?.() ?? gid;
    if (uid !== myUid || gid !== myGid) {
      if (canChown()) await fh.chown(uid, gid);
      else warnings.push(`${target}: could not keep owner ${uid}:${gid} (not running as root); the file is now owned by ${myUid}:${myGid}`);
    }
    await fh.sync();
    await fh.close();
    fh = null;
    await opts.hooks?.beforeRename?.();
    await fsp.rename(at(d, tmp), at(d, name));
    renamed = true;
    await opts.hooks?.afterRename?.();
    await syncHeld(d);
  } catch (err) {
    await fh?.close().catch(() => undefined);
    if (created && !renamed) await fsp.unlink(at(d, tmp)).catch(() => undefined);
    throw err;
  }
  const back = await readIn(d, name);
  if (!back.equals(bytes)) throw new Error(`${target}: read-back differs from what was written (${back.length} vs ${bytes.length} bytes)`);
  return { path: target, previous, written: back, mode, uid, gid, warnings };
}

/** Atomically remove a file (unlink + directory fsync). Missing is fine. */
export async function durableUnlink(root: string, p: string): Promise<boolean> {
  return withRoot(root, async (a) => {
    try {
      return await a.inParent(p, async (d, name) => {
        await fsp.unlink(at(d, name));
        await syncHeld(d);
        return true;
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  });
}

/** Remove the empty folder `p` (rmdir + fsync of its parent); errors (ENOENT, ENOTEMPTY) as rmdir gives them. */
export async function removeDir(root: string, p: string): Promise<void> {
  await withRoot(root, (a) =>
    a.inParent(p, async (d, name) => {
      await fsp.rmdir(at(d, name));
      await syncHeld(d);
    }),
  );
}

/** Remove the folder `p` and everything in it, never following a link (a link is removed, not entered). */
export async function removeTree(root: string, p: string): Promise<void> {
  await withRoot(root, (a) => a.inParent(p, (d, name) => removeTreeIn(d, name)));
}

async function removeTreeIn(d: HeldDir, name: string): Promise<void> {
  const st = await lstatIn(d, name);
  if (!st) return;
  if (!st.isDirectory()) return fsp.unlink(at(d, name));
  const fh = await fsp.open(at(d, name), fsc.O_RDONLY | (fsc.O_DIRECTORY ?? 0) | (fsc.O_NOFOLLOW ?? 0));
  try {
    const sub: HeldDir =
      d.fd >= 0
        ? { fd: fh.fd, real: path.join(d.real, name), shown: path.join(d.shown, name) }
        : { fd: -1, real: path.join(d.real, name), shown: path.join(d.shown, name) };
    for (const n of await fsp.readdir(d.fd >= 0 ? `/proc/self/fd/${fh.fd}` : sub.real)) await removeTreeIn(sub, n);
  } finally {
    await fh.close();
  }
  await fsp.rmdir(at(d, name));
  await syncHeld(d);
}

/**
 * Create `dir` (inside `root`) and its missing parents (mode `mode`), each one fsynced into its
 * parent, so a power loss cannot drop a folder that later receives a moved file. Refuses a symlink
 * or non-directory. New folders are owned like the folder they are created in.
 */
export async function mkdirsDurable(root: string, dir: string, mode: number): Promise<void> {
  await withRoot(root, async (a) => {
    const parts = a.parts(dir);
    let cur = a.root;
    for (const name of parts) {
      const st = await lstatIn(cur, name);
      if (!st) {
        const pst = await fsp.stat(cur.fd >= 0 ? `/proc/self/fd/${cur.fd}` : cur.real);
        await makeDirIn(cur, name, mode, { uid: pst.uid, gid: pst.gid });
      }
      const next = await openChild(a, cur, name);
      if (cur !== a.root) a.release(cur);
      cur = next;
    }
    if (cur !== a.root) a.release(cur);
  });
}

async function openChild(a: Anchor, cur: HeldDir, name: string): Promise<HeldDir> {
  const d = await a.dirFrom(cur, name);
  if (!d) throw Object.assign(new Error(`${path.join(cur.shown, name)}: vanished while it was being made (ENOENT)`), { code: 'ENOENT' });
  return d;
}

/** mkdir (inside `root`) with an exact mode (not reduced by the umask). Returns true when it created the directory. */
export async function mkdirExact(root: string, dir: string, mode: number, owner?: { uid: number; gid: number } | null): Promise<boolean> {
  return withRoot(root, async (a) => {
    try {
      return await a.inParent(dir, (d, name) => makeDirIn(d, name, mode, owner ?? null));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
        throw new Error(`${dir}: a parent (${path.dirname(dir)}) is missing or not a directory; refusing to write there`);
      throw err;
    }
  });
}

/**
 * Create `p` exclusively (O_CREAT|O_EXCL|O_NOFOLLOW) holding exactly `data`, fsynced; false when it
 * exists. On any failure (a full disk) the partial file is removed: nothing is left behind.
 */
export async function createExclusive(root: string, p: string, data: string | Buffer, mode = 0o600): Promise<boolean> {
  return withRoot(root, (a) =>
    a.inParent(p, async (d, name) => {
      let fh: fsp.FileHandle;
      try {
        fh = await fsp.open(at(d, name), TEMP_FLAGS, mode);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw err;
      }
      try {
        await writeAll(fh, typeof data === 'string' ? Buffer.from(data) : data);
        await fh.sync();
      } catch (err) {
        await fh.close().catch(() => undefined);
        await fsp.unlink(at(d, name)).catch(() => undefined);
        throw err;
      }
      await fh.close();
      return true;
    }),
  );
}

async function writeAll(fh: fsp.FileHandle, b: Buffer): Promise<void> {
  let off = 0;
  while (off < b.length) {
    const { bytesWritten } = await fh.write(b, off, b.length - off, off);
    if (bytesWritten <= 0) throw new Error('short write');
    off += bytesWritten;
  }
}

/** Names in the folder `dir` inside `root` (empty when it is missing). */
export async function listDir(root: string, dir: string): Promise<string[]> {
  return withRoot(root, (a) => a.inDir(dir, async (d) => (d ? fsp.readdir(d.fd >= 0 ? `/proc/self/fd/${d.fd}` : d.real) : [])));
}

/**
 * Open `p` inside `root` with `flags` (O_NOFOLLOW is always added) through its held parent folder:
 * for appending to the journal. The caller closes the handle.
 */
export async function openIn(root: string, p: string, flags: number, mode = 0o600): Promise<fsp.FileHandle> {
  return withRoot(root, (a) => a.inParent(p, (d, name) => fsp.open(at(d, name), flags | (fsc.O_NOFOLLOW ?? 0), mode)));
}

/**
 * A state folder outside any store (a shadow copy, the guard's state): its parents are made as
 * the user names them (`mkdir -p`, 0700), then it is the root its own writes are anchored to.
 */
export async function ensureStateDir(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await fsp.lstat(dir);
  if (!st.isDirectory()) throw new RefusedError([`${dir} is a symlink or not a directory; Store Doctor keeps its state only in a real folder`]);
}
