/**
 * One writer per root at a time: every apply that writes to a root (index, protect, restore,
 * replay, multipart, undo) holds `<root>/.store-doctor/write.lock` from before its plan is checked
 * until it is done (repair/apply.ts takes it, in one place); a second writer is refused naming the
 * holder's pid. The lock names its holder (pid, process start time, a random token, the action).
 * Every lock file appears complete (written to a unique temp, then `link`ed into place: EEXIST
 * when taken), so a reader never sees a half-written one. The lock is hostile input like every
 * file in a store: read with O_NOFOLLOW and a size limit, its content must match the lock schema
 * (anything else has no live holder), and `.store-doctor` must be trusted (tool-dir.ts).
 *
 * A lock whose holder is dead is taken over atomically: the runs that found it compete for an
 * exclusive claim named after that exact lock's content (`write.lock.takeover-<hash>-<n>`); the
 * one claim holder checks the lock still holds those bytes and renames its own lock over it. A
 * claimant that died mid-takeover is passed by claiming `n + 1`. So of any number of runs that find
 * the same stale lock at once, exactly one wins; the others see the winner alive and are refused.
 */
import { readFileSync } from 'node:fs';
import { createExclusive, durableUnlink, linkExclusive, listDir, renameOver } from '../write';
import * as path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { RefusedError } from '../outcome';
import { lockHolderSchema } from '../journal';
import { ensureToolDir, toolDir } from '../write';
import { safeReadFile, SafeReadError } from '../../store/safe-read';

export const WRITE_LOCK = 'write.lock';

export interface WriteLockHooks {
  /** Tests: awaited right after the lock was taken. */
  taken?: () => Promise<void> | void;
  /** Tests: awaited after the lock was found stale, before the takeover. */
  staleSeen?: () => Promise<void> | void;
  /** Tests: awaited by the claim holder before it replaces the stale lock. */
  beforeReplace?: () => Promise<void> | void;
}

interface Holder {
  pid: number;
  start: string | null;
  token: string;
  action?: string;
}

/** Tokens of locks and claims this process holds (two writers in one process must exclude each other too). */
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

/** The holder a lock names, or null for anything that is not a lock this tool writes (it has no live holder). */
function parse(text: string): Holder | null {
  try {
    const r = lockHolderSchema.safeParse(JSON.parse(text));
    if (r.success) return { pid: r.data.pid, start: r.data.start, token: r.data.token, action: r.data.action };
  } catch {
    /* the pid-only format of earlier versions */
  }
  const t = text.trim();
  const pid = /^\d{1,10}$/.test(t) ? Number(t) : NaN;
  return Number.isInteger(pid) && pid > 0 && pid < 2 ** 31 ? { pid, start: null, token: text } : null;
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

/** A lock or claim file's text (null when absent); never through a link, at most 4 KiB. */
async function readText(p: string): Promise<string | null> {
  try {
    return (await safeReadFile(p, { maxBytes: 4096, head: true })).bytes.toString('utf8');
  } catch (err) {
    if (err instanceof SafeReadError && err.code === 'ENOENT') return null;
    if (err instanceof SafeReadError) return ''; // a link or a special file: no holder; replaced like a stale lock
    throw err;
  }
}

/** Create `file` with `text`, complete or not at all; false when it exists. */
async function createComplete(root: string, file: string, text: string): Promise<boolean> {
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  // A failed write (a full disk) removes its partial temp file itself: no write.lock.tmp-* is left.
  if (!(await createExclusive(root, tmp, text))) throw new Error(`${tmp}: exists (a temp name is never reused)`);
  try {
    return await linkExclusive(root, tmp, file);
  } finally {
    await durableUnlink(root, tmp).catch(() => undefined);
  }
}

/** Claim the takeover of the stale lock whose content hashes to `id`; false when a live run has it. */
async function claim(root: string, lock: string, id: string, me: string): Promise<string | null> {
  for (let n = 0; n < 100; n++) {
    const file = `${lock}.takeover-${id}-${n}`;
    if (await createComplete(root, file, me)) return file;
    const text = await readText(file);
    if (text === null) return null; // the winner finished and cleaned up: look at the lock again
    if (alive(parse(text))) return null;
  }
  throw new Error(`${lock}: 100 abandoned takeover claims; remove ${lock}.takeover-* by hand`);
}

async function removeClaims(root: string, lock: string, id: string): Promise<void> {
  const dir = path.dirname(lock);
  const prefix = `${path.basename(lock)}.takeover-${id}-`;
  for (const n of await listDir(root, dir).catch(() => [] as string[]))
    if (n.startsWith(prefix)) await durableUnlink(root, path.join(dir, n)).catch(() => undefined);
}

/**
 * Take the write lock of `rootPath` (creating a trusted `.store-doctor/` when needed) for `action`;
 * resolves to its release. Refused (RefusedError) while another live process holds it.
 */
export async function takeWriteLock(rootPath: string, hooks: WriteLockHooks & { action?: string } = {}): Promise<() => Promise<void>> {
  const action = hooks.action ?? 'write';
  await ensureToolDir(rootPath);
  const lock = path.join(toolDir(rootPath), WRITE_LOCK);
  const token = randomBytes(8).toString('hex');
  const me = JSON.stringify({ pid: process.pid, start: startTime(process.pid), token, at: new Date().toISOString(), action });
  mine.add(token);
  const release = async () => {
    const h = parse((await readText(lock)) ?? '');
    if (h?.token === token) await durableUnlink(rootPath, lock).catch(() => undefined);
    mine.delete(token);
  };
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      if (await createComplete(rootPath, lock, me)) {
        await hooks.taken?.();
        return release;
      }
      const text = await readText(lock);
      if (text === null) continue; // released meanwhile
      const holder = parse(text);
      if (alive(holder))
        throw new RefusedError([
          `another Store Doctor ${holder!.action ?? 'write'} (pid ${holder!.pid}) is writing to ${rootPath} (it holds ${lock}); wait for it to finish, then plan again.`,
        ]);
      await hooks.staleSeen?.();
      const id = createHash('sha256').update(text).digest('hex').slice(0, 16);
      const claimed = await claim(rootPath, lock, id, me);
      if (!claimed) {
        await new Promise((r) => setTimeout(r, 20)); // another run is taking it over: see who won
        continue;
      }
      try {
        if ((await readText(lock)) !== text) continue; // not the stale lock we claimed any more
        await hooks.beforeReplace?.();
        const tmp = `${lock}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
        await createExclusive(rootPath, tmp, me);
        try {
          await renameOver(rootPath, tmp, lock); // atomic replace of exactly the stale lock we claimed
        } catch (err) {
          await durableUnlink(rootPath, tmp).catch(() => undefined);
          throw err;
        }
        await removeClaims(rootPath, lock, id);
        await hooks.taken?.();
        return release;
      } finally {
        await durableUnlink(rootPath, claimed).catch(() => undefined);
      }
    }
    throw new RefusedError([`${lock}: another writer keeps taking the lock; try again.`]);
  } catch (err) {
    mine.delete(token);
    throw err;
  }
}
