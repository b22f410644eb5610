/**
 * The one way Store Doctor opens a file it did not write: anything inside a store, a config
 * include, an offline listing. A store is hostile input (a customer's tarball, a volume others can
 * write, read as root), so a file is read only when it is a regular file:
 * - `lstat` first: a symlink, FIFO, socket or device is refused without being opened (opening a
 *   device can have side effects, a FIFO blocks, a symlink can point at `/etc/shadow`);
 * - then `open(O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)` and `fstat`: the opened file must be
 *   the same regular file (no swap between the two calls);
 * - at most `maxBytes` are read: a bigger file is an error (or, with `head`, its first bytes).
 * Errors are {@link SafeReadError}s whose message names the file and the problem.
 */
import * as fs from 'node:fs';

/** Why a file was not read. Errno codes (ENOENT, EACCES, …) pass through as `code`. */
export type SafeReadKind = 'symlink' | 'fifo' | 'socket' | 'char-device' | 'block-device' | 'directory' | 'not-regular' | 'too-large' | 'changed' | 'io';

export const KIB = 1024;

const FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0);
/** For files the user names (a config, a listing): a symlink is followed, the file it names must be regular. */
const FOLLOW_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0);

export class SafeReadError extends Error {
  constructor(
    /** The file as shown to the user. */
    readonly file: string,
    readonly kind: SafeReadKind,
    /** The problem without the file name, e.g. "is a FIFO". */
    readonly reason: string,
    /** Errno code when the error came from the system (ENOENT, EACCES, ELOOP…). */
    readonly code?: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'SafeReadError';
  }
}

export interface SafeReadOptions {
  /** Largest file read (bytes). */
  maxBytes: number;
  /** How the file is named in errors (default: the path). */
  shown?: string;
  /** A bigger file gives its first `maxBytes` bytes (`truncated: true`) instead of an error. */
  head?: boolean;
  /**
   * Follow a symlink (files the user names, and config includes, which Fluent Bit opens with
   * `fopen`; Kubernetes ConfigMaps are symlinks). Default false: nothing inside a store is followed.
   */
  follow?: boolean;
}

export interface SafeReadResult {
  /** The bytes read (at most `maxBytes`). */
  bytes: Buffer;
  /** The file's size from fstat. */
  size: number;
  truncated: boolean;
  stat: fs.Stats;
}

function sizeText(n: number): string {
  if (n % (1024 * 1024) === 0 && n >= 1024 * 1024) return `${n / (1024 * 1024)} MiB`;
  if (n % 1024 === 0 && n >= 1024) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/** The sentence for a file type that is not a regular file, or null for a regular file. */
export function notRegularReason(st: fs.Stats): { kind: SafeReadKind; reason: string } | null {
  if (st.isFile()) return null;
  if (st.isSymbolicLink()) return { kind: 'symlink', reason: 'is a symlink (not followed)' };
  if (st.isFIFO()) return { kind: 'fifo', reason: 'is a FIFO (named pipe), not a regular file' };
  if (st.isSocket()) return { kind: 'socket', reason: 'is a socket, not a regular file' };
  if (st.isCharacterDevice()) return { kind: 'char-device', reason: 'is a character device, not a regular file' };
  if (st.isBlockDevice()) return { kind: 'block-device', reason: 'is a block device, not a regular file' };
  if (st.isDirectory()) return { kind: 'directory', reason: 'is a directory, not a file' };
  return { kind: 'not-regular', reason: 'is not a regular file' };
}

export function tooLargeReason(size: number, max: number): string {
  return `is larger than ${sizeText(max)} (${size} bytes); not read`;
}

function errnoReason(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied (EACCES): run Store Doctor as the user Fluent Bit runs as, or as root';
    case 'ELOOP':
      return 'is a symlink (not followed)';
    case 'ENOTDIR':
      return 'a path component is not a directory';
    case 'EISDIR':
      return 'is a directory, not a file';
    default:
      return e.message ?? String(e);
  }
}

function fromErrno(err: unknown, shown: string): SafeReadError {
  if (err instanceof SafeReadError) return err;
  const e = err as NodeJS.ErrnoException;
  const kind: SafeReadKind = e?.code === 'ELOOP' ? 'symlink' : e?.code === 'EISDIR' ? 'directory' : 'io';
  return new SafeReadError(shown, kind, errnoReason(e), e?.code);
}

