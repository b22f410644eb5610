/**
 * Preconditions of every write (docs/fluent-bit-store-format.md#chunk-header item 1): Fluent Bit maps chunks MAP_SHARED and takes no
 * locks, so we refuse while any process has files open (or mapped, or its cwd) under the root —
 * found through Linux `/proc/<pid>/{fd,maps,cwd}` — and we compare a size/mtime snapshot of the
 * tree before and after an operation to catch writers we could not see. Read-only sources
 * (archives, read-only mounts, no W_OK) can never be repaired. `force` overrides only the
 * process check, loudly.
 */
import { promises as fsp, constants as fsc } from 'node:fs';
import * as path from 'node:path';
import { TOOL_DIR } from './journal';
import { isOwnTemp } from './atomic';

/**
 * Test injection: stands in for `access(path, W_OK)` (tests run as root, where a read-only
 * directory is still writable; a real read-only mount answers EROFS). Reset to null after use.
 */
export const guardTestHooks: { access: ((p: string) => Promise<void>) | null; proc: string | null } = { access: null, proc: null };

/** `/proc` (tests: another folder, e.g. a missing one to stand for a system without it). */
const procDir = () => guardTestHooks.proc ?? '/proc';

export interface ProcessUse {
  pid: number;
  command: string;
  /** Up to 5 example paths under the root. */
  paths: string[];
}

async function realOrSelf(p: string): Promise<string> {
  return fsp.realpath(p).catch(() => path.resolve(p));
}

function under(p: string, root: string): boolean {
  return p === root || p.startsWith(root.endsWith('/') ? root : root + '/');
}

export interface ProcessScan {
  processes: ProcessUse[];
  /** Processes whose open files could not be read (permission denied). */
  uninspectable: number;
  /** Their pids (the first 1000). */
  uninspectablePids: number[];
  /** Processes looked at (other than this one). */
  inspected: number;
  /** False when there is no /proc to look in. */
  supported: boolean;
}

/** Processes (other than us) with files open, mapped or their cwd under `root`. Linux only. */
export async function findProcessesUsing(root: string): Promise<ProcessScan> {
  const real = await realOrSelf(root);
  const proc = procDir();
  let pids: string[];
  try {
    pids = (await fsp.readdir(proc)).filter((n) => /^\d+$/.test(n));
  } catch {
    return { processes: [], uninspectable: 0, uninspectablePids: [], inspected: 0, supported: false };
  }
  const processes: ProcessUse[] = [];
  let uninspectable = 0;
  let inspected = 0;
  const uninspectablePids: number[] = [];
  for (const pidText of pids) {
    const pid = Number(pidText);
    if (pid === process.pid) continue;
    const hits = new Set<string>();
    const base = `${proc}/${pidText}`;
    inspected++;
    try {
      const fds = await fsp.readdir(`${base}/fd`);
      for (const fd of fds) {
        const target = await fsp.readlink(`${base}/fd/${fd}`).catch(() => null);
        if (target && under(target.replace(/ \(deleted\)$/, ''), real)) hits.add(target);
        if (hits.size >= 5) break;
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') {
        uninspectable++;
        if (uninspectablePids.length < 1000) uninspectablePids.push(pid);
      }
      if (code === 'ENOENT') {
        inspected--;
        continue; // exited meanwhile
      }
    }
    const cwd = await fsp.readlink(`${base}/cwd`).catch(() => null);
    if (cwd && under(cwd, real)) hits.add(`${cwd} (working directory)`);
    if (hits.size < 5) {
      const maps = await fsp.readFile(`${base}/maps`, 'utf8').catch(() => '');
      for (const line of maps.split('\n')) {
        const i = line.indexOf('/');
        if (i >= 0 && under(line.slice(i).replace(/ \(deleted\)$/, ''), real)) hits.add(`${line.slice(i)} (mapped)`);
        if (hits.size >= 5) break;
      }
    }
    if (hits.size) {
      const command = ((await fsp.readFile(`${base}/comm`, 'utf8').catch(() => '?')) || '?').trim();
      processes.push({ pid, command, paths: [...hits].slice(0, 5) });
    }
  }
  return { processes, uninspectable, uninspectablePids, inspected, supported: true };
}

