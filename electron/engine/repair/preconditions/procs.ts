/**
 * Which processes use a root — found by device and inode numbers, never by comparing path
 * strings: a Fluent Bit in a container reaches the store through a bind mount in its own mount
 * namespace, so its /proc/<pid>/fd links and maps name paths that mean nothing (or something
 * else) here. Linux only.
 *
 * - `stat` of each /proc/<pid>/fd/N (the link itself: the kernel answers with the open file's
 *   device and inode, across mount namespaces), the dev:inode fields of /proc/<pid>/maps, and
 *   `stat` of /proc/<pid>/cwd, kept when the device is the root's;
 * - such a file is in the root when the path the kernel names resolves here to that very inode
 *   and one of its folders is the root folder itself (device and inode: a bind mount of the store
 *   in this very namespace is an alias, in the root); else (a bind mount in another mount namespace) when that
 *   path, looked up through /proc/<pid>/root, has the root folder itself (device and inode) among
 *   its parent folders. Only when neither tells (permission denied, a hard link) is the inode
 *   looked up in the set of the root's inodes: one walk of the root, at most once per check. So a
 *   check costs a few stats per file held on the root's device, whatever the size of the store.
 *
 * Reported separately: a Fluent Bit process, another process with a file of the root open or
 * mapped, and a process that only has its working directory (or a folder) there.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as fs from 'node:fs';
import { promises as fsp, type Stats } from 'node:fs';
import * as path from 'node:path';

export type UseKind = 'fluent-bit' | 'open' | 'cwd';

export interface ProcessUse {
  pid: number;
  command: string;
  /** fluent-bit: Fluent Bit with anything in the root; open: a file of the root open or mapped; cwd: only its working directory or a folder. */
  kind: UseKind;
  /** Up to 5 example paths under the root, each with how it is used ("(mapped)", "(working directory)"). */
  paths: string[];
}

/** Test injection: the folder that stands for `/proc` (e.g. a missing one for a system without it). */
export const procsTestHooks: { proc: string | null } = { proc: null };
const procDir = () => procsTestHooks.proc ?? '/proc';

const FLUENT_BIT = /^(fluent-bit|td-agent-bit|flb-|calyptia-fluent)/;

export function looksLikeFluentBit(command: string, exe: string | null): boolean {
  return FLUENT_BIT.test(command) || (exe !== null && FLUENT_BIT.test(path.basename(exe.replace(/ \(deleted\)$/, ''))));
}

/** major:minor of a Linux dev_t as Node reports it (glibc's makedev encoding). */
function majorMinor(dev: number): string {
  const hi = Math.floor(dev / 2 ** 32);
  const lo = dev >>> 0;
  const major = ((lo >>> 8) & 0xfff) | (hi & 0xfffff000);
  const minor = (lo & 0xff) | ((lo >>> 12) & 0xfff00) | ((hi & 0xfff) << 20);
  return `${major.toString(16)}:${minor.toString(16)}`;
}

interface Held {
  ino: number;
  /** The path the kernel names (in the process's namespace). */
  named: string;
  how: 'open' | 'mapped' | 'cwd';
  dir: boolean;
}

interface Candidate {
  pid: number;
  held: Held[];
}

const under = (p: string, root: string) => p === root || p.startsWith(root + '/');

/**
 * Where `h` lies under the root: its path (under the root's realpath), null when it is not in the
 * root, undefined when neither way tells (then the inode set decides). First the path the kernel
 * names, looked up here; else the same path looked up in the process's own mount namespace
 * (through /proc/<pid>/root), walking up its folders until one is the root folder itself (device
 * and inode) — a bind mount of the store, or of the root, in a container ends there.
 */
type StatOf = (p: string) => Stats | null;

