/**
 * Preconditions of every write (docs/fluent-bit-store-format.md#chunk-header item 1): Fluent Bit maps chunks MAP_SHARED and takes no
 * locks, so we refuse while Fluent Bit, or any process, has a file of the root open or mapped —
 * found by device and inode through Linux `/proc/<pid>/{fd,maps,cwd}` (procs.ts), so also through
 * a bind mount or another mount namespace — and only warn about a process whose working directory
 * is there (an operator's shell, grep, tee). We compare a size/mtime snapshot of the tree before
 * and after an operation to catch writers we could not see. Read-only sources (archives,
 * read-only mounts, no W_OK) can never be repaired. `force` overrides only the process check,
 * loudly: the plan's warning names each check it overrides.
 */
import { promises as fsp, constants as fsc, lstatSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { TOOL_DIR } from '../write';
import { isOwnTemp } from '../write';
import { findFluentBitProcesses, findProcessesUsing, procsTestHooks, type ProcessUse } from './procs';
import { fluentBitsStoringIn } from './storage-users';

export { findFluentBitProcesses, findProcessesUsing, planningScope, type ProcessScan, type ProcessUse } from './procs';

/**
 * Test injection: stands in for `access(path, W_OK)` (tests run as root, where a read-only
 * directory is still writable; a real read-only mount answers EROFS). Reset to null after use.
 */
export const writeCheckTestHooks: { access: ((p: string) => Promise<void>) | null; proc: string | null } = {
  access: null,
  /** The folder that stands for `/proc` (procs.ts). */
  get proc() {
    return procsTestHooks.proc;
  },
  set proc(v: string | null) {
    procsTestHooks.proc = v;
  },
};

export interface WriteCheckReport {
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
): Promise<WriteCheckReport> {
  const r: WriteCheckReport = { refusals: [], warnings: [], processes: [] };
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
    await (writeCheckTestHooks.access ? writeCheckTestHooks.access(root) : fsp.access(root, fsc.W_OK));
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
    const where = p.paths.join(', ');
    if (p.kind === 'fluent-bit')
      r.refusals.push({
        reason: `Process ${p.pid} (${p.command}) is Fluent Bit, using this store: ${where}. Stop Fluent Bit before repairing: it maps chunk files shared and takes no locks.`,
        forceable: true,
      });
    else if (p.kind === 'open')
      r.refusals.push({
        reason: `Process ${p.pid} (${p.command}) has files of the store open or mapped: ${where}. Stop it before repairing: a file changed under a process that holds it can be torn or overwritten.`,
        forceable: true,
      });
    else
      r.warnings.push(
        `Process ${p.pid} (${p.command}) has its working directory in the store: ${where}. It holds no file there (a shell, grep, tee?), so this does not stop the repair; make sure it writes nothing there.`,
      );
  }
  if (!use.processes.some((p) => p.kind === 'fluent-bit')) {
    // a Fluent Bit whose config names this root uses it, even holding no file of it right now
    const running = await findFluentBitProcesses();
    const configured = await fluentBitsStoringIn(root, running);
    for (const p of configured)
      r.refusals.push({
        reason: `Process ${p.pid} (${p.command}) is Fluent Bit, using this store: its config ${p.config} names it (store_dir/bucket ${p.named}, the same folder by device and inode), though it holds no file of it at this moment. Stop Fluent Bit before repairing: its next upload writes seq_index.`,
        forceable: true,
      });
    const fb = running.filter((p) => !configured.some((c) => c.pid === p.pid));
    for (const p of fb)
      r.warnings.push(
        `Fluent Bit process ${p.pid} (${p.command}) is running, though with no file of this root open, mapped or as its working directory. Make sure it does not use this store.`,
      );
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
  // synchronous readdir and lstats (quick metadata lookups, no thread-pool round trip each); the
  // event loop is let go every 256 entries
  let n = 0;
  async function walk(dir: string, rel: string, depth: number): Promise<void> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name === TOOL_DIR || isOwnTemp(e.name)) continue;
      const p = path.join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (++n % 256 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      let st: import('node:fs').Stats | undefined;
      try {
        st = lstatSync(p, { throwIfNoEntry: false });
      } catch {
        st = undefined;
      }
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
  // by set lookups, not a scan of `expected` per path: a replay expects every chunk it moved
  const exact = new Set(expected);
  const above = new Set<string>();
  for (const e of expected) for (let i = e.indexOf('/'); i > 0; i = e.indexOf('/', i + 1)) above.add(e.slice(0, i));
  const ignore = (p: string) => {
    if (exact.has(p) || above.has(p)) return true; // expected itself, or one of its folders
    for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1)) if (exact.has(p.slice(0, i))) return true; // inside an expected folder
    return false;
  };
  const changed: string[] = [];
  for (const [p, v] of before) if (after.get(p) !== v && !ignore(p)) changed.push(p);
  for (const p of after.keys()) if (!before.has(p) && !ignore(p)) changed.push(p);
  return changed;
}

/** Tests: awaited right after the "before" snapshot of a write action (to change the store meanwhile). */
export interface WriteTestHooks {
  afterSnapshot?: () => Promise<void> | void;
}

export interface StoreSnapshot {
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
export async function snapshotStore(rootPath: string, hooks?: WriteTestHooks, scope?: string[]): Promise<StoreSnapshot> {
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
