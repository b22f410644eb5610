/**
 * Did the tool's own `repair-index --apply` write the index file as it is now? The guard takes such
 * a value as final (Fluent Bit has not run since: repair-index writes only when no process uses the
 * root, which the guard checks as well). The root's journal is read as undo reads it (trusted only
 * under the tool folder's rules, schema-checked, bounded); its newest action must be a repair-index,
 * applied, whose recorded content of the file is the file's content now.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { readJournal } from '../repair/journal-read';
import { JOURNAL_FILE, toolDir } from '../repair/tool-dir';
import { safeReadFile } from '../store/safe-read';
import { parseSeqIndex } from '../store/seq-index';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function writtenByRepair(rootPath: string, id: number, value: number): Promise<boolean> {
  const file = path.join(rootPath, 'sequence', 'index_metadata', `seq_index_${id}`);
  const journal = path.join(toolDir(rootPath), JOURNAL_FILE);
  let { view } = await readJournal(rootPath, journal);
  // the file is written before the journal's "applied" line: wait for it (a verification's time)
  for (let i = 0; i < 40 && view?.status === 'incomplete' && view.entry.action === 'repair-index'; i++) {
    await sleep(50);
    ({ view } = await readJournal(rootPath, journal));
  }
  if (!view || view.status !== 'applied' || view.entry.action !== 'repair-index') return false;
  const after = view.after?.[file];
  if (!after?.exists || !after.sha256) return false;
  const bytes = (await safeReadFile(file, { maxBytes: 64 * 1024 })).bytes;
  return createHash('sha256').update(bytes).digest('hex') === after.sha256 && parseSeqIndex(bytes).valueText === String(value);
}
