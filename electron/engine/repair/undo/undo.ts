/**
 * `undo`: put back what the newest not-yet-undone action of a store changed — previous bytes,
 * mode and owner, or the previous absence; directories it created (when still empty); chunks it
 * moved. The journal is hostile input: an entry is undone only after every change it names passed
 * undo-check.ts (paths inside its own root, backups, modes, owners); otherwise it is refused, not
 * forceable, and nothing of it is applied. Refuses (forceable) when a file changed after the
 * action, e.g. Fluent Bit advanced the index since: undoing then would throw that newer value away.
 *
 * Every step is idempotent and the undo resumable: an `undo-started` entry (fsynced before the
 * first change) records what each file held, a file already back in its state before the action
 * is the undo's own doing, a removed folder or file that is already gone is done. So an undo
 * killed at any point is completed by the next undo, without force.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { PlanStep, RepairPlan, RepairResult } from '../../../../shared/model';
import { atomicWriteFile, durableMove, durableUnlink, removeDir, sweepOwnTemps } from '../write';
import { appendLine, currentAfter, type AfterState, type UndoChange } from '../journal';
import { readJournal, readUndoState, type JournalView } from '../journal';
import { checkAction, type CheckedChange } from './undo-check';
import { resolveWriteRoot, type WriteRoot } from '../write';
import { checkWriteAllowed, noteCheck, type WriteFrame, writeFrame, type WriteTestHooks } from '../preconditions';
import { assertNotRefused, finishPlan, RefusedError, startResult } from '../outcome';
import { safeReadFile } from '../../store/safe-read';
import { judgeIndexUndo } from './undo-index';
import type { UsedIndexEvidence } from '../../../../shared/model';

function describe(c: UndoChange, action = 'the action'): PlanStep {
  if (c.kind === 'mkdir')
    return {
      kind: 'rmdir',
      target: c.path,
      description: `remove ${path.basename(c.path)}/, the folder ${action} created (it did not exist before; removed only if empty)`,
    };
  if (c.kind === 'move') return { kind: 'move', target: c.from, description: `move ${c.to} back to ${c.from}` };
  return c.before.exists
    ? {
        kind: 'write-file',
        target: c.path,
        description: `restore the previous ${c.before.size} bytes (mode ${c.before.mode?.toString(8)})`,
        before: null,
        after: null,
      }
    : {
        kind: 'delete-file',
        target: c.path,
        description: /^seq_index_\d+$/.test(path.basename(c.path))
          ? `remove ${path.basename(c.path)}: it did not exist before ${action}, so this brings the missing index (the reset) back`
          : `remove the file: it did not exist before ${action}`,
      };
}

/** The folder whose `.store-doctor/journal.jsonl` this is. */
/** The root whose journal this is (`<root>/.store-doctor/journal.jsonl`). */
export function journalRoot(journal: string): string {
  return path.dirname(path.dirname(journal));
}

const same = (a: AfterState | undefined, b: AfterState) => !!a && a.exists === b.exists && (!a.exists || a.sha256 === b.sha256);

/** The state an undo step puts a file back into. */
function beforeOf(c: Extract<CheckedChange, { kind: 'file' }>): AfterState {
  const b = c.change.before;
  return b.exists ? { exists: true, sha256: b.sha256, size: b.size } : { exists: false };
}

/**
 * What each file of the action may hold now without anything else having written it: the state
 * the action left (or, after an interrupted undo, the state that undo started from) — or the
 * state before the action, which an interrupted undo already put back (its own change, never
 * someone else's: undoing it again discards nothing).
 */
function reference(view: JournalView, c: Extract<CheckedChange, { kind: 'file' }>): AfterState | undefined {
  return view.undoStarted?.[c.change.path] ?? view.after?.[c.change.path];
}

/** Files that changed after the action (or after an interrupted undo of it began), as refusal texts. */
async function changedSince(view: JournalView, checked: CheckedChange[]): Promise<string[]> {
  const out: string[] = [];
  for (const c of checked) {
    if (c.kind !== 'file') continue;
    const ref = reference(view, c);
    if (!ref) continue;
    const now = await currentAfter(c.real);
    if (!same(ref, now) && !same(beforeOf(c), now))
      out.push(`${c.change.path} changed after the action (something else wrote it since); undoing would discard that change.`);
  }
  return out;
}

/**
 * The `undo-started` states: what each file holds right before this undo changes it. A file an
 * earlier, interrupted undo already put back keeps that undo's reference, so a later re-run still
 * knows what the action had left there.
 */
