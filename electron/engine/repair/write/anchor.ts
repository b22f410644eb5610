/**
 * Anchored writes: the one place Store Doctor creates, replaces, renames, links, removes or chmods
 * anything in a store (or in its own state folders). A root is opened once (`O_DIRECTORY |
 * O_NOFOLLOW`, its device and inode checked against what the plan or session resolved), and every
 * folder below it is opened from the folder above by descriptor, one component at a time, with
 * `O_NOFOLLOW`. Node has no `*at` calls, so a name is reached as `/proc/self/fd/<n>/<name>`: the
 * kernel resolves it in the folder the descriptor holds, whatever has since been renamed or
 * swapped for a symlink at the path that was checked. A folder swapped after its check therefore
 * makes the write fail (`ELOOP`/`ENOTDIR` on the next open) or land in the folder that was checked,
 * never elsewhere. Temp files are created `O_CREAT | O_EXCL | O_NOFOLLOW`; the last component is
 * never followed (`O_NOFOLLOW` on opens; rename, unlink, link and rmdir never follow it).
 *
 * Where `/proc/self/fd` is missing (macOS, Windows) the same checks run on real paths (lstat of each
 * component right before the step): the window between check and write is then only narrowed, not
 * closed. `anchorMode()` says which is in use; `SD_ANCHOR=path` forces the path mode (benchmarks).
 */
import * as fs from 'node:fs';
import { promises as fsp, constants as fsc } from 'node:fs';
import * as path from 'node:path';
import { RefusedError } from '../outcome';

const NOFOLLOW = fsc.O_NOFOLLOW ?? 0;
const DIR_FLAGS = fsc.O_RDONLY | (fsc.O_DIRECTORY ?? 0) | NOFOLLOW | ((fsc as Record<string, number>).O_CLOEXEC ?? 0);

let mode: 'fd' | 'path' | null = null;
/** `fd`: names resolved through held folder descriptors (/proc/self/fd); `path`: checked real paths. */
export function anchorMode(): 'fd' | 'path' {
  if (mode === null) mode = process.env.SD_ANCHOR !== 'path' && process.platform === 'linux' && fs.existsSync('/proc/self/fd') ? 'fd' : 'path';
  return mode;
}

/** A folder held open: names inside it are reached through `at(name)`. */
export interface HeldDir {
  /** The descriptor (fd mode) or -1 (path mode). */
  fd: number;
  /** The real path it was opened at (for messages and the path mode). */
  real: string;
  /** The path as shown to the user. */
  shown: string;
}

/** The path that names `name` inside the held folder (never a path the store can redirect). */
export function at(dir: HeldDir, name: string): string {
  if (!name || name === '.' || name === '..' || name.includes('/') || name.includes('\0'))
    throw new Error(`${JSON.stringify(name)}: not a name inside a folder`);
  return dir.fd >= 0 ? `/proc/self/fd/${dir.fd}/${name}` : path.join(dir.real, name);
}

function refuseLink(shown: string, err: NodeJS.ErrnoException): never {
  if (err.code === 'ELOOP' || err.code === 'ENOTDIR')
    throw new RefusedError([`${shown} is a symlink or not a directory; Store Doctor never writes through a link or into a folder swapped after its check`]);
  throw err;
}

async function openDirAt(parent: HeldDir, name: string): Promise<HeldDir | null> {
  const real = path.join(parent.real, name);
  const shown = path.join(parent.shown, name);
  if (anchorMode() === 'path') {
    const st = await fsp.lstat(real).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : refuseLink(shown, err)));
    if (!st) return null;
    if (!st.isDirectory()) refuseLink(shown, Object.assign(new Error('not a directory'), { code: 'ENOTDIR' }));
    return { fd: -1, real, shown };
  }
  try {
    const fd = await new Promise<number>((res, rej) => fs.open(at(parent, name), DIR_FLAGS, (e, d) => (e ? rej(e) : res(d))));
    return { fd, real, shown };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return refuseLink(shown, err as NodeJS.ErrnoException);
  }
}

