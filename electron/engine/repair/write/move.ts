/**
 * Moves and links inside a store, through the root's anchor (anchor.ts) like every write of
 * atomic.ts: both folders held open by descriptor, never over an existing name, never a link, and
 * a move into a folder removed meanwhile put back. Chunk moves (replay, undo) and the journal's
 * links and renames use these.
 */
import { promises as fsp, fstatSync, lstatSync, renameSync } from 'node:fs';
import * as path from 'node:path';
import { Anchor, at, syncHeld, type HeldDir } from './anchor';
import { mkdirsDurable, withRoot } from './atomic';
import { RefusedError } from '../outcome';

/** rename + fsync of both directories (for moving chunks). Refuses to replace an existing target. */
export async function durableMove(root: string, from: string, to: string): Promise<void> {
  await mkdirsDurable(root, path.dirname(to), 0o700);
  await moveIn(root, from, to, true);
}

/**
 * rename through the held folders without an fsync (replay's batched moves: the caller fsyncs the
 * folders once per batch with {@link fsyncDir}). Refuses to replace an existing target or move a link.
 * Its steps are synchronous calls (folder opens, two lstats, a rename: quick metadata operations),
 * so a replay's thousands of moves cost no thread-pool round trips; the checks are {@link moveHeld}'s.
 */
export async function moveUnsynced(root: string, from: string, to: string): Promise<void> {
  const a = await Anchor.open(root);
  try {
    a.inParentSync(from, (src, fromName) => a.inParentSync(to, (dst, toName) => moveHeld(src, fromName, dst, toName, from, to)));
  } finally {
    await a.close();
  }
}

async function moveIn(root: string, from: string, to: string, sync: boolean): Promise<void> {
  await withRoot(root, (a) =>
    a.inParent(from, (src, fromName) =>
      a.inParent(to, async (dst, toName) => {
        moveHeld(src, fromName, dst, toName, from, to);
        if (!sync) return;
        await syncHeld(dst);
        if (path.dirname(to) !== path.dirname(from)) await syncHeld(src);
      }),
    ),
  );
}

/** The one move between two held folders: never over an existing name, never a link, never into a folder removed meanwhile. */
function moveHeld(src: HeldDir, fromName: string, dst: HeldDir, toName: string, from: string, to: string): void {
  if (lstatSync(at(dst, toName), { throwIfNoEntry: false })) throw new Error(`${to}: already exists; refusing to replace it`);
  const sst = lstatSync(at(src, fromName), { throwIfNoEntry: false });
  if (sst?.isSymbolicLink()) throw new RefusedError([`${from} is a symlink; Store Doctor never moves a link`]);
  renameSync(at(src, fromName), at(dst, toName));
  if (dst.fd >= 0 && fstatSync(dst.fd).nlink === 0) {
    // the folder we hold was removed under us (replaced by another): the file is in no folder
    // any name reaches — put it back where it came from and say so
    renameSync(at(dst, toName), at(src, fromName));
    throw new Error(`${path.dirname(to)}: the folder was removed or replaced during the move; ${from} was left where it was`);
  }
}

/** Hard-link `from` as `to` (both inside `root`); false when `to` exists. */
export async function linkExclusive(root: string, from: string, to: string): Promise<boolean> {
  return withRoot(root, (a) =>
    a.inParent(from, (src, fromName) =>
      a.inParent(to, async (dst, toName) => {
        try {
          await fsp.link(at(src, fromName), at(dst, toName));
          return true;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
          throw err;
        }
      }),
    ),
  );
}

/** rename `from` over `to` (both inside `root`), fsync the folder. */
export async function renameOver(root: string, from: string, to: string): Promise<void> {
  await withRoot(root, (a) =>
    a.inParent(from, (src, fromName) =>
      a.inParent(to, async (dst, toName) => {
        await fsp.rename(at(src, fromName), at(dst, toName));
        await syncHeld(dst);
      }),
    ),
  );
}