async function startStates(view: JournalView, checked: CheckedChange[]): Promise<Record<string, AfterState>> {
  const states: Record<string, AfterState> = {};
  for (const c of checked) {
    if (c.kind !== 'file') continue;
    const now = await currentAfter(c.real);
    const ref = reference(view, c);
    states[c.change.path] = same(beforeOf(c), now) && ref ? ref : now;
  }
  return states;
}

function refuse(plan: RepairPlan, reasons: string[], summary: string): RepairPlan {
  for (const reason of reasons) plan.refusals.push({ reason, forceable: false });
  plan.summary = summary;
  return plan;
}

export async function planUndo(
  storePath: string,
  opts: {
    force?: boolean;
    skipProcessCheck?: boolean;
    archive?: boolean;
    readOnlySource?: boolean;
    /** The session's current `$INDEX` evidence per output id: an index undo is judged against it too. */
    currentEvidence?: (rootPath: string) => Map<number, UsedIndexEvidence>;
  } = {},
): Promise<RepairPlan> {
  const abs = path.resolve(storePath);
  const plan: RepairPlan = { action: 'undo', storePath: abs, rootPath: null, summary: '', why: [], steps: [], warnings: [], refusals: [] };
  // An archive or a read-only store holds nothing we may write (and no journal we wrote).
  const src = await checkWriteAllowed(abs, { archive: opts.archive, readOnlySource: opts.readOnlySource, skipProcessCheck: true });
  if (src.refusals.length) {
    plan.refusals.push(...src.refusals);
    plan.summary = `Cannot undo anything in ${abs}.`;
    return plan;
  }
  const state = await readUndoState(abs);
  if (state.problems.length) return refuse(plan, state.problems, `Cannot undo: a journal of ${abs} cannot be trusted; nothing is undone.`);
  const last = state.view;
  if (!last) {
    plan.summary = 'Nothing to undo: no action is recorded for this store.';
    return plan;
  }
  const e = last.entry;
  plan.rootPath = last.root;
  plan.details = { kind: 'undo', journal: last.journal, id: e.id };
  const root = await resolveWriteRoot(last.root);
  const checked = await checkAction(last, root);
  if (checked.problems.length)
    return refuse(
      plan,
      checked.problems,
      `Refusing to undo ${e.action} ${e.id}: its journal entry fails ${checked.problems.length} check(s); nothing of it is undone.`,
    );
  plan.summary = `Undo ${e.action} ${e.id} of ${e.at}: ${e.summary}`;
  plan.why.push(`Newest action in ${last.journal} that is not undone yet (${last.status}).`);
  if (root.real !== root.path) plan.why.push(`The root ${root.path} is a symlink to ${root.real}: the undo writes there.`);
  if (!e.undoable) plan.refusals.push({ reason: e.undoNote ?? `${e.action} cannot be undone.`, forceable: false });
  for (const c of [...checked.changes].reverse()) {
    const step = describe(c.change, e.action);
    if (c.kind === 'file') {
      const now = await currentAfter(c.real);
      step.before = now.exists ? `${now.size} bytes` : null;
      step.after = c.change.before.exists ? `${c.change.before.size} bytes` : null;
      if (c.backup && c.backup.length <= 64) step.after = c.backup.toString('latin1');
      if (now.exists && now.size !== undefined && now.size <= 64)
        step.before = (await safeReadFile(c.real, { maxBytes: 64, head: true })).bytes.toString('latin1');
    }
    plan.steps.push(step);
  }
  for (const reason of await changedSince(last, checked.changes)) plan.refusals.push({ reason, forceable: true });
  const judged = judgeIndexUndo(e, checked.changes, opts.currentEvidence?.(last.root));
  plan.why.push(...judged.why);
  for (const reason of judged.refusals) plan.refusals.push({ reason, forceable: true });
  if (judged.atRisk.length) plan.details.atRisk = judged.atRisk;
  const check = await checkWriteAllowed(root.real, { skipProcessCheck: opts.skipProcessCheck });
  plan.refusals.push(...check.refusals);
  plan.warnings.push(...check.warnings);
  return finishPlan(plan, opts.force);
}

export interface UndoApplyOptions {
  force?: boolean;
  skipProcessCheck?: boolean;
  hooks?: WriteTestHooks;
  /** The write frame applyPlan made (preconditions/write-frame.ts); absent: made from these options. */
  frame?: WriteFrame;
  /** The root as resolved (and locked) by applyPlan; else resolved here. */
  writeRoot?: WriteRoot;
}