/** Running processes that look like Fluent Bit (anywhere, or among `only`), for a warning. */
export async function findFluentBitProcesses(only?: number[]): Promise<{ pid: number; command: string }[]> {
  const out: { pid: number; command: string }[] = [];
  const proc = procDir();
  let pids: string[] = [];
  try {
    pids = only ? only.map(String) : (await fsp.readdir(proc)).filter((n) => /^\d+$/.test(n));
  } catch {
    return out;
  }
  for (const p of pids) {
    const comm = (await fsp.readFile(`${proc}/${p}/comm`, 'utf8').catch(() => '')).trim();
    if (/^(fluent-bit|td-agent-bit|flb-)/.test(comm)) out.push({ pid: Number(p), command: comm });
  }
  return out;
}

export interface GuardReport {
  refusals: { reason: string; forceable: boolean }[];
  warnings: string[];
  processes: ProcessUse[];
}

/**
 * May we write under `root`? Read-only / archive sources: refused, not forceable. Fluent Bit (or
 * anything) using the root: refused, forceable.
 */
export async function checkWriteAllowed(
  root: string,
  opts: { readOnlySource?: boolean; archive?: boolean; skipProcessCheck?: boolean } = {},
): Promise<GuardReport> {
  const r: GuardReport = { refusals: [], warnings: [], processes: [] };
  if (opts.archive) {
    r.refusals.push({
      reason: `${root} is inside an archive: archives are read-only evidence and cannot be repaired. Extract it (or repair the live store) instead.`,
      forceable: false,
    });
    return r;
  }
  try {
    const st = await fsp.stat(root);
    if (!st.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const file = code === 'ENOTDIR' || code === 'ENOENT' ? await enclosingFile(root) : null;
    r.refusals.push({
      reason: file
        ? `${root} is inside ${file}, a file (an archive?), not a store folder: archives are read-only evidence and cannot be repaired. Extract it (or repair the live store) instead.`
        : `${root}: ${code === 'ENOENT' ? 'does not exist' : (err as Error).message}.`,
      forceable: false,
    });
    return r;
  }
  if (opts.readOnlySource) r.refusals.push({ reason: `${root} was opened read-only; it cannot be repaired.`, forceable: false });
  try {
    await (guardTestHooks.access ? guardTestHooks.access(root) : fsp.access(root, fsc.W_OK));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    r.refusals.push({
      reason:
        code === 'EROFS'
          ? `${root} is on a read-only file system (EROFS); it cannot be repaired.`
          : `${root} is not writable by this user (${code ?? (err as Error).message}); it cannot be repaired.`,
      forceable: false,
    });
  }
  if (opts.skipProcessCheck) return r;
  const use = await findProcessesUsing(root);
  r.processes = use.processes;
  if (!use.supported) r.warnings.push('Cannot look for processes using the store on this system (no /proc): make sure Fluent Bit is stopped.');
  if (use.uninspectable)
    r.warnings.push(`${use.uninspectable} processes could not be inspected (permission denied): run as root to be sure Fluent Bit is not using the store.`);
  for (const p of use.processes) {
    r.refusals.push({
      reason: `Process ${p.pid} (${p.command}) is using the store: ${p.paths.join(', ')}. Stop Fluent Bit before repairing: it maps chunk files shared and takes no locks.`,
      forceable: true,
    });
  }
  if (!use.processes.length) {
    const fb = await findFluentBitProcesses();
    for (const p of fb)
      r.warnings.push(`Fluent Bit process ${p.pid} (${p.command}) is running, though with no file open under this root. Make sure it does not use this store.`);
  }
  return r;
}

/** The nearest existing ancestor of `p` when it is a regular file (`x.tar.gz!/bucket` → `x.tar.gz`). */
async function enclosingFile(p: string): Promise<string | null> {
  for (let d = path.resolve(p); d !== path.dirname(d); d = path.dirname(d)) {
    const base = d.replace(/!$/, '');
    const st = await fsp.stat(base).catch(() => null);
    if (st) return st.isFile() ? base : null;
  }
  return null;
}

export type TreeSnapshot = Map<string, string>;

/**
 * size:mtime of every entry under root (or, with `scope`, of the root's own entries and everything
 * under the named top-level folders), except our own: `.store-doctor/` and dot-named temp files.
 */
export async function snapshotTree(root: string, scope?: string[]): Promise<TreeSnapshot> {
  const snap: TreeSnapshot = new Map();
  async function walk(dir: string, rel: string, depth: number): Promise<void> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name === TOOL_DIR || isOwnTemp(e.name)) continue;
      const p = path.join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      const st = await fsp.lstat(p).catch(() => null);
      if (!st) continue;
      snap.set(r, `${st.isDirectory() ? 'd' : 'f'}:${st.isDirectory() ? 0 : st.size}:${st.mtimeMs}`);
      if (st.isDirectory() && depth < 3 && (!scope || depth > 0 || scope.includes(e.name))) await walk(p, r, depth + 1);
    }
  }
  await walk(root, '', 0);
  return snap;
}