function check(lst: fs.Stats, st: fs.Stats | null, shown: string): void {
  const bad = notRegularReason(st ?? lst);
  if (bad) throw new SafeReadError(shown, bad.kind, bad.reason);
  if (st && (st.dev !== lst.dev || st.ino !== lst.ino)) throw new SafeReadError(shown, 'changed', 'was replaced while it was opened; not read');
}

function sizeCheck(st: fs.Stats, opts: SafeReadOptions, shown: string): number {
  if (st.size > opts.maxBytes && !opts.head) throw new SafeReadError(shown, 'too-large', tooLargeReason(st.size, opts.maxBytes));
  return Math.min(st.size, opts.maxBytes);
}

/** Read a regular file, at most `maxBytes` (see the module comment). */
export async function safeReadFile(p: fs.PathLike, opts: SafeReadOptions): Promise<SafeReadResult> {
  const shown = opts.shown ?? String(p);
  let fh: fs.promises.FileHandle | null = null;
  try {
    const lst = opts.follow ? await fs.promises.stat(p) : await fs.promises.lstat(p);
    check(lst, null, shown);
    fh = await fs.promises.open(p, opts.follow ? FOLLOW_FLAGS : FLAGS);
    const st = await fh.stat();
    check(lst, st, shown);
    const want = sizeCheck(st, opts, shown);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await fh.read(buf, got, want - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { bytes: buf.subarray(0, got), size: st.size, truncated: st.size > got, stat: st };
  } catch (err) {
    throw fromErrno(err, shown);
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** Synchronous {@link safeReadFile}. */
export function safeReadFileSync(p: fs.PathLike, opts: SafeReadOptions): SafeReadResult {
  const shown = opts.shown ?? String(p);
  let fd: number | null = null;
  try {
    const lst = opts.follow ? fs.statSync(p) : fs.lstatSync(p);
    check(lst, null, shown);
    fd = fs.openSync(p, opts.follow ? FOLLOW_FLAGS : FLAGS);
    const st = fs.fstatSync(fd);
    check(lst, st, shown);
    const want = sizeCheck(st, opts, shown);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const n = fs.readSync(fd, buf, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    return { bytes: buf.subarray(0, got), size: st.size, truncated: st.size > got, stat: st };
  } catch (err) {
    throw fromErrno(err, shown);
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/**
 * Open a file for reading by position (chunks): same checks, no size limit; the caller closes the
 * descriptor. Throws {@link SafeReadError}.
 */
export function openRegularSync(p: fs.PathLike, shown = String(p)): { fd: number; stat: fs.Stats } {
  let fd: number | null = null;
  try {
    fd = fs.openSync(p, FLAGS);
    const st = fs.fstatSync(fd);
    check(st, st, shown);
    return { fd, stat: st };
  } catch (err) {
    if (fd !== null) fs.closeSync(fd);
    throw fromErrno(err, shown);
  }
}

/** Async {@link openRegularSync}. */
export async function openRegular(p: fs.PathLike, shown = String(p)): Promise<{ fd: number; stat: fs.Stats }> {
  let fd: number | null = null;
  try {
    fd = await new Promise<number>((res, rej) => fs.open(p, FLAGS, (e, d) => (e ? rej(e) : res(d))));
    const st = await new Promise<fs.Stats>((res, rej) => fs.fstat(fd as number, (e, s) => (e ? rej(e) : res(s))));
    check(st, st, shown);
    return { fd, stat: st };
  } catch (err) {
    if (fd !== null) fs.close(fd, () => undefined);
    throw fromErrno(err, shown);
  }
}

/**
 * At most `max` bytes (default 64) of a file's content for a plan or a message: printable ASCII
 * as is, everything else as `\xNN`, and how many bytes were left out.
 */
export function previewBytes(b: Uint8Array, size = b.length, max = 64): string {
  let s = '';
  const n = Math.min(b.length, max);
  for (let i = 0; i < n; i++) {
    const c = b[i];
    s += c >= 0x20 && c < 0x7f && c !== 0x5c && c !== 0x22 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`;
  }
  const rest = size - n;
  return `"${s}"${rest > 0 ? ` … (${size} bytes, first ${n} shown)` : ''}`;
}