export async function applyUndo(plan: RepairPlan, opts: UndoApplyOptions = {}): Promise<RepairResult> {
  const d = plan.details?.kind === 'undo' ? plan.details : undefined;
  const result = startResult(plan);
  assertNotRefused(plan.refusals, opts.force);
  if (!d) return { ...result, summary: plan.summary };
  const root = opts.writeRoot ?? (await resolveWriteRoot(journalRoot(d.journal)));
  if (root.path !== path.resolve(journalRoot(d.journal))) throw new Error(`${d.journal}: not the journal of ${root.path}`);
  // Read and check the entry again, right before writing: the store may have changed since the plan.
  const read = await readJournal(root.path, d.journal);
  if (read.problems.length) throw new RefusedError(read.problems);
  const last = read.view;
  if (!last || last.entry.id !== d.id) throw new Error('the journal changed since the undo was planned; plan again');
  const e = last.entry;
  if (!e.undoable) throw new RefusedError([e.undoNote ?? `${e.action} cannot be undone.`]);
  const checked = await checkAction(last, root);
  if (checked.problems.length) throw new RefusedError(checked.problems);
  const frame = writeFrame(opts);
  noteCheck(result, await frame.checkWrite(root.real));
  // Re-check right before writing: a file changed since the plan (Fluent Bit started?) is refused.
  if (!opts.force) {
    const changed = await changedSince(last, checked.changes);
    if (changed.length) throw new RefusedError(changed);
  }
  // Recorded (fsynced) before the first change: a re-run after a kill recognises this undo's partial
  // changes as its own, also when it was forced past a file that had changed.
  await appendLine(last.journal, { type: 'undo-started', id: e.id, at: new Date().toISOString(), states: await startStates(last, checked.changes) });
  const snap = await frame.snapshot(root.real);
  let verified = true;
  for (const c of [...checked.changes].reverse()) {
    const step = describe(c.change, e.action);
    try {
      if (c.kind === 'file') {
        const before = c.change.before;
        if (before.exists) {
          const exact = before.mode !== undefined ? { mode: before.mode, uid: c.owner?.uid, gid: c.owner?.gid } : null;
          const w = await atomicWriteFile(root.real, c.real, c.backup!, { mode: before.mode, owner: c.owner, exact });
          result.warnings.push(...w.warnings);
          if ((await currentAfter(c.real)).sha256 !== before.sha256) verified = false;
        } else {
          await durableUnlink(root.real, c.real);
          if ((await currentAfter(c.real)).exists) verified = false;
        }
        result.steps.push({ step, ok: true, message: before.exists ? 'restored' : 'removed' });
      } else if (c.kind === 'mkdir') {
        try {
          await sweepOwnTemps(root.real, c.real); // a write killed in there left its temp file: ours, not content
          await removeDir(root.real, c.real);
          result.steps.push({ step, ok: true, message: 'removed' });
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          const msg = code === 'ENOENT' ? 'already gone' : code === 'ENOTEMPTY' || code === 'EEXIST' ? 'kept: not empty' : String(err);
          result.steps.push({ step, ok: code === 'ENOENT' || code === 'ENOTEMPTY' || code === 'EEXIST', message: msg });
        }
      } else {
        const toThere = await fsp.lstat(c.realTo).then(
          () => true,
          () => false,
        );
        if (toThere) await durableMove(root.real, c.realTo, c.realFrom);
        result.steps.push({ step, ok: true, message: toThere ? 'moved back' : 'nothing to move back' });
      }
    } catch (err) {
      verified = false;
      result.steps.push({ step, ok: false, message: (err as Error).message });
    }
  }
  result.applied = true;
  result.verified = verified && result.steps.every((s) => s.ok);
  result.undoId = e.id;
  const touched = checked.changes.flatMap((c) => (c.kind === 'move' ? [c.realFrom, c.realTo] : [c.real]));
  await snap.end(result, touched, 'the undo');
  if (!result.verified) {
    // Not recorded as undone: the next `undo` retries this action instead of silently moving on to an older one.
    await appendLine(last.journal, {
      type: 'undo-failed',
      id: e.id,
      at: new Date().toISOString(),
      message: result.steps
        .filter((s) => !s.ok)
        .map((s) => `${s.step.target}: ${s.message}`)
        .join('; ')
        .slice(0, 8000),
    });
    result.summary = `Undo of ${e.action} ${e.id} is INCOMPLETE (see the failed steps); it stays the last action: fix the cause and run undo again.`;
    return result;
  }
  await appendLine(last.journal, { type: 'undone', id: e.id, at: new Date().toISOString() });
  result.summary = `Undid ${e.action} ${e.id}.`;
  return result;
}

/** Plan + apply in one call. */
export async function undoLast(storePath: string, opts: { force?: boolean; skipProcessCheck?: boolean; hooks?: WriteTestHooks } = {}): Promise<RepairResult> {
  return applyUndo(await planUndo(storePath, opts), opts);
}
