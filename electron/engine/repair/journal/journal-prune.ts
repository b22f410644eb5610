/**
 * Keep a store's undo journal bounded (`<root>/.store-doctor/journal.jsonl` and its backups,
 * see ./journal.ts). Actions that run again and again — the guard's restores, a pre-start hook's
 * restore-index — would otherwise grow the journal and the backup folders without end.
 *
 * Only the newest `keep` actions (and every line about them) are kept; the journal is rewritten
 * atomically, then the backup folders of the dropped actions are removed. `undo` reverts the
 * newest action, so dropping the oldest ones never changes what it does. Lines that are not
 * journal entries (a torn line, garbage in a hostile store) are dropped with them; backup folders
 * are removed only when their name is an action id and they are real folders in the tool folder.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { atomicWriteFile, removeTree } from '../write';
import { JOURNAL_FILE, toolDir } from './journal';

export const JOURNAL_KEEP_ACTIONS = 100;
export const JOURNAL_MAX_BYTES = 1024 * 1024;
const ACTION_ID = /^\d{8}T\d{6}-[0-9a-f]{6}$/;

export interface PruneResult {
  removedActions: number;
  removedBackups: number;
  keptActions: number;
}

interface Line {
  text: string;
  id: string | null;
  type: string | null;
}

function parse(text: string): Line[] {
  const out: Line[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    try {
      const v = JSON.parse(raw) as { id?: unknown; type?: unknown };
      out.push({ text: raw, id: typeof v?.id === 'string' ? v.id : null, type: typeof v?.type === 'string' ? v.type : null });
    } catch {
      out.push({ text: raw, id: null, type: null });
    }
  }
  return out;
}

/** Prune the journal of `rootPath` to the newest `keep` actions (and at most `maxBytes`). */
export async function pruneJournal(rootPath: string, opts: { keep?: number; maxBytes?: number } = {}): Promise<PruneResult> {
  const keep = Math.max(1, opts.keep ?? JOURNAL_KEEP_ACTIONS);
  const maxBytes = opts.maxBytes ?? JOURNAL_MAX_BYTES;
  const dir = toolDir(rootPath);
  const file = path.join(dir, JOURNAL_FILE);
  const none: PruneResult = { removedActions: 0, removedBackups: 0, keptActions: 0 };
  const st = await fsp.lstat(file).catch(() => null);
  if (!st || !st.isFile()) return none;
  // A journal far beyond the bound is read only up to a limit: its newest part is what matters.
  const fh = await fsp.open(file, 'r');
  let text: string;
  let partial = false;
  try {
    const limit = Math.min(st.size, 16 * maxBytes);
    const buf = Buffer.alloc(limit);
    await fh.read(buf, 0, limit, st.size - limit);
    text = buf.toString('utf8');
    partial = limit < st.size;
    if (partial) text = text.slice(text.indexOf('\n') + 1);
  } finally {
    await fh.close();
  }
  const lines = parse(text);
  const actions = lines.filter((l) => l.type === 'action' && l.id !== null).map((l) => l.id as string);
  let kept = new Set(actions.slice(-keep));
  const size = (ids: Set<string>) => lines.filter((l) => l.id !== null && ids.has(l.id)).reduce((n, l) => n + Buffer.byteLength(l.text) + 1, 0);
  while (kept.size > 1 && size(kept) > maxBytes) kept = new Set([...kept].slice(1));
  const dropped = actions.filter((id) => !kept.has(id));
  const garbage = lines.some((l) => l.id === null || (l.type !== 'action' && !kept.has(l.id) && !dropped.includes(l.id)));
  if (!dropped.length && !garbage && !partial) return { ...none, keptActions: kept.size };
  const body = lines.filter((l) => l.id !== null && kept.has(l.id)).map((l) => l.text + '\n');
  await atomicWriteFile(rootPath, file, body.join(''), { mode: 0o600 });
  let removedBackups = 0;
  for (const id of dropped) {
    if (!ACTION_ID.test(id)) continue;
    const b = path.join(dir, 'backups', id);
    const bst = await fsp.lstat(b).catch(() => null);
    if (!bst?.isDirectory()) continue;
    await removeTree(rootPath, b);
    removedBackups++;
  }
  return { removedActions: dropped.length, removedBackups, keptActions: kept.size };
}
