/**
 * Reading a store's undo journals back. A store is hostile input: a journal is used only when its
 * `.store-doctor/` folder and the file itself are trusted (tool-dir.ts: no symlink, one name, owned
 * by the caller, root or the root folder's owner, not writable by others), it is read with
 * O_NOFOLLOW and a size limit, and every line must match the journal schema (journal-schema.ts).
 * A torn line (not JSON: a crash while appending) is skipped; a JSON line that is not an entry
 * the tool writes makes the whole journal untrusted — which action is the newest, and whether it
 * was undone, can then not be told. What an entry names is checked by undo-check.ts.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { ZodType } from 'zod';
import { safeReadFile, SafeReadError } from '../../store/safe-read';
import { RefusedError } from '../outcome';
import { issueText, journalEntrySchema, type ActionEntry, type AfterState, type JournalEntry } from './journal-schema';
import { JOURNAL_FILE, lstatOrNull, toolDir, toolDirProblems, TOOL_DIR, trustedOwners, untrustedReason } from '../write';

/** Largest journal read (one action is ~1 KiB: years of repairs). */
export const MAX_JOURNAL = 64 * 1024 * 1024;

/** Parse a JSON-lines file against `schema`; torn (non-JSON) lines are skipped, other mismatches reported. */
export async function readJsonLines<T>(file: string, schema: ZodType<T>, maxBytes = MAX_JOURNAL): Promise<{ records: T[]; problems: string[] }> {
  let text: string;
  try {
    text = (await safeReadFile(file, { maxBytes })).bytes.toString('utf8');
  } catch (err) {
    if (err instanceof SafeReadError && err.code === 'ENOENT') return { records: [], problems: [] };
    if (err instanceof SafeReadError) return { records: [], problems: [err.message] };
    throw err;
  }
  const records: T[] = [];
  const problems: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // torn line from a crash while appending
    }
    const r = schema.safeParse(value);
    if (r.success) records.push(r.data);
    else if (problems.length < 5) problems.push(`${file} line ${i + 1}: not a journal entry Store Doctor writes (${issueText(r.error)})`);
  }
  return { records, problems };
}

/** Why the journal of `root` cannot be trusted (empty: it can, or there is none). */
export async function journalTrustProblems(root: string): Promise<string[]> {
  const trusted = await trustedOwners(root);
  const dirProblems = await toolDirProblems(root, trusted);
  if (dirProblems.length) return dirProblems;
  const journal = path.join(toolDir(root), JOURNAL_FILE);
  const st = await lstatOrNull(journal);
  const why = st && untrustedReason(journal, st, 'file', trusted);
  return why ? [why] : [];
}

/**
 * Roots of a store that have a `.store-doctor` (the store itself when it is a root, and each
 * folder in it — a symlinked root too, as Fluent Bit follows it), with their journal path.
 */
export async function findJournals(storePath: string): Promise<{ root: string; journal: string }[]> {
  const out: { root: string; journal: string }[] = [];
  const candidates = [storePath];
  for (const name of await fsp.readdir(storePath).catch(() => [] as string[])) {
    if (name.startsWith('.')) continue;
    const p = path.join(storePath, name);
    const st = await fsp.stat(p).catch(() => null);
    if (st?.isDirectory()) candidates.push(p);
  }
  for (const root of candidates) {
    if (await lstatOrNull(path.join(root, TOOL_DIR))) out.push({ root, journal: path.join(root, TOOL_DIR, JOURNAL_FILE) });
  }
  return out;
}

export interface JournalView {
  journal: string;
  /** The folder whose `.store-doctor` holds the journal, as found (the entry must name it). */
  root: string;
  entry: ActionEntry;
  after: Record<string, AfterState> | null;
  /** The states the latest (interrupted) undo of this action started from, if one started. */
  undoStarted: Record<string, AfterState> | null;
  status: 'applied' | 'failed' | 'incomplete';
}

/** The newest action of one journal's entries that is not undone (or abandoned). */
function newestOf(journal: string, root: string, lines: JournalEntry[]): JournalView | null {
  const closed = new Set(lines.filter((l) => l.type === 'undone' || l.type === 'abandoned').map((l) => l.id));
  let best: JournalView | null = null;
  for (const l of lines) {
    if (l.type !== 'action' || closed.has(l.id)) continue;
    let applied: Extract<JournalEntry, { type: 'applied' }> | undefined;
    let started: Extract<JournalEntry, { type: 'undo-started' }> | undefined;
    let failed = false;
    for (const x of lines) {
      if (x.id !== l.id) continue;
      if (x.type === 'applied') applied = x;
      else if (x.type === 'undo-started') started = x;
      else if (x.type === 'failed') failed = true;
    }
    const view: JournalView = {
      journal,
      root,
      entry: l,
      after: applied?.after ?? null,
      undoStarted: started?.states ?? null,
      status: applied ? 'applied' : failed ? 'failed' : 'incomplete',
    };
    if (!best || l.at >= best.entry.at) best = view;
  }
  return best;
}

/** Read one journal (trusted or not): its newest undoable action, or the problems that stop its use. */
export async function readJournal(root: string, journal: string): Promise<{ view: JournalView | null; problems: string[] }> {
  const trust = await journalTrustProblems(root);
  if (trust.length) return { view: null, problems: trust };
  const { records, problems } = await readJsonLines(journal, journalEntrySchema);
  if (problems.length) return { view: null, problems };
  return { view: newestOf(journal, root, records), problems: [] };
}

/**
 * The newest action of the store not undone yet, across its roots — or, when any journal of the
 * store cannot be trusted, no action and the problems (which action is the newest is then unknown).
 */
export async function readUndoState(storePath: string): Promise<{ view: JournalView | null; problems: string[] }> {
  let best: JournalView | null = null;
  const problems: string[] = [];
  for (const { root, journal } of await findJournals(storePath)) {
    const r = await readJournal(root, journal);
    problems.push(...r.problems);
    if (r.view && (!best || r.view.entry.at >= best.entry.at)) best = r.view;
  }
  return { view: problems.length ? null : best, problems };
}

/** The newest action of the store that has not been undone (across its roots), or null. Refused when a journal is untrusted. */
export async function lastUndoable(storePath: string): Promise<JournalView | null> {
  const r = await readUndoState(storePath);
  if (r.problems.length) throw new RefusedError(r.problems);
  return r.view;
}