function locate(pid: number, h: Held, rootSt: Stats, realRoot: string, lstatCached: StatOf, statCached: StatOf): string | null | undefined {
  if (h.ino === rootSt.ino) return realRoot;
  if (h.named.endsWith(' (deleted)')) return null; // no longer in any folder: not in the root's tree either
  const named = h.named;
  if (!path.isAbsolute(named)) return undefined;
  const same = (st: Stats | null) => !!st && st.dev === rootSt.dev && st.ino === h.ino;
  // the libraries every process maps share their paths: looked up once per scan
  if (same(lstatCached(named))) {
    if (under(named, realRoot)) return named;
    // same file, another path here: an alias (a bind mount of the store in this namespace) is in
    // the root when one of its folders is the root folder itself — the path never decides
    return inRootByParents('', named, rootSt, realRoot, statCached);
  }
  const base = `${procDir()}/${pid}/root`;
  if (!same(statSync(base + named, true))) return undefined;
  return inRootByParents(base, named, rootSt, realRoot, statCached);
}

/** Walks up the folders of `named` (looked up under `base`) until one is the root folder itself (device and inode): its path under the root; null when none is. */
/** `statOf`: stat (following links) kept for one scan: the folders above the files every process maps recur. */
function inRootByParents(base: string, named: string, rootSt: Stats, realRoot: string, statOf: StatOf): string | null | undefined {
  for (let dir = path.dirname(named); ; dir = path.dirname(dir)) {
    const st = statOf(base + dir);
    if (!st) return undefined;
    if (st.dev === rootSt.dev && st.ino === rootSt.ino) return path.join(realRoot, path.relative(dir, named));
    if (dir === '/' || dir === path.dirname(dir)) return null;
  }
}

/** stat (or lstat) without throwing: null when it cannot be read. */
function statSync(p: string, noFollow: boolean): Stats | null {
  try {
    return (noFollow ? fs.lstatSync(p, { throwIfNoEntry: false }) : fs.statSync(p, { throwIfNoEntry: false })) ?? null;
  } catch {
    return null;
  }
}

/** Every inode under the root (files and folders, not following links) → its path. */
async function inodesOf(root: string): Promise<Map<number, string>> {
  const map = new Map<number, string>();
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    const names = await fsp.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const p = path.join(dir, name);
      const st = await fsp.lstat(p).catch(() => null);
      if (!st) continue;
      map.set(st.ino, p);
      if (st.isDirectory()) stack.push(p);
    }
  }
  return map;
}

/**
 * What one process holds on the root's device. Synchronous calls on purpose: each is a few
 * microseconds on /proc, where a trip through the thread pool costs tens (a scan of 72 processes
 * took 40–80 ms asynchronously, 6–12 ms like this); the caller hands the event loop back every
 * PROCS_PER_TURN processes, so it is never held for long.
 */
