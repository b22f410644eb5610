/**
 * Backups and the undo journal. They live in `<root>/.store-doctor/` (a dot-directory: Fluent Bit's
 * scanner and its graceful-stop cleanup never look at it, docs/fluent-bit-store-format.md#layout). Every action first backs
 * up what it will change, then appends (and fsyncs) an `action` entry, then changes things, then
 * appends `applied`. An undo restores the previous bytes (or absence), mode and owner exactly and
 * appends `undone`. The journal is JSON lines; a torn last line (crash while appending) is ignored.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { RepairAction } from '../../../shared/model';
import { OWN_DIR } from '../store/tree';
import { atomicWriteFile, fsyncDir, mkdirExact } from './atomic';

/** Store Doctor's own folder in a root (one name, shared with layout detection). */
export const TOOL_DIR = OWN_DIR;
export const JOURNAL_FILE = 'journal.jsonl';

export interface FileState {
  exists: boolean;
  /** Backup file, relative to the tool dir. */
  backup?: string;
  size?: number;
  sha256?: string;
  mode?: number;
  uid?: number;
  gid?: number;
}

export type UndoChange =
  | { kind: 'file'; path: string; before: FileState; after?: { exists: boolean; sha256?: string; size?: number } }
  | { kind: 'mkdir'; path: string }
  | { kind: 'move'; from: string; to: string };

export type ChangeSpec = { kind: 'file'; path: string } | { kind: 'mkdir'; path: string } | { kind: 'move'; from: string; to: string };

export interface ActionEntry {
  type: 'action';
  id: string;
  at: string;
  action: RepairAction;
  storePath: string;
  rootPath: string;
  summary: string;
  changes: UndoChange[];
  undoable: boolean;
  /** Why an action cannot be undone (replay: the objects are in the bucket). */
  undoNote?: string;
}
export type JournalEntry =
  | ActionEntry
  | { type: 'applied'; id: string; at: string; verified: boolean; after: Record<string, { exists: boolean; sha256?: string; size?: number }> }
  | { type: 'undone'; id: string; at: string }
  | { type: 'failed'; id: string; at: string; message: string }
  /** Nothing of the action was changed (e.g. its plan was found stale after the backup): never undone. */
  | { type: 'abandoned'; id: string; at: string; message: string }
  | { type: 'undo-failed'; id: string; at: string; message: string };

export function toolDir(rootPath: string): string {
  return path.join(rootPath, TOOL_DIR);
}

export function sha256(buf: Buffer): string {
  return createHash('sha256').update(buf).digest('hex');
}

export function newId(): string {
  return `${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${randomBytes(3).toString('hex')}`;
}

/**
 * Owner for what the tool creates under `dir` (a root, or `.store-doctor` in it): the folder's own
 * owner, so a later run as Fluent Bit's user (who owns the root) can still read and write it.
 */
async function ownerOf(dir: string): Promise<{ uid: number; gid: number }> {
  const st = await fsp.stat(dir);
  return { uid: st.uid, gid: st.gid };
}

/** Create `<root>/.store-doctor` (0700, owned like the root) and return it. */
export async function ensureToolDir(rootPath: string): Promise<string> {
  const dir = toolDir(rootPath);
  await mkdirExact(dir, 0o700, await ownerOf(rootPath));
  return dir;
}

/** Appends to one journal run one after another within this process (replay runs workers in parallel). */
const appendQueues = new Map<string, Promise<void>>();

/**
 * Append one line and fsync it (the journal is the source of truth after a crash). A crash while
 * appending can leave a last line without its newline; the next append then starts on a new line,
 * so the torn line stays the only casualty (readLines skips it) instead of swallowing this entry.
 */
export async function appendLine(file: string, value: unknown): Promise<void> {
  const prev = appendQueues.get(file) ?? Promise.resolve();
  const run = prev.then(() => appendNow(file, value));
  const tail = run.catch(() => undefined);
  appendQueues.set(file, tail);
  try {
    await run;
  } finally {
    if (appendQueues.get(file) === tail) appendQueues.delete(file);
  }
}

async function appendNow(file: string, value: unknown): Promise<void> {
  const created = !(await fsp.lstat(file).then(
    () => true,
    () => false,
  ));
  const fh = await fsp.open(file, 'a+', 0o600);
  try {
    const { size } = await fh.stat();
    let lead = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      await fh.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) lead = '\n';
    }
    await fh.appendFile(lead + JSON.stringify(value) + '\n');
    await fh.sync();
  } finally {
    await fh.close();
  }
  if (created) {
    // A new journal is owned like its folder (the root's owner, see ensureToolDir); only root may chown.
    if (process.getuid?.() === 0) {
      const owner = await ownerOf(path.dirname(file));
      await fsp.chown(file, owner.uid, owner.gid).catch(() => undefined);
    }
    await fsyncDir(path.dirname(file)); // the new journal's directory entry must survive too
  }
}

