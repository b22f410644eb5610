/**
 * Backups and the undo journal. They live in `<root>/.store-doctor/` (a dot-directory: Fluent Bit's
 * scanner and its graceful-stop cleanup never look at it, docs/fluent-bit-store-format.md#layout). Every action first backs
 * up what it will change, then appends (and fsyncs) an `action` entry, then changes things, then
 * appends `applied`. An undo restores the previous bytes (or absence), mode and owner and appends
 * `undone`. The journal is JSON lines; a torn last line (crash while appending) is ignored. Reading
 * it back (a store is hostile input) is journal-read.ts; what its entries may name, undo-check.ts.
 */
import { promises as fsp, writeSync } from 'node:fs';
import * as path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { RepairAction } from '../../../../shared/model';
import { atomicWriteFile, fsyncDir, openIn, pathExists } from '../write';
import type { ActionEntry, AfterState, FileState, UndoChange } from './journal-schema';
import { APPEND_FLAGS, ensureToolDir, ensureToolSubdir, JOURNAL_FILE, ownerOf, trustedOwners, untrustedReason } from '../write';
import { RefusedError } from '../outcome';
import { safeReadFile, SafeReadError } from '../../store/safe-read';

export { TOOL_DIR, JOURNAL_FILE, toolDir, ensureToolDir } from '../write';
export type { ActionEntry, AfterState, FileState, JournalEntry, UndoChange } from './journal-schema';
export { findJournals, lastUndoable, readUndoState, readJsonLines, type JournalView } from './journal-read';

export type ChangeSpec = { kind: 'file'; path: string } | { kind: 'mkdir'; path: string } | { kind: 'move'; from: string; to: string };

/**
 * The changes of a write that makes the missing ones of `folders` (outermost first; each one
 * made is added to `made`, what the write expects to change) and then writes `file`.
 */
export async function folderThenFileChanges(folders: string[], file: string, made: string[]): Promise<ChangeSpec[]> {
  for (const d of folders) if (!(await pathExists(d))) made.push(d);
  return [...made.map((p): ChangeSpec => ({ kind: 'mkdir', path: p })), { kind: 'file', path: file }];
}

/** Largest file the tool backs up (index files, multipart records: a few bytes to a few KiB). */
export const MAX_BACKUP = 16 * 1024 * 1024;

export function sha256(buf: Buffer): string {
  return createHash('sha256').update(buf).digest('hex');
}

export function newId(): string {
  return `${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${randomBytes(3).toString('hex')}`;
}

/** Appends to one journal run one after another within this process (replay runs workers in parallel). */
const appendQueues = new Map<string, Promise<void>>();

/**
 * Append one line and fsync it (the journal is the source of truth after a crash). A crash while
 * appending can leave a last line without its newline; the next append then starts on a new line,
 * so the torn line stays the only casualty (readLines skips it) instead of swallowing this entry.
 * The file lies in `<root>/.store-doctor/`, which must be trusted (tool-dir.ts), and is opened with
 * O_NOFOLLOW: a planted symlink or hard link never makes a root-run repair append to another file.
 */
export async function appendLine(file: string, value: unknown): Promise<void> {
  const prev = appendQueues.get(file) ?? Promise.resolve();
  const run = prev.then(() => appendNow(file, [value], true));
  const tail = run.catch(() => undefined);
  appendQueues.set(file, tail);
  try {
    await run;
  } finally {
    if (appendQueues.get(file) === tail) appendQueues.delete(file);
  }
}

async function appendNow(file: string, values: unknown[], sync: boolean): Promise<void> {
  const j = await openJournalAppender(file);
  try {
    await j.append(values, { sync });
  } finally {
    await j.close();
  }
}