function heldOnDevice(pidText: string, dev: number, devText: string, devNeedle: string): { held: Held[]; denied: boolean; gone: boolean } {
  const base = `${procDir()}/${pidText}`;
  const held: Held[] = [];
  let denied = false;
  const linkOf = (p: string): string => {
    try {
      return fs.readlinkSync(p) || '?';
    } catch {
      return '?';
    }
  };
  try {
    for (const fd of fs.readdirSync(`${base}/fd`)) {
      const st = statSync(`${base}/fd/${fd}`, false); // null: closed meanwhile, or not ours to see
      if (!st || st.dev !== dev) continue;
      held.push({ ino: st.ino, named: linkOf(`${base}/fd/${fd}`), how: 'open', dir: st.isDirectory() });
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { held, denied, gone: true }; // exited meanwhile
    if (code === 'EACCES' || code === 'EPERM') denied = true;
  }
  const cwd = statSync(`${base}/cwd`, false);
  if (cwd && cwd.dev === dev) held.push({ ino: cwd.ino, named: linkOf(`${base}/cwd`), how: 'cwd', dir: true });
  let maps = '';
  try {
    maps = fs.readFileSync(`${base}/maps`, 'utf8');
  } catch {
    maps = '';
  }
  // only the lines of the root's device are parsed: the kernel prints it as " %02x:%02x " after the
  // offset, so a search for that text skips every other line (most, when the store has its own mount)
  const seen = new Set<number>();
  for (let at = maps.indexOf(devNeedle); at !== -1; at = maps.indexOf(devNeedle, at + 1)) {
    const start = maps.lastIndexOf('\n', at) + 1;
    const end = maps.indexOf('\n', at);
    const line = maps.slice(start, end === -1 ? undefined : end);
    if (end !== -1) at = end;
    // address perms offset dev inode pathname
    const m = /^\S+ \S+ \S+ ([0-9a-f]+):([0-9a-f]+) (\d+)\s*(.*)$/.exec(line);
    if (!m || m[3] === '0') continue;
    if (`${parseInt(m[1], 16).toString(16)}:${parseInt(m[2], 16).toString(16)}` !== devText) continue;
    const ino = Number(m[3]);
    if (seen.has(ino)) continue;
    seen.add(ino);
    held.push({ ino, named: m[4] || '?', how: 'mapped', dir: false });
  }
  return { held, denied, gone: false };
}

/** Processes read between two turns of the event loop (a scan of thousands never holds it for long). */
export const PROCS_PER_TURN = 16;

/** Lets the event loop run after every PROCS_PER_TURN processes. */
async function yieldLoop(count: { n: number }): Promise<void> {
  if (++count.n % PROCS_PER_TURN) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Processes (other than us) with a file or folder of `root` open, mapped, or as working directory. Linux only. */
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

/**
 * One planning request looks at the processes of a root once: inside `planningScope`, a scan is
 * reused for the same root. Never around a write — apply checks afresh right before it writes.
 */
const planning = new AsyncLocalStorage<Map<string, Promise<ProcessScan>>>();

let scopes = 0;

export async function planningScope<T>(fn: () => Promise<T>): Promise<T> {
  scopes++;
  try {
    return await planning.run(new Map(), fn);
  } finally {
    // On Node 20 an enabled AsyncLocalStorage installs promise hooks that tax every promise of the
    // process (a replay's uploads afterwards); off when no planning runs (`run` turns it on again).
    if (--scopes === 0) planning.disable();
  }
}

/** `only`: look at these pids alone (else every process). */
export function findProcessesUsing(root: string, only?: number[]): Promise<ProcessScan> {
  const memo = planning.getStore();
  if (!memo || only) return scanProcesses(root, only);
  let scan = memo.get(root);
  if (!scan) memo.set(root, (scan = scanProcesses(root)));
  return scan;
}

async function scanProcesses(root: string, only?: number[]): Promise<ProcessScan> {
  let pids: string[];
  try {
    pids = (await fsp.readdir(procDir())).filter((n) => /^\d+$/.test(n));
    if (only) pids = pids.filter((p) => only.includes(Number(p)));
  } catch {
    return { processes: [], uninspectable: 0, uninspectablePids: [], inspected: 0, supported: false };
  }
  const rootSt = await fsp.stat(root).catch(() => null);
  if (!rootSt) return { processes: [], uninspectable: 0, uninspectablePids: [], inspected: 0, supported: true };
  const realRoot = await fsp.realpath(root);
  const dev = rootSt.dev;
  const devText = majorMinor(dev);
  const devNeedle = ` ${devText
    .split(':')
    .map((x) => x.padStart(2, '0'))
    .join(':')} `;
  let uninspectable = 0;
  let inspected = 0;
  const uninspectablePids: number[] = [];
  const candidates: Candidate[] = [];
  const slice = { n: 0 };
  for (const pidText of pids) {
    const pid = Number(pidText);
    if (pid === process.pid) continue;
    const r = heldOnDevice(pidText, dev, devText, devNeedle);
    await yieldLoop(slice);
    if (r.gone) continue; // exited meanwhile
    inspected++;
    if (r.denied) {
      uninspectable++;
      if (uninspectablePids.length < 1000) uninspectablePids.push(pid);
    }
    if (r.held.length) candidates.push({ pid, held: r.held });
  }
  let inodes: Map<number, string> | null = null; // built once, only when a path does not tell
  const lstats = new Map<string, Stats | null>();
  const lstatCached = (p: string) => {
    if (!lstats.has(p)) lstats.set(p, statSync(p, true));
    return lstats.get(p)!;
  };
  const stats = new Map<string, Stats | null>();
  const statCached = (p: string) => {
    if (!stats.has(p)) stats.set(p, statSync(p, false));
    return stats.get(p)!;
  };
  const processes: ProcessUse[] = [];
  for (const c of candidates) {
    const hits: { p: string; how: Held['how']; dir: boolean }[] = [];
    await yieldLoop(slice);
    for (const h of c.held) {
      let where = locate(c.pid, h, rootSt, realRoot, lstatCached, statCached);
      if (where === undefined) {
        inodes ??= await inodesOf(realRoot);
        where = inodes.get(h.ino) ?? null;
      }
      if (where !== null) hits.push({ p: where, how: h.how, dir: h.dir });
    }
    if (!hits.length) continue;
    const base = `${procDir()}/${c.pid}`;
    const command = nameFrom(await fsp.readFile(`${base}/comm`, 'utf8').catch(() => ''), () => fs.readFileSync(`${base}/cmdline`, 'latin1'));
    const exe = await fsp.readlink(`${base}/exe`).catch(() => null);
    const files = hits.filter((h) => !h.dir && h.how !== 'cwd');
    const kind: UseKind = looksLikeFluentBit(command, exe) ? 'fluent-bit' : files.length ? 'open' : 'cwd';
    const shown = [...files, ...hits.filter((h) => h.dir || h.how === 'cwd')].map((h) =>
      h.how === 'mapped' ? `${h.p} (mapped)` : h.how === 'cwd' ? `${h.p} (working directory)` : h.dir ? `${h.p} (folder open)` : h.p,
    );
    processes.push({ pid: c.pid, command, kind, paths: [...new Set(shown)].slice(0, 5) });
  }
  return { processes, uninspectable, uninspectablePids, inspected, supported: true };
}

/**
 * A process's name as `ps -o comm` shows it — unless that is a thread name a runtime gave its main
 * thread (Node 24 renames its main thread "MainThread", which is what `comm` then says): then the
 * base name of argv[0], as the process was started (a `fluent-bit` link to a binary keeps its name).
 */
export function nameFrom(comm: string, cmdline: () => string): string {
  const c = comm.trim();
  if (c && c !== 'MainThread') return c;
  let argv0 = '';
  try {
    argv0 = cmdline().split('\0')[0] ?? '';
  } catch {
    /* gone meanwhile */
  }
  return (argv0 ? path.basename(argv0).slice(0, 15) : '') || c || '?';
}

/** Running processes that look like Fluent Bit (anywhere, or among `only`), for a warning. */
export async function findFluentBitProcesses(only?: number[]): Promise<{ pid: number; command: string }[]> {
  const out: { pid: number; command: string }[] = [];
  let pids: string[] = [];
  try {
    pids = only ? only.map(String) : (await fsp.readdir(procDir())).filter((n) => /^\d+$/.test(n));
  } catch {
    return out;
  }
  const slice = { n: 0 };
  for (const p of pids) {
    let comm = '';
    try {
      // synchronous: see heldOnDevice
      comm = nameFrom(fs.readFileSync(`${procDir()}/${p}/comm`, 'utf8'), () => fs.readFileSync(`${procDir()}/${p}/cmdline`, 'latin1'));
    } catch {
      comm = '';
    }
    if (FLUENT_BIT.test(comm)) out.push({ pid: Number(p), command: comm });
    await yieldLoop(slice);
  }
  return out;
}