/** Parse a JSON-lines file; a torn or garbled line is skipped (it can only be the last one). */
export async function readLines<T>(file: string): Promise<T[]> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: T[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      /* torn line from a crash while appending */
    }
  }
  return out;
}

export async function fileState(p: string): Promise<{ state: FileState; bytes: Buffer | null }> {
  try {
    const st = await fsp.lstat(p);
    if (!st.isFile()) throw new Error(`${p}: not a regular file`);
    const bytes = await fsp.readFile(p);
    return { state: { exists: true, size: bytes.length, sha256: sha256(bytes), mode: st.mode & 0o7777, uid: st.uid, gid: st.gid }, bytes };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: { exists: false }, bytes: null };
    throw err;
  }
}

export async function currentAfter(p: string): Promise<{ exists: boolean; sha256?: string; size?: number }> {
  const { state } = await fileState(p);
  return state.exists ? { exists: true, sha256: state.sha256, size: state.size } : { exists: false };
}

export interface OpenedAction {
  id: string;
  entry: ActionEntry;
  journal: string;
  /** Append `applied` with the after-state of every file change (given, or read from disk). */
  applied(verified: boolean, after?: Record<string, { exists: boolean; sha256?: string; size?: number }>): Promise<void>;
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
      await mkdirExact(path.join(dir, 'backups'), 0o700, owner);
      await mkdirExact(path.join(dir, 'backups', id), 0o700, owner);
      state.backup = path.join('backups', id, `${n++}-${path.basename(c.path)}`);
      await atomicWriteFile(path.join(dir, state.backup), bytes, { mode: 0o600, owner });
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
    summary: opts.summary,
    changes,
    undoable: opts.undoable ?? true,
    ...(opts.undoNote ? { undoNote: opts.undoNote } : {}),
  };
  const journal = path.join(dir, JOURNAL_FILE);
  await appendLine(journal, entry);
  await fsyncDir(dir);
  return {
    id,
    entry,
    journal,
    async applied(verified: boolean, known?: Record<string, { exists: boolean; sha256?: string; size?: number }>) {
      const after: Record<string, { exists: boolean; sha256?: string; size?: number }> = {};
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

/** Journals of a store: `<store>/.store-doctor` (a root) and `<store>/<bucket>/.store-doctor` (a store_dir). */
export async function findJournals(storePath: string): Promise<string[]> {
  const out: string[] = [];
  const direct = path.join(storePath, TOOL_DIR, JOURNAL_FILE);
  if (await exists(direct)) out.push(direct);
  let names: string[] = [];
  try {
    names = await fsp.readdir(storePath);
  } catch {
    return out;
  }
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const p = path.join(storePath, name, TOOL_DIR, JOURNAL_FILE);
    if (await exists(p)) out.push(p);
  }
  return out;
}

async function exists(p: string): Promise<boolean> {
  return fsp.access(p).then(
    () => true,
    () => false,
  );
}

export interface JournalView {
  journal: string;
  entry: ActionEntry;
  after: Record<string, { exists: boolean; sha256?: string; size?: number }> | null;
  status: 'applied' | 'failed' | 'incomplete';
}

/** The newest action of the store that has not been undone (across its roots), or null. */
export async function lastUndoable(storePath: string): Promise<JournalView | null> {
  let best: JournalView | null = null;
  for (const journal of await findJournals(storePath)) {
    const lines = await readLines<JournalEntry>(journal);
    const undone = new Set(lines.filter((l) => l.type === 'undone' || l.type === 'abandoned').map((l) => l.id));
    for (const l of lines) {
      if (l.type !== 'action' || undone.has(l.id)) continue;
      const applied = lines.find((x) => x.type === 'applied' && x.id === l.id) as Extract<JournalEntry, { type: 'applied' }> | undefined;
      const failed = lines.some((x) => x.type === 'failed' && x.id === l.id);
      const view: JournalView = { journal, entry: l, after: applied?.after ?? null, status: applied ? 'applied' : failed ? 'failed' : 'incomplete' };
      if (!best || l.at >= best.entry.at) best = view;
    }
  }
  return best;
}

export async function readBackup(rootPath: string, backup: string): Promise<Buffer> {
  return fsp.readFile(path.join(toolDir(rootPath), backup));
}