/** A journal held open for many appends (a replay's outcome lines): checked once; each append one write, fsyncs shared. */
export interface JournalAppender {
  /** Append lines with one write; fsync unless `sync: false` (then they survive a kill, not a power loss). */
  append(values: unknown[], opts?: { sync?: boolean }): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Open a journal for appending: `<root>/.store-doctor` must be trusted, the file is opened with
 * O_NOFOLLOW and must be a regular file we trust (one link, our owner, not group/world-writable);
 * the writes then go to that inode, whatever later happens to the name. A torn last line (crash
 * while appending) gets its newline first, so it stays the only casualty.
 */
export async function openJournalAppender(file: string): Promise<JournalAppender> {
  const dir = path.dirname(file);
  const root = path.dirname(dir);
  await ensureToolDir(root);
  const created = !(await fsp.lstat(file).then(
    () => true,
    () => false,
  ));
  let fh: fsp.FileHandle;
  try {
    fh = await openIn(root, file, APPEND_FLAGS, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new RefusedError([`${file} is a symlink; Store Doctor never appends through a link`]);
    throw err;
  }
  let lead = '';
  try {
    const st = await fh.stat();
    const why = untrustedReason(file, st, 'file', await trustedOwners(root));
    if (why) throw new RefusedError([why]);
    if (st.size > 0) {
      const last = Buffer.alloc(1);
      await fh.read(last, 0, 1, st.size - 1);
      if (last[0] !== 0x0a) lead = '\n';
    }
    if (created) {
      if (process.getuid?.() === 0) {
        // A new journal is owned like its folder (the root's owner, see ensureToolDir); only root may chown.
        const owner = await ownerOf(dir);
        await fh.chown(owner.uid, owner.gid).catch(() => undefined);
      }
      await fh.sync();
      await fsyncDir(root, dir); // the new journal's directory entry must survive too
    }
  } catch (err) {
    await fh.close();
    throw err;
  }
  // An fsync never holds a write back: it runs beside the writes and covers every write finished
  // before it started, so a worker recording a line does not wait for another batch's fsync.
  let chain: Promise<unknown> = Promise.resolve();
  const queue = <T>(f: () => Promise<T>): Promise<T> => {
    const run = chain.then(f);
    chain = run.catch(() => undefined);
    return run;
  };
  let syncing: Promise<void> | null = null;
  let nextSync: Promise<void> | null = null;
  const startSync = (): Promise<void> => {
    const run = fh.sync();
    const mine = run.then(
      () => undefined,
      () => undefined,
    );
    syncing = mine;
    void mine.then(() => {
      if (syncing === mine) syncing = null;
    });
    return run;
  };
  // An fsync asked for while one runs starts after it (the running one may predate the caller's
  // write); every caller that asks meanwhile shares that next fsync.
  const syncNow = (): Promise<void> => {
    if (nextSync) return nextSync;
    if (!syncing) return startSync();
    const after = syncing;
    const next = after.then(() => {
      if (nextSync === next) nextSync = null;
      return startSync();
    });
    nextSync = next;
    return next;
  };
  // Each append is one synchronous write(2) of its lines, in call order (O_APPEND; a few hundred
  // bytes into the page cache): no thread-pool round trip, which under load kept each replay
  // worker waiting twice per chunk. The fsync, when asked, runs beside later writes (above).
  let closed = false;
  return {
    append: (values, opts = {}) => {
      if (!values.length) return Promise.resolve();
      try {
        if (closed) throw new Error(`${file}: the journal is closed`);
        const buf = Buffer.from(lead + values.map((v) => JSON.stringify(v) + '\n').join(''));
        for (let off = 0; off < buf.length;) off += writeSync(fh.fd, buf, off, buf.length - off);
        lead = '';
      } catch (err) {
        return Promise.reject(err as Error);
      }
      return (opts.sync ?? true) ? syncNow() : Promise.resolve();
    },
    sync: () => queue(async () => undefined).then(syncNow),
    close: () =>
      queue(async () => {
        closed = true;
        await (nextSync ?? syncing)?.catch(() => undefined);
        await fh.close();
      }),
  };
}

/** State (and bytes) of a file an action will change: read through the safe reader (no link, regular files only). */
export async function fileState(p: string): Promise<{ state: FileState; bytes: Buffer | null }> {
  try {
    const { bytes, stat: st } = await safeReadFile(p, { maxBytes: MAX_BACKUP });
    return { state: { exists: true, size: bytes.length, sha256: sha256(bytes), mode: st.mode & 0o7777, uid: st.uid, gid: st.gid }, bytes };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err instanceof SafeReadError && err.code === 'ENOENT'))
      return { state: { exists: false }, bytes: null };
    throw err;
  }
}

