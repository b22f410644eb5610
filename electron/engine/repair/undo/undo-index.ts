/**
 * An undo is judged like every write: undoing an index action puts a seq_index file back to what it
 * held before (a value, or its absence — the reset the repair fixed). Before that is allowed, the
 * value it puts back is checked against the `$INDEX` values the evidence shows used: the evidence
 * recorded with the action (journal entry) and the session's current evidence. Putting back a
 * missing file or a value at or below the highest used index makes Fluent Bit make those keys
 * again and overwrite them: refused without force, and the plan names the keys at risk.
 */
import * as path from 'node:path';
import type { OutputDiagnosis, S3Evidence, UndoIndexRisk, UsedIndexEvidence } from '../../../../shared/model';
import type { ActionEntry } from '../journal';
import type { CheckedChange } from './undo-check';
import { fscanfU64 } from '../index-actions';

const MAX_KEYS = 200;
const SHOWN_KEYS = 10;

/** The index file of an output: `<root>/sequence/index_metadata/seq_index_<id>`. */
function outputIdOf(file: string): number | null {
  const m = /^seq_index_(\d{1,9})$/.exec(path.basename(file));
  if (!m || path.basename(path.dirname(file)) !== 'index_metadata' || path.basename(path.dirname(path.dirname(file))) !== 'sequence') return null;
  return Number(m[1]);
}

/** The evidence of one output's diagnosis as recorded with an action (and as the current evidence of an undo). */
export function usedEvidenceOf(out: OutputDiagnosis, ev: S3Evidence | null): UsedIndexEvidence {
  const keys = [...out.timeline]
    .sort((a, b) => b.index - a.index || (a.key < b.key ? -1 : 1))
    .slice(0, MAX_KEYS)
    .map((p) => ({ key: p.key, index: p.index }));
  return {
    outputId: out.id,
    coverage: out.indexEvidence.coverage,
    text: out.indexEvidence.text.slice(0, 8000),
    listedAt: ev?.listedAt ?? null,
    highestIndex: out.highestIndexInBucket,
    keys,
  };
}

/** A value above the highest `$INDEX` the evidence shows used: Fluent Bit makes no used key again from it. */
function aboveUsed(value: bigint, highest: number): boolean {
  return value > BigInt(highest);
}

/**
 * Does recorded evidence cover an index value as safe — the one rule an undo and the guard judge a
 * recorded value by: the listing covered the key format (`complete`, or a `window`; not `stale`,
 * `incomplete`, `none`, `unusable`) and the value is above the highest `$INDEX` it shows used (a
 * complete listing with no key used covers any value). Returns null when covered, else why not.
 */
export function evidenceNotCovering(e: UsedIndexEvidence | undefined, value: bigint): string | null {
  if (!e) return 'no bucket evidence is recorded with it (a forced value)';
  if (e.coverage !== 'complete' && e.coverage !== 'window') return `its recorded bucket evidence is ${e.coverage} (${e.text})`;
  if (e.highestIndex !== null && !aboveUsed(value, e.highestIndex))
    return `its recorded bucket evidence shows $INDEX ${e.highestIndex} used, not below ${value} (${e.text})`;
  return null;
}

function describeSource(e: UsedIndexEvidence, what: string): string {
  return `${what}: highest $INDEX ${e.highestIndex} (${e.text}${e.listedAt ? `, listed ${e.listedAt}` : ''})`;
}

export interface UndoJudgement {
  refusals: string[];
  why: string[];
  atRisk: UndoIndexRisk[];
}

/**
 * Judge the index files an undo puts back (see the module comment). `current`: the session's
 * current evidence per output id (none when the undo is planned without a diagnosis).
 */
export function judgeIndexUndo(entry: ActionEntry, checked: CheckedChange[], current?: Map<number, UsedIndexEvidence>): UndoJudgement {
  const out: UndoJudgement = { refusals: [], why: [], atRisk: [] };
  for (const c of checked) {
    if (c.kind !== 'file') continue;
    const id = outputIdOf(c.change.path);
    if (id === null) continue;
    const before = c.change.before;
    const restored = before.exists ? (c.backup ? fscanfU64(c.backup) : null) : null;
    if (before.exists && restored === null) continue; // a file Fluent Bit refuses to start with: no index to judge
    const sources = [
      { e: entry.evidence?.find((x) => x.outputId === id), what: `the evidence recorded with ${entry.action} ${entry.id}` },
      { e: current?.get(id), what: 'the current evidence' },
    ].filter((s): s is { e: UsedIndexEvidence; what: string } => !!s.e && s.e.highestIndex !== null);
    const name = `seq_index_${id}`;
    if (!sources.length) {
      out.why.push(`${name}: no evidence of the $INDEX values already used is recorded or at hand; the undo is not checked against the bucket.`);
      continue;
    }
    const highest = Math.max(...sources.map((s) => s.e.highestIndex!));
    const next = restored ?? 0n;
    const srcText = sources.map((s) => describeSource(s.e, s.what)).join('; ');
    if (aboveUsed(next, highest)) {
      out.why.push(`${name}: the undo puts back ${restored}, above the highest $INDEX used (${highest}) — ${srcText}.`);
      continue;
    }
    const keys = new Map<string, number>();
    for (const s of sources) for (const k of s.e.keys) if (BigInt(k.index) >= next) keys.set(k.key, k.index);
    const listed = [...keys.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k]) => k);
    out.atRisk.push({ outputId: id, file: c.change.path, restored: restored === null ? null : restored.toString(), highestIndex: highest, keys: listed });
    const state =
      restored === null ? 'missing again (the reset the repair fixed): Fluent Bit then starts at $INDEX 0' : `at ${restored}: Fluent Bit then continues there`;
    const shown = listed.length
      ? ` Keys at risk (overwritten when Fluent Bit makes them again, with the same tag and time fields of the key format): ${listed.slice(0, SHOWN_KEYS).join(', ')}${listed.length > SHOWN_KEYS ? ` and ${listed.length - SHOWN_KEYS} more` : ''}.`
      : '';
    out.refusals.push(
      `Undoing ${entry.action} ${entry.id} leaves ${name} ${state}, but $INDEX ${highest} is already used — ${srcText}.${shown} Keep the repair, or force.`,
    );
  }
  return out;
}
