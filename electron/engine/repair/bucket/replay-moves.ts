/**
 * Moving replayed chunks out of Fluent Bit's sight, in batches: each chunk is renamed into
 * `.store-doctor/replayed/<stream>/` as soon as its upload is recorded, and the directories are
 * fsynced once per batch ({@link ReplayMover.flush}) instead of twice per chunk.
 *
 * Why a batch is safe: a rename is visible to every process at once, so a kill -9 at any point
 * leaves each chunk either in its stream or in `replayed/` — never both, never neither. A chunk
 * still in its stream is resumed by the next run from the journal: its intent (with the key) was
 * fsynced before the upload, so HEAD finds the object and it is not sent again. Only a power loss
 * can undo a rename that was not fsynced yet (at most one batch); the next run then treats the
 * chunk the same way. A Fluent Bit started after such a power loss and before the next run could
 * send one of those chunks again — that window is one batch long (see replay-run.ts).
 *
 * {@link moveReplayedChunk} is the one call that moves a chunk, through the anchored primitive (atomic.ts).
 */
import { lstatSync } from 'node:fs';
import * as path from 'node:path';
import { fsyncDir, mkdirsDurable, moveUnsynced } from '../write';

/**
 * Rename `from` (a chunk in the store) to `to` (in `.store-doctor/replayed/`); durable after a flush.
 * Both folders are opened from the root's descriptor one component at a time without following a
 * link, and a chunk that is a link is refused (write/move.ts `moveUnsynced`), so the move stays inside
 * the store. `made`: destination folders already made by this run (made once, not per chunk).
 */
export async function moveReplayedChunk(rootPath: string, from: string, to: string, made?: Set<string>): Promise<void> {
  const dir = path.dirname(to);
  if (!made?.has(dir)) {
    await mkdirsDurable(rootPath, dir, 0o700);
    made?.add(dir);
  }
  try {
    // through the folders held open by descriptor: a folder swapped for a link fails the move or keeps it inside the store
    await moveUnsynced(rootPath, from, to);
  } catch (err) {
    // the destination folder was removed since this run made it: make it again, once
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !made?.has(dir)) throw err;
    made.delete(dir);
    await mkdirsDurable(rootPath, dir, 0o700);
    made.add(dir);
    await moveUnsynced(rootPath, from, to);
  }
}

/** A free name in `dir` (the anchored move then refuses it if it was taken meanwhile). */
function uniqueDest(dir: string, name: string): string {
  for (let n = 0; ; n++) {
    const p = path.join(dir, n ? `${name}.${n}` : name);
    let taken = false;
    try {
      taken = !!lstatSync(p, { throwIfNoEntry: false });
    } catch {
      // not looked up (the folder is not one): the anchored move reports it
    }
    if (!taken) return p;
  }
}

export interface MoveRequest {
  /** Absolute path of the chunk. */
  file: string;
  /** Folder in `.store-doctor/replayed/`. */
  destDir: string;
}

/**
 * Moves one at a time (no two moves race for a destination name); `flush()` fsyncs every folder
 * a move touched since the last flush and returns the moves it made durable.
 */
export class ReplayMover<T extends MoveRequest> {
  private chain: Promise<void> = Promise.resolve();
  private dirs = new Set<string>();
  private pending: { req: T; to: string }[] = [];
  private made = new Set<string>();

  constructor(private readonly rootPath: string) {}

  /** Move now (visible at once; durable at the next flush). Resolves to the destination. */
  move(req: T): Promise<string> {
    const run = this.chain.then(async () => {
      const to = uniqueDest(req.destDir, path.basename(req.file));
      await moveReplayedChunk(this.rootPath, req.file, to, this.made);
      this.dirs.add(path.dirname(req.file));
      this.dirs.add(path.dirname(to));
      this.pending.push({ req, to });
      return to;
    });
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** fsync the folders of the moves made since the last flush; returns those moves. */
  flush(): Promise<{ req: T; to: string }[]> {
    const run = this.chain.then(async () => {
      const dirs = [...this.dirs];
      const done = this.pending;
      this.dirs = new Set();
      this.pending = [];
      for (const d of dirs) await fsyncDir(this.rootPath, d);
      return done;
    });
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}