/** Paths that changed between two snapshots, ignoring `expected` (relative paths and their parents). */
export function diffSnapshots(before: TreeSnapshot, after: TreeSnapshot, expected: string[] = []): string[] {
  const ignore = (p: string) => expected.some((e) => e === p || e.startsWith(p + '/') || p.startsWith(e + '/'));
  const changed: string[] = [];
  for (const [p, v] of before) if (after.get(p) !== v && !ignore(p)) changed.push(p);
  for (const p of after.keys()) if (!before.has(p) && !ignore(p)) changed.push(p);
  return changed;
}

/** Tests: awaited right after the "before" snapshot of a write action (to change the store meanwhile). */
export interface WriteTestHooks {
  afterSnapshot?: () => Promise<void> | void;
}

export interface StoreWatch {
  /** "WARNING: the store changed during <what>…" naming what changed, or null. `expected`: absolute paths we changed. */
  warning(expected: string[], what: string): Promise<string | null>;
}

/**
 * Snapshot the root before a write action; `warning()` after it compares (ignoring the paths the
 * action changed, their parent folders, `.store-doctor/` and our temp files) to catch a writer we
 * could not see, e.g. Fluent Bit started meanwhile (it creates a new stream folder in the root).
 * `scope`: only these top-level folders are walked (besides the root's own entries), so an action
 * on one file does not stat every chunk of a big store twice.
 */
export async function watchStore(rootPath: string, hooks?: WriteTestHooks, scope?: string[]): Promise<StoreWatch> {
  const before = await snapshotTree(rootPath, scope);
  await hooks?.afterSnapshot?.();
  return {
    async warning(expected: string[], what: string) {
      const rel = expected.map((p) => path.relative(rootPath, p).split(path.sep).join('/')).filter((p) => p && !p.startsWith('..'));
      const after = await snapshotTree(rootPath, scope);
      let changed = diffSnapshots(before, after, rel);
      if (scope) {
        // Folders outside the scope were not walked: name what a new one holds; say an old one's entries changed.
        const named: string[] = [];
        for (const c of changed) {
          if (c.includes('/') || scope.includes(c) || !after.get(c)?.startsWith('d:')) named.push(c);
          else if (!before.has(c)) {
            const inner = await snapshotTree(path.join(rootPath, c));
            named.push(c, ...[...inner.keys()].map((k) => `${c}/${k}`));
          } else named.push(`${c}/ (entries added or removed)`);
        }
        changed = named;
      }
      return changed.length
        ? `WARNING: the store changed during ${what} (is Fluent Bit running?): ${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ` and ${changed.length - 5} more` : ''}`
        : null;
    },
  };
}
