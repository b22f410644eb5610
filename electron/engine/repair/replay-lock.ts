/**
 * One replay per root at a time: `<root>/.store-doctor/replay.lock` names its holder (pid, process
 * start time, a random token). Every lock file appears complete (written to a unique temp, then
 * `link`ed into place: EEXIST when taken), so a reader never sees a half-written one.
 *
 * A lock whose holder is dead is taken over atomically: the runs that found it compete for an
 * exclusive claim named after that exact lock's content (`replay.lock.takeover-<hash>-<n>`); the
 * one claim holder checks the lock still holds those bytes and renames its own lock over it. A
 * claimant that died mid-takeover is passed by claiming `n + 1`. So of any number of runs that find
 * the same stale lock at once, exactly one wins; the others see the winner alive and are refused.
 */
import { promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { RefusedError } from './errors';
import { toolDir } from './journal';

export interface ReplayLockHooks {
  /** Tests: awaited after the lock was found stale, before the takeover. */
  staleSeen?: () => Promise<void> | void;
  /** Tests: awaited by the claim holder before it replaces the stale lock. */
  beforeReplace?: () => Promise<void> | void;
}

interface Holder {
  pid: number;
  start: string | null;
  token: string;
}

/** Tokens of locks and claims this process holds (two replays in one process must exclude each other too). */
const mine = new Set<string>();

/** Start time of a process (field 22 of /proc/<pid>/stat) so a reused pid is not taken for the holder. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function parse(text: string): Holder | null {
  try {
    const j = JSON.parse(text) as Partial<Holder>;
    if (Number.isInteger(j.pid) && typeof j.token === 'string') return { pid: j.pid!, start: j.start ?? null, token: j.token };
  } catch {
    /* the pid-only format of earlier versions */
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? { pid, start: null, token: text } : null;
}

function alive(h: Holder | null): boolean {
  if (!h) return false;
  if (h.pid === process.pid) return mine.has(h.token);
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = h.start ? startTime(h.pid) : null;
  return !(h.start && now && now !== h.start); // same pid, other process: the holder is gone
}

async function readText(p: string): Promise<string | null> {
  return fsp.readFile(p, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
}

/** Create `file` with `text`, complete or not at all; false when it exists. */
async function createComplete(file: string, text: string): Promise<boolean> {
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await fsp.writeFile(tmp, text, { flag: 'wx', mode: 0o600 });
  try {
    await fsp.link(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await fsp.unlink(tmp).catch(() => undefined);
  }
}

/** Claim the takeover of the stale lock whose content hashes to `id`; false when a live run has it. */
async function claim(lock: string, id: string, me: string): Promise<string | null> {
  for (let n = 0; n < 100; n++) {
    const file = `${lock}.takeover-${id}-${n}`;
    if (await createComplete(file, me)) return file;
    const text = await readText(file);
    if (text === null) return null; // the winner finished and cleaned up: look at the lock again
    if (alive(parse(text))) return null;
  }
  throw new Error(`${lock}: 100 abandoned takeover claims; remove ${lock}.takeover-* by hand`);
}

async function removeClaims(lock: string, id: string): Promise<void> {
  const dir = path.dirname(lock);
  const prefix = `${path.basename(lock)}.takeover-${id}-`;
  for (const n of await fsp.readdir(dir).catch(() => [] as string[])) if (n.startsWith(prefix)) await fsp.unlink(path.join(dir, n)).catch(() => undefined);
}

/** Take the replay lock of `rootPath` (its `.store-doctor/` must exist); resolves to its release. */
export async function takeReplayLock(rootPath: string, hooks: ReplayLockHooks = {}): Promise<() => Promise<void>> {
  const lock = path.join(toolDir(rootPath), 'replay.lock');
  const token = randomBytes(8).toString('hex');
  const me = JSON.stringify({ pid: process.pid, start: startTime(process.pid), token, at: new Date().toISOString() });
  mine.add(token);
  const release = async () => {
    const h = parse((await readText(lock)) ?? '');
    if (h?.token === token) await fsp.unlink(lock).catch(() => undefined);
    mine.delete(token);
  };
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      if (await createComplete(lock, me)) return release;
      const text = await readText(lock);
      if (text === null) continue; // released meanwhile
      const holder = parse(text);
      if (alive(holder)) throw new RefusedError([`another replay (pid ${holder!.pid}) is running on ${rootPath} (${lock}); wait for it to finish.`]);
      await hooks.staleSeen?.();
      const id = createHash('sha256').update(text).digest('hex').slice(0, 16);
      const claimed = await claim(lock, id, me);
      if (!claimed) {
        await new Promise((r) => setTimeout(r, 20)); // another run is taking it over: see who won
        continue;
      }
      try {
        if ((await readText(lock)) !== text) continue; // not the stale lock we claimed any more
        await hooks.beforeReplace?.();
        const tmp = `${lock}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
        await fsp.writeFile(tmp, me, { flag: 'wx', mode: 0o600 });
        await fsp.rename(tmp, lock); // atomic replace of exactly the stale lock we claimed
        await removeClaims(lock, id);
        return release;
      } finally {
        await fsp.unlink(claimed).catch(() => undefined);
      }
    }
    throw new RefusedError([`${lock}: another replay keeps taking the lock; try again.`]);
  } catch (err) {
    mine.delete(token);
    throw err;
  }
}