/** {@link openDirAt} with synchronous calls (a folder open is a quick metadata lookup; no thread-pool round trip). */
function openDirAtSync(parent: HeldDir, name: string): HeldDir | null {
  const real = path.join(parent.real, name);
  const shown = path.join(parent.shown, name);
  try {
    if (anchorMode() === 'path') {
      const st = fs.lstatSync(real, { throwIfNoEntry: false });
      if (!st) return null;
      if (!st.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      return { fd: -1, real, shown };
    }
    return { fd: fs.openSync(at(parent, name), DIR_FLAGS), real, shown };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return refuseLink(shown, err as NodeJS.ErrnoException);
  }
}

/** Closed at once (a folder's close is cheap): when a write returns, it holds nothing in the store. */
function closeDir(d: HeldDir): void {
  if (d.fd < 0) return;
  try {
    fs.closeSync(d.fd);
  } catch {
    /* already closed */
  }
}

export interface RootIdentityPin {
  dev: number;
  ino: number;
}

/** Roots pinned by a running action (apply.ts): a later open of the same root reuses the one checked. */
const pinned = new Map<string, { anchor: Anchor; uses: number }>();

/**
 * A store root held open. `open` resolves `rootPath` (a bucket root may be a symlink, which Fluent
 * Bit follows) and checks the folder it opens against `expect` (device and inode), or against the
 * root pinned for that path by the running action.
 */
export class Anchor {
  private constructor(
    readonly root: HeldDir,
    /** The root as named by the caller. */
    readonly given: string,
    readonly dev: number,
    readonly ino: number,
  ) {}

  static async open(rootPath: string, expect?: RootIdentityPin): Promise<Anchor> {
    const given = path.resolve(rootPath);
    const pin = pinned.get(given);
    if (pin && (!expect || (expect.dev === pin.anchor.dev && expect.ino === pin.anchor.ino))) {
      pin.uses++;
      return pin.anchor;
    }
    const real = await fsp.realpath(given);
    let fd = -1;
    if (anchorMode() === 'fd') {
      fd = await new Promise<number>((res, rej) => fs.open(real, DIR_FLAGS, (e, d) => (e ? rej(e) : res(d)))).catch((err: NodeJS.ErrnoException) =>
        refuseLink(given, err),
      );
    }
    const st = fd >= 0 ? await new Promise<fs.Stats>((res, rej) => fs.fstat(fd, (e, s) => (e ? rej(e) : res(s)))) : await fsp.lstat(real);
    const a = new Anchor({ fd, real, shown: given }, given, st.dev, st.ino);
    if (!st.isDirectory() || (expect && (expect.dev !== st.dev || expect.ino !== st.ino))) {
      a.closeNow();
      throw new RefusedError([`${given} is no longer the folder that was checked (device/inode changed); nothing was written. Plan again.`]);
    }
    return a;
  }

  /** Pin this root for `rootPath` while `fn` runs: every write to it inside uses this descriptor. */
  static async pinned<T>(rootPath: string, expect: RootIdentityPin | undefined, fn: (a: Anchor) => Promise<T>): Promise<T> {
    const a = await Anchor.open(rootPath, expect);
    const key = path.resolve(rootPath);
    const keys = [...new Set([key, a.root.real])].filter((k) => !pinned.has(k));
    for (const k of keys) pinned.set(k, { anchor: a, uses: 1 });
    try {
      return await fn(a);
    } finally {
      for (const k of keys) pinned.delete(k);
      await a.close();
    }
  }

  private closeNow(): void {
    closeDir(this.root);
  }

  /** Release (a pinned anchor stays open until its action ends). */
  async close(): Promise<void> {
    for (const [, p] of pinned)
      if (p.anchor === this) {
        p.uses--;
        return;
      }
    this.closeNow();
  }

  /** `p` (absolute, below the root as given or as resolved, or relative to it) as components. */
  parts(p: string): string[] {
    const abs = path.resolve(this.root.real, p);
    for (const base of [this.root.real, this.given]) {
      if (abs === base) return [];
      if (abs.startsWith(base + '/')) {
        const rel = abs.slice(base.length + 1).split('/');
        if (rel.some((s) => !s || s === '.' || s === '..')) break;
        return rel;
      }
    }
    throw new RefusedError([`${p} is outside the root ${this.given}; Store Doctor writes only inside the folder it checked`]);
  }

  /**
   * Open the folder `parts` below the root, one component at a time with O_NOFOLLOW; missing folders
   * are created with `create` (exact mode, owner when root may chown, each fsynced into its parent)
   * or give null. The caller closes the result with `release`.
   */
  async dir(parts: string[], create?: { mode: number; owner?: { uid: number; gid: number } | null; made?: string[] }): Promise<HeldDir | null> {
    let cur = this.root;
    try {
      for (const name of parts) {
        let next = await openDirAt(cur, name);
        if (!next && create) {
          await makeDirIn(cur, name, create.mode, create.owner ?? null);
          create.made?.push(path.join(cur.shown, name));
          next = await openDirAt(cur, name);
        }
        if (cur !== this.root) closeDir(cur);
        cur = this.root;
        if (!next) return null;
        cur = next;
      }
      return cur;
    } catch (err) {
      if (cur !== this.root) closeDir(cur); // no descriptor is left open by a refused walk
      throw err;
    }
  }

  /** {@link dir} (without creating) with synchronous opens: for many small steps in a row (replay's moves). */
  dirSync(parts: string[]): HeldDir | null {
    let cur = this.root;
    try {
      for (const name of parts) {
        const next = openDirAtSync(cur, name);
        if (cur !== this.root) closeDir(cur);
        cur = this.root;
        if (!next) return null;
        cur = next;
      }
      return cur;
    } catch (err) {
      if (cur !== this.root) closeDir(cur); // no descriptor is left open by a refused walk
      throw err;
    }
  }

  /** {@link inParent} (without creating) with the folder opened by {@link dirSync}. */
  inParentSync<T>(p: string, fn: (dir: HeldDir, name: string) => T): T {
    const parts = this.parts(p);
    if (!parts.length) throw new RefusedError([`${p}: the root itself is never replaced or removed`]);
    const d = this.dirSync(parts.slice(0, -1));
    if (!d) throw Object.assign(new Error(`${path.dirname(p)}: no such folder (ENOENT)`), { code: 'ENOENT' });
    try {
      return fn(d, parts[parts.length - 1]);
    } finally {
      this.release(d);
    }
  }

  /** Open the folder `name` inside the held folder `parent` (O_NOFOLLOW); null when missing. */
  dirFrom(parent: HeldDir, name: string): Promise<HeldDir | null> {
    return openDirAt(parent, name);
  }

  release(d: HeldDir): void {
    if (d !== this.root) closeDir(d);
  }

  /** Run `fn` with the parent folder of `p` held (created with `create` when asked), and the leaf name. */
  async inParent<T>(p: string, fn: (dir: HeldDir, name: string) => Promise<T>, create?: Parameters<Anchor['dir']>[1]): Promise<T> {
    const parts = this.parts(p);
    if (!parts.length) throw new RefusedError([`${p}: the root itself is never replaced or removed`]);
    const d = await this.dir(parts.slice(0, -1), create);
    if (!d) throw Object.assign(new Error(`${path.dirname(p)}: no such folder (ENOENT)`), { code: 'ENOENT' });
    try {
      return await fn(d, parts[parts.length - 1]);
    } finally {
      this.release(d);
    }
  }

  /** Run `fn` with the folder `p` itself held (null when it is missing). */
  async inDir<T>(p: string, fn: (dir: HeldDir | null) => Promise<T>): Promise<T> {
    const d = await this.dir(this.parts(p));
    try {
      return await fn(d);
    } finally {
      if (d) this.release(d);
    }
  }
}

/** fsync a held folder (best effort where a folder cannot be fsynced). */
export async function syncHeld(d: HeldDir): Promise<void> {
  if (d.fd >= 0) return new Promise((res, rej) => fs.fsync(d.fd, (e) => (e && e.code !== 'EINVAL' ? rej(e) : res())));
  let fh: fsp.FileHandle | null = null;
  try {
    fh = await fsp.open(d.real, fsc.O_RDONLY);
    await fh.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (process.platform === 'win32' || code === 'EISDIR' || code === 'EPERM' || code === 'EINVAL') return;
    throw err;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** lstat of a name in a held folder (null when absent). */
export async function lstatIn(d: HeldDir, name: string): Promise<fs.Stats | null> {
  return fsp.lstat(at(d, name)).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
}

export function canChown(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** mkdir `name` in a held folder with an exact mode and owner, fsynced into it; false when it existed (a real folder). */
export async function makeDirIn(d: HeldDir, name: string, mode: number, owner: { uid: number; gid: number } | null): Promise<boolean> {
  const shown = path.join(d.shown, name);
  try {
    await fsp.mkdir(at(d, name), { mode });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') throw err;
    const st = await fsp.lstat(at(d, name));
    if (st.isSymbolicLink()) throw new RefusedError([`${shown}: is a symlink, not a directory; refusing to write through it`]);
    if (!st.isDirectory()) throw new Error(`${shown}: exists but is not a directory; refusing to write there`);
    return false;
  }
  // Mode and owner through a descriptor of the folder just made (O_NOFOLLOW): a swap meanwhile is refused.
  const fh = await fsp.open(at(d, name), DIR_FLAGS).catch((err: NodeJS.ErrnoException) => refuseLink(shown, err));
  try {
    await fh.chmod(mode);
    if (owner && canChown()) await fh.chown(owner.uid, owner.gid).catch(() => undefined);
  } finally {
    await fh.close();
  }
  await syncHeld(d);
  return true;
}