export async function currentAfter(p: string): Promise<AfterState> {
  const { state } = await fileState(p);
  return state.exists ? { exists: true, sha256: state.sha256, size: state.size } : { exists: false };
}

export interface OpenedAction {
  id: string;
  entry: ActionEntry;
  journal: string;
  /** Append `applied` with the after-state of every file change (given, or read from disk). */
  applied(verified: boolean, after?: Record<string, AfterState>): Promise<void>;
  failed(message: string): Promise<void>;
  /** Nothing was changed: the entry is closed and `undo` skips it. */
  abandon(message: string): Promise<void>;
}

/**
 * Back up every file the action will change and append the `action` entry (fsynced) — call this
 * BEFORE changing anything, so a crash mid-action can still be undone.
 */
export async function openAction(opts: {
  rootPath: string;
  storePath: string;
  action: RepairAction;
  summary: string;
  changes: ChangeSpec[];
  undoable?: boolean;
  undoNote?: string;
  /** Index actions: the bucket evidence the value rests on (see journal-schema.ts). */
  evidence?: ActionEntry['evidence'];
}): Promise<OpenedAction> {
  const dir = await ensureToolDir(opts.rootPath);
  const id = newId();
  const changes: UndoChange[] = [];
  let n = 0;
  for (const c of opts.changes) {
    if (c.kind !== 'file') {
      changes.push(c);
      continue;
    }
    const { state, bytes } = await fileState(c.path);
    if (bytes) {
      const owner = await ownerOf(dir);
      await ensureToolSubdir(opts.rootPath, path.join(dir, 'backups'));
      await ensureToolSubdir(opts.rootPath, path.join(dir, 'backups', id));
      state.backup = path.join('backups', id, `${n++}-${path.basename(c.path)}`);
      await atomicWriteFile(opts.rootPath, path.join(dir, state.backup), bytes, { mode: 0o600, owner });
    }
    changes.push({ kind: 'file', path: c.path, before: state });
  }
  const entry: ActionEntry = {
    type: 'action',
    id,
    at: new Date().toISOString(),
    action: opts.action,
    storePath: opts.storePath,
    rootPath: opts.rootPath,
    summary: opts.summary.slice(0, 4000),
    changes,
    undoable: opts.undoable ?? true,
    ...(opts.undoNote ? { undoNote: opts.undoNote } : {}),
    ...(opts.evidence?.length ? { evidence: opts.evidence } : {}),
  };
  const journal = path.join(dir, JOURNAL_FILE);
  await appendLine(journal, entry);
  await fsyncDir(opts.rootPath, dir);
  return {
    id,
    entry,
    journal,
    async applied(verified: boolean, known?: Record<string, AfterState>) {
      const after: Record<string, AfterState> = {};
      for (const c of changes) if (c.kind === 'file') after[c.path] = known?.[c.path] ?? (await currentAfter(c.path));
      await appendLine(journal, { type: 'applied', id, at: new Date().toISOString(), verified, after });
    },
    async failed(message: string) {
      await appendLine(journal, { type: 'failed', id, at: new Date().toISOString(), message });
    },
    async abandon(message: string) {
      await appendLine(journal, { type: 'abandoned', id, at: new Date().toISOString(), message });
    },
  };
}
