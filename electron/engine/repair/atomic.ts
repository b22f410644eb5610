/**
 * The one atomic-write primitive every repair goes through (the PostgreSQL/etcd durable-rename recipe; docs/fluent-bit-store-format.md#the-index-file):
 * exclusive-create a dot-named temp file in the target's directory, write, fsync, keep the
 * target's mode and owner, rename over the target, fsync the directory, read back and compare.
 * The temp file is unlinked on any error. A process killed at any point leaves the target holding
 * either its old bytes or the new ones, never an empty or torn file (a stray dot-temp at worst,
 * which Fluent Bit never registers and the next write sweeps).
 */
import { promises as fsp, constants as fsc } from 'node:fs';
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

/** fsync a directory so a rename/create/unlink in it survives power loss (best effort on Windows). */
export async function fsyncDir(dir: string): Promise<void> {
  let fh: fsp.FileHandle | null = null;
  try {
    fh = await fsp.open(dir, fsc.O_RDONLY);
    await fh.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (process.platform === 'win32' || code === 'EISDIR' || code === 'EPERM' || code === 'EINVAL') return;
    throw err;
  } finally {
    await fh?.close().catch(() => undefined);
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

/** Remove temp files of this target left by killed writers (their pid no longer exists). */
export async function sweepStaleTemps(target: string): Promise<string[]> {
  const dir = path.dirname(target);
  const prefix = `.${path.basename(target)}${TEMP_MARK}`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid === process.pid || pidAlive(pid)) continue;
    await fsp.unlink(path.join(dir, name)).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}

/** Remove every temp file of this module in `dir` whose writer is dead (before removing a folder we created). */
export async function sweepOwnTemps(dir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
    const m = isOwnTemp(name) ? /\.sd-tmp-(\d+)-[0-9a-f]+$/.exec(name) : null;
    if (!m || Number(m[1]) === process.pid || pidAlive(Number(m[1]))) continue;
    await fsp.unlink(path.join(dir, name)).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}

async function canChown(): Promise<boolean> {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/**
 * Replace (or create) `target` with `data` atomically. Throws (after removing its temp file) when
 * any step fails or the read-back differs. Refuses symlinks and non-regular targets.
 */
export async function atomicWriteFile(target: string, data: Buffer | string, opts: AtomicWriteOptions = {}): Promise<AtomicWriteResult> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const dir = path.dirname(target);
  const warnings: string[] = [];
  let st: import('node:fs').Stats | null = null;
  try {
    st = await fsp.lstat(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (st && !st.isFile()) throw new Error(`${target}: not a regular file (${st.isSymbolicLink() ? 'symlink' : 'special'}); refusing to replace it`);
  const previous = st && opts.readPrevious ? await fsp.readFile(target) : null;
  const ex = opts.exact ?? null;
  // Never setuid, setgid or sticky: not from an undo record, not kept from a planted target.
  const mode = (ex ? ex.mode : st ? st.mode : (opts.mode ?? 0o644)) & 0o777;
  const uid = ex?.uid ?? (st ? st.uid : (opts.owner?.uid ?? process.getuid?.() ?? 0));
  const gid = ex?.gid ?? (st ? st.gid : (opts.owner?.gid ?? process.getgid?.() ?? 0));

  await sweepStaleTemps(target);
  const tmp = tempNameFor(target);
  let fh: fsp.FileHandle | null = null;
  let renamed = false;
  try {
    fh = await fsp.open(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 0o600);
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
      if (await canChown()) await fh.chown(uid, gid);
      else warnings.push(`${target}: could not keep owner ${uid}:${gid} (not running as root); the file is now owned by ${myUid}:${myGid}`);
    }
    await fh.sync();
    await fh.close();
    fh = null;
    await opts.hooks?.beforeRename?.();
    await fsp.rename(tmp, target);
    renamed = true;
    await opts.hooks?.afterRename?.();
    await fsyncDir(dir);
  } catch (err) {
    await fh?.close().catch(() => undefined);
    if (!renamed) await fsp.unlink(tmp).catch(() => undefined);
    throw err;
  }
  const back = await fsp.readFile(target);
  if (!back.equals(bytes)) throw new Error(`${target}: read-back differs from what was written (${back.length} vs ${bytes.length} bytes)`);
  return { path: target, previous, written: back, mode, uid, gid, warnings };
}

/** Atomically remove a file (unlink + directory fsync). Missing is fine. */
export async function durableUnlink(p: string): Promise<boolean> {
  try {
    await fsp.unlink(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  await fsyncDir(path.dirname(p));
  return true;
}

/**
 * Create `dir` and its missing parents (mode `mode`), each one fsynced into its parent, so a power
 * loss cannot drop a folder that later receives a moved file. Refuses a symlink or non-directory.
 */
export async function mkdirsDurable(dir: string, mode: number): Promise<void> {
  const missing: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const st = await fsp.lstat(d).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (st) {
      assertRealDir(d, st);
      break;
    }
    missing.unshift(d);
    if (path.dirname(d) === d) break;
  }
  // New folders are owned like the folder they are created in (the root's owner, for a later run as Fluent Bit's user).
  const parent = missing.length ? await fsp.stat(path.dirname(missing[0])) : null;
  for (const d of missing) await mkdirExact(d, mode, parent ? { uid: parent.uid, gid: parent.gid } : null);
}

function assertRealDir(dir: string, st: import('node:fs').Stats): void {
  if (st.isSymbolicLink()) throw new Error(`${dir}: is a symlink, not a directory; refusing to write through it`);
  if (!st.isDirectory()) throw new Error(`${dir}: exists but is not a directory; refusing to write there`);
}

/** rename + fsync of both directories (for moving chunks). Refuses to replace an existing target. */
export async function durableMove(from: string, to: string): Promise<void> {
  await mkdirsDurable(path.dirname(to), 0o700);
  if (
    await fsp.lstat(to).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`${to}: already exists; refusing to replace it`);
  await fsp.rename(from, to);
  await fsyncDir(path.dirname(to));
  if (path.dirname(to) !== path.dirname(from)) await fsyncDir(path.dirname(from));
}

/** mkdir with an exact mode (not reduced by the umask). Returns true when it created the directory. */
export async function mkdirExact(dir: string, mode: number, owner?: { uid: number; gid: number } | null): Promise<boolean> {
  try {
    await fsp.mkdir(dir, { mode });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      assertRealDir(dir, await fsp.lstat(dir));
      return false;
    }
    if (code === 'ENOTDIR') throw new Error(`${dir}: a parent (${path.dirname(dir)}) is not a directory; refusing to write there`);
    throw err;
  }
  await fsp.chmod(dir, mode);
  if (owner && (await canChown())) await fsp.chown(dir, owner.uid, owner.gid).catch(() => undefined);
  await fsyncDir(path.dirname(dir));
  return true;
}
