/**
 * Confinement of writes to one root. A root is resolved once, when a write starts: its realpath
 * (a bucket root may itself be a symlink, which Fluent Bit follows), and from then on every path
 * is taken relative to that folder and walked component by component with lstat — an existing
 * component must be a real directory (never a symlink), the last one must not be a symlink. A path
 * a record names (journal entries are hostile input) must be absolute, normalized (no `.` or `..`
 * segments, no double or trailing slashes) and lie strictly inside the root.
 *
 * These checks give clear refusals before anything is written; what closes the window between a
 * check and the write (a folder renamed or swapped for a link meanwhile) is anchor.ts: every
 * write walks the folders again by descriptor with O_NOFOLLOW and lands in the folder it holds.
 */
import { promises as fsp, type Stats } from 'node:fs';
import * as path from 'node:path';
import type { PlanRoot } from '../../../../shared/model';
import { RefusedError } from '../outcome';

export interface WriteRoot {
  /** The root as named (by the plan, or by where the journal was found). */
  path: string;
  /** Its realpath, resolved once: every write goes below this. */
  real: string;
  /** stat of the real root (owner, device). */
  st: Stats;
}

export async function resolveWriteRoot(rootPath: string): Promise<WriteRoot> {
  const given = path.resolve(rootPath);
  const real = await fsp.realpath(given);
  const st = await fsp.stat(real);
  if (!st.isDirectory()) throw new Error(`${given}: not a directory`);
  return { path: given, real, st };
}

/**
 * What a root is, for a plan's basis: the folder it resolves to (device, inode, realpath). A link
 * swapped after planning — to another folder, even one that looks the same — changes it.
 */
export async function rootIdentity(rootPath: string): Promise<PlanRoot> {
  try {
    const r = await resolveWriteRoot(rootPath);
    return { path: rootPath, folder: { real: r.real, dev: r.st.dev, ino: r.st.ino } };
  } catch (err) {
    return { path: rootPath, folder: null, problem: (err as NodeJS.ErrnoException).code ?? (err as Error).message };
  }
}

/** Is the resolved root the folder the plan was made for? */
export function isPlannedRoot(r: WriteRoot, planned: PlanRoot): boolean {
  const f = planned.folder;
  return !!f && f.dev === r.st.dev && f.ino === r.st.ino && f.real === r.real;
}

/** Is `p` an absolute path written the one normal way (what path.resolve would give)? */
export function isNormalAbsolute(p: string): boolean {
  return typeof p === 'string' && !p.includes('\0') && path.isAbsolute(p) && path.resolve(p) === p && p.length > 1;
}

/**
 * `p` relative to the root (under its given path or its realpath, or `alsoRoots`), or the problem.
 * The root itself is not "inside" (nothing replaces a root).
 */
export function relativeInside(root: WriteRoot, p: string, what: string, alsoRoots: string[] = []): { rel: string } | { problem: string } {
  if (!isNormalAbsolute(p)) return { problem: `${what} ${JSON.stringify(p)} is not a normal absolute path (no ., .. or repeated slashes)` };
  for (const base of [root.path, root.real, ...alsoRoots]) {
    if (p.startsWith(base + '/')) return { rel: p.slice(base.length + 1) };
  }
  return { problem: `${what} ${p} is outside the root ${root.path}` };
}

/**
 * Walk `rel` below the real root. Each existing folder on the way must be a real directory; the
 * last component, when it exists, must not be a symlink. Returns the real path and the leaf's
 * lstat (null when absent), or the problem.
 */
export async function confine(root: WriteRoot, rel: string, what: string): Promise<{ real: string; leaf: Stats | null } | { problem: string }> {
  const parts = rel.split('/');
  if (!rel || parts.some((s) => !s || s === '.' || s === '..')) return { problem: `${what} ${JSON.stringify(rel)} is not a path inside the root` };
  let cur = root.real;
  for (let i = 0; i < parts.length; i++) {
    cur = path.join(cur, parts[i]);
    const st = await fsp.lstat(cur).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (!st) return { real: path.join(root.real, ...parts), leaf: null }; // the rest does not exist yet
    const shown = path.join(root.path, ...parts.slice(0, i + 1));
    if (st.isSymbolicLink()) return { problem: `${what}: ${shown} is a symlink; Store Doctor never writes through a link inside a root` };
    if (i < parts.length - 1 && !st.isDirectory()) return { problem: `${what}: ${shown} is not a directory` };
    if (i === parts.length - 1) return { real: cur, leaf: st };
  }
  return { problem: `${what}: empty path` };
}

/**
 * Refuse (RefusedError) unless `p` lies strictly inside the root and is reached without a
 * symlinked component, right before a step touches it (a chunk a replay reads and moves, a
 * multipart record it removes): a folder swapped for a link after planning never sends a read
 * or a write outside the root.
 */
export async function assertInside(rootPath: string, p: string, what = 'the file'): Promise<string> {
  return assertInsideRoot(await resolveWriteRoot(rootPath), p, what);
}

/** {@link assertInside} with the root resolved once by the caller (a batch of chunks). */
export async function assertInsideRoot(root: WriteRoot, p: string, what = 'the file'): Promise<string> {
  const rel = relativeInside(root, p, what);
  if ('problem' in rel) throw new RefusedError([rel.problem]);
  const c = await confine(root, rel.rel, what);
  if ('problem' in c) throw new RefusedError([c.problem]);
  return c.real;
}

/** Replace the root prefix `from` by `to` in every string of a plain JSON value (a plan). */
export function rebase<T>(value: T, from: string, to: string): T {
  if (from === to) return value;
  const map = (v: unknown): unknown => {
    if (typeof v === 'string') return v === from ? to : v.startsWith(from + '/') ? to + v.slice(from.length) : v;
    if (Array.isArray(v)) return v.map(map);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, map(x)]));
    return v;
  };
  return map(value) as T;
}
