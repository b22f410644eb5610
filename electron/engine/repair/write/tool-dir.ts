/**
 * `<root>/.store-doctor/`: the tool's own folder in a store (journal, backups, write lock, replay
 * journal). A store is hostile input, so before Store Doctor reads or writes anything there it
 * checks that the folder and each file in it could only have been made by a user it trusts:
 *
 * - not a symlink, the right type (a directory; a regular file with one name — a hard link is a
 *   second name for a file elsewhere, e.g. `/etc/passwd`);
 * - owned by the caller, by root (uid 0), or by the owner of the root folder: files the tool
 *   creates in a store take the root's owner (so a later run as Fluent Bit's user works), so a
 *   folder made by an earlier run as root for a root owned by `fluent-bit` is owned by `fluent-bit`;
 * - not writable by group or others (the tool makes them 0700 / 0600): anyone else could have
 *   written them.
 *
 * Files are opened with O_NOFOLLOW and checked again with fstat after opening.
 */
import { promises as fsp, constants as fsc, type Stats } from 'node:fs';
import * as path from 'node:path';
import { RefusedError } from '../outcome';
import { mkdirExact } from './atomic';
import { OWN_DIR } from '../../store/tree';

/** Store Doctor's own folder in a root (one name, shared with layout detection). */
export const TOOL_DIR = OWN_DIR;
export const JOURNAL_FILE = 'journal.jsonl';

export function toolDir(rootPath: string): string {
  return path.join(rootPath, TOOL_DIR);
}

/** Owner of a folder: what the tool gives to what it creates in it (see the module comment). */
export async function ownerOf(dir: string): Promise<{ uid: number; gid: number }> {
  const st = await fsp.stat(dir);
  return { uid: st.uid, gid: st.gid };
}

/** The users whose files in `<root>/.store-doctor` are trusted: the caller, root, the root folder's owner. */
export async function trustedOwners(rootPath: string): Promise<Set<number>> {
  const out = new Set<number>([0]);
  const me = process.getuid?.();
  if (me !== undefined) out.add(me);
  const st = await fsp.stat(rootPath).catch(() => null);
  if (st) out.add(st.uid);
  return out;
}

/** Why `st` (of `p`) is not a tool file or folder Store Doctor trusts, or null. */
export function untrustedReason(p: string, st: Stats, want: 'dir' | 'file', trusted: Set<number>): string | null {
  if (st.isSymbolicLink()) return `${p} is a symlink; Store Doctor never follows links in its own folder`;
  if (want === 'dir' && !st.isDirectory()) return `${p} is not a directory`;
  if (want === 'file' && !st.isFile()) return `${p} is not a regular file`;
  if (want === 'file' && st.nlink > 1) return `${p} has ${st.nlink} hard links (a second name for a file elsewhere); Store Doctor does not use it`;
  if (!trusted.has(st.uid))
    return `${p} is owned by uid ${st.uid}, not by you, root or the owner of the root folder: someone else made it; Store Doctor does not trust it`;
  if (st.mode & 0o022)
    return `${p} is writable by group or others (mode ${(st.mode & 0o7777).toString(8)}): anyone could have written it; Store Doctor does not trust it`;
  return null;
}

/** lstat, null when absent. */
export async function lstatOrNull(p: string): Promise<Stats | null> {
  return fsp.lstat(p).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
}

/** Problems of an existing `<root>/.store-doctor` (empty: trusted, or absent). */
export async function toolDirProblems(rootPath: string, trusted?: Set<number>): Promise<string[]> {
  const dir = toolDir(rootPath);
  const st = await lstatOrNull(dir);
  if (!st) return [];
  const why = untrustedReason(dir, st, 'dir', trusted ?? (await trustedOwners(rootPath)));
  return why ? [why] : [];
}

/** Refuse (RefusedError) unless `<root>/.store-doctor` is absent or trusted. */
export async function assertToolDirTrusted(rootPath: string): Promise<void> {
  const problems = await toolDirProblems(rootPath);
  if (problems.length) throw new RefusedError(problems);
}

/** Create `<root>/.store-doctor` (0700, owned like the root) — or check the one there — and return it. */
export async function ensureToolDir(rootPath: string): Promise<string> {
  await assertToolDirTrusted(rootPath); // a symlink is refused before mkdir could report it as "exists"
  const dir = toolDir(rootPath);
  await mkdirExact(rootPath, dir, 0o700, await ownerOf(rootPath));
  await assertToolDirTrusted(rootPath);
  return dir;
}

/** A folder inside `.store-doctor` (backups, backups/<id>): created 0700 like its parent, or checked. */
export async function ensureToolSubdir(rootPath: string, dir: string): Promise<void> {
  const owner = await ownerOf(toolDir(rootPath));
  await mkdirExact(rootPath, dir, 0o700, owner);
  const why = untrustedReason(dir, await fsp.lstat(dir), 'dir', await trustedOwners(rootPath));
  if (why) throw new RefusedError([why]);
}

/** Flags to open a tool file for reading and appending: never through a symlink, never blocking on a FIFO. */
export const APPEND_FLAGS = fsc.O_RDWR | fsc.O_APPEND | fsc.O_CREAT | (fsc.O_NOFOLLOW ?? 0) | (fsc.O_NONBLOCK ?? 0) | (fsc.O_NOCTTY ?? 0);
