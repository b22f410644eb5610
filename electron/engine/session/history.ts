/**
 * `history.list`: the actions applied to an opened store, read from its undo journals with the
 * journal's own hardened reader (repair/journal/journal-read.ts: trust checks of `.store-doctor/`, every
 * line checked by the journal schema, bounded size) — what, when, by whom, the result, and whether
 * (and when) it was undone. A journal that fails a check is not read; the note says why. Read-only.
 */
import type { HistoryEntry, HistoryList } from '../../../shared/model';
import { findJournals, journalTrustProblems, readJsonLines, readUndoState } from '../repair/journal';
import { journalEntrySchema, type ActionEntry, type JournalEntry } from '../repair/journal';
import type { StoreSession } from './registry';

type Outcome = Exclude<JournalEntry, ActionEntry>;

function resultOf(lines: Outcome[]): Pick<HistoryEntry, 'result' | 'resultText' | 'resultAt'> {
  const applied = lines.find((l) => l.type === 'applied') as Extract<Outcome, { type: 'applied' }> | undefined;
  if (applied)
    return applied.verified
      ? { result: 'verified', resultText: 'applied and verified: what was written was read back as planned', resultAt: applied.at }
      : { result: 'applied', resultText: 'applied, but the check after writing did not confirm every change', resultAt: applied.at };
  const abandoned = lines.find((l) => l.type === 'abandoned') as Extract<Outcome, { type: 'abandoned' }> | undefined;
  if (abandoned) return { result: 'abandoned', resultText: `nothing was changed: ${abandoned.message}`, resultAt: abandoned.at };
  const failed = lines.find((l) => l.type === 'failed') as Extract<Outcome, { type: 'failed' }> | undefined;
  if (failed) return { result: 'failed', resultText: `failed: ${failed.message}`, resultAt: failed.at };
  return { result: 'incomplete', resultText: 'no outcome recorded: interrupted while it was applied (undo puts back what it changed)', resultAt: null };
}

function uidOf(entry: ActionEntry): number | null {
  const uid = (entry as { uid?: unknown }).uid;
  return typeof uid === 'number' && Number.isInteger(uid) && uid >= 0 ? uid : null;
}

export async function readHistory(s: StoreSession): Promise<HistoryList> {
  if (s.report.source.kind === 'archive')
    return { entries: [], journals: [], note: 'An archive is read-only: nothing was ever applied to it here (its journal, if it has one, is not read).' };
  const found = await findJournals(s.path);
  const next = (await readUndoState(s.path)).view;
  const entries: HistoryEntry[] = [];
  const journals: string[] = [];
  const problems: string[] = [];
  for (const { root, journal } of found) {
    const trust = await journalTrustProblems(root);
    const read = trust.length ? { records: [] as JournalEntry[], problems: trust } : await readJsonLines(journal, journalEntrySchema);
    if (read.problems.length) {
      problems.push(...read.problems);
      continue;
    }
    journals.push(journal);
    const lines = read.records;
    const outcomes = new Map<string, Outcome[]>();
    for (const l of lines) {
      if (l.type === 'action') continue;
      let list = outcomes.get(l.id);
      if (!list) outcomes.set(l.id, (list = []));
      list.push(l);
    }
    for (const e of lines) {
      if (e.type !== 'action') continue;
      const out = outcomes.get(e.id) ?? [];
      const result = resultOf(out);
      const undone = out.filter((l) => l.type === 'undone').at(-1);
      const undoFailed = out.filter((l) => l.type === 'undo-failed').at(-1) as Extract<Outcome, { type: 'undo-failed' }> | undefined;
      let undo: HistoryEntry['undo'];
      if (undone) undo = { state: 'undone', text: 'undone', at: undone.at };
      else if (result.result === 'abandoned') undo = { state: 'nothing', text: 'nothing to undo', at: null };
      else if (!e.undoable) undo = { state: 'not-undoable', text: e.undoNote ?? 'cannot be undone', at: null };
      else if (undoFailed) undo = { state: 'undo-failed', text: `the last undo did not complete: ${undoFailed.message}`, at: undoFailed.at };
      else if (next && next.journal === journal && next.entry.id === e.id) undo = { state: 'next', text: 'undo takes this one next', at: null };
      else undo = { state: 'later', text: 'undoable after the newer actions are undone', at: null };
      entries.push({
        id: e.id,
        at: e.at,
        action: e.action,
        summary: e.summary,
        rootPath: e.rootPath,
        journal,
        uid: uidOf(e),
        ...result,
        undo,
        changes: Array.isArray(e.changes) ? e.changes.length : 0,
      });
    }
  }
  entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return {
    entries,
    journals,
    note: problems.length ? `Not read (the undo journal fails a check, so its actions are not listed): ${problems.join('; ')}` : null,
  };
}
