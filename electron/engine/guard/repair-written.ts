/**
 * Did the tool's own `repair-index --apply` write the index file as it is now, on bucket evidence
 * that covered the value? The guard takes such a value as final (Fluent Bit has not run since:
 * repair-index writes only when no process uses the root, which the guard checks as well). The
 * root's journal is read as undo reads it (trusted only under the tool folder's rules,
 * schema-checked, bounded); its newest action must be a repair-index, applied, whose recorded
 * content of the file is the file's content now, and whose recorded evidence covers the value by
 * the rule an undo is judged by (repair/undo/undo-index.ts evidenceNotCovering). A forced value (no
 * evidence, or evidence that did not cover it) is not final.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { readJournal } from '../repair/journal';
import { JOURNAL_FILE, toolDir } from '../repair/write';
import { evidenceNotCovering } from '../repair/undo';
import { safeReadFile } from '../store/safe-read';
import { parseSeqIndex } from '../store/seq-index';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** final: written by repair-index on covering evidence; why: the reason a value repair-index wrote is not final. */
export interface RepairWritten {
  final: boolean;
  why?: string;
}

export async function writtenByRepair(rootPath: string, id: number, value: number): Promise<RepairWritten> {
  const file = path.join(rootPath, 'sequence', 'index_metadata', `seq_index_${id}`);
  const journal = path.join(toolDir(rootPath), JOURNAL_FILE);
  let { view } = await readJournal(rootPath, journal);
  // the file is written before the journal's "applied" line: wait for it (a verification's time)
  for (let i = 0; i < 40 && view?.status === 'incomplete' && view.entry.action === 'repair-index'; i++) {
    await sleep(50);
    ({ view } = await readJournal(rootPath, journal));
  }
  if (!view || view.status !== 'applied' || view.entry.action !== 'repair-index') return { final: false };
  const after = view.after?.[file];
  if (!after?.exists || !after.sha256) return { final: false };
  const bytes = (await safeReadFile(file, { maxBytes: 64 * 1024 })).bytes;
  if (createHash('sha256').update(bytes).digest('hex') !== after.sha256 || parseSeqIndex(bytes).valueText !== String(value)) return { final: false };
  const notCovering = evidenceNotCovering(
    view.entry.evidence?.find((e) => e.outputId === id),
    BigInt(value),
  );
  if (notCovering) return { final: false, why: `written by repair-index ${view.entry.id}, but ${notCovering}: not final` };
  return { final: true };
}
