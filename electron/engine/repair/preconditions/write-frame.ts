/**
 * The write frame: the prologue and epilogue every applier runs around its write, written once.
 * Prologue: the source check (an archive or read-only source is never written), the process
 * check right before writing (refused unless forced; its warnings, and the forced warning that
 * names what the force overrides, added to the result), the start of the before/after snapshot of the store, and the undo journal's entry
 * (every file the action changes backed up, the entry fsynced, before anything is changed).
 * Epilogue: the entry closed (`applied` with the action's read-back verdict, `failed` with its
 * error), the snapshot's diff ("the store changed during …") added to the result's warnings, and
 * the result marked applied. The applier only declares what it will change, writes and verifies.
 *
 * applyPlan (repair/apply.ts) makes one frame per action from its options and hands it to the
 * applier; an applier called without one (tests) makes it here from the same options, so the
 * rule lives in this file alone. Appliers never call checkWriteAllowed, snapshotStore or openAction
 * themselves (test/structure/write-frame.test.ts).
 */
import type { RepairPlan, RepairResult } from '../../../../shared/model';
import { type ActionEntry, type AfterState, type ChangeSpec, openAction } from '../journal';
import { assertNotRefused, forcedWarning, RefusedError } from '../outcome';
import { checkWriteAllowed, snapshotStore, type WriteTestHooks } from './write-check';

type Refusal = { reason: string; forceable: boolean };

export interface WriteFrameOptions {
  force?: boolean;
  /** Tests only: do not look for processes using the store. */
  skipProcessCheck?: boolean;
  /** Tests: e.g. change the store while an action runs. */
  hooks?: WriteTestHooks;
  /** The frame applyPlan made for this action; absent: made from the options above. */
  frame?: WriteFrame;
}

export interface WriteCheckOutcome {
  /** The process check's warnings (a shell whose working directory is in the root…). */
  warnings: string[];
  /** The forced warning when `force` overrides a refusal right before writing, else null. */
  forced: string | null;
}

export interface FrameSnapshot {
  /** Epilogue: the snapshot's diff after the write; its warning (if any) is added to `into.warnings`. */
  end(into: { warnings: string[] }, expected: string[], what: string): Promise<void>;
}

/** What a journaled write changes, and how its entry reads (the plan gives the action, store and summary). */
export interface JournaledSpec {
  /** The root written to: its journal, its backups, its snapshot. */
  root: string;
  /** The snapshot covers only these top-level folders of the root (undefined: all of it). */
  scope?: string[];
  /** What the snapshot's warning calls the write ("the repair"). */
  what: string;
  /** The process check's options of this moment (checkWrite's): the action's own refusals, or no check needed. */
  check?: { also?: Refusal[]; skipProcessCheck?: boolean };
  /** False: nothing local is changed, no entry is opened (the write still runs in the snapshot). */
  journal?: boolean;
  /** What will change, read after the snapshot started (e.g. a folder made only if absent). */
  changes: () => ChangeSpec[] | Promise<ChangeSpec[]>;
  undoable?: boolean;
  undoNote?: string;
  evidence?: ActionEntry['evidence'];
  /**
   * The bytes the plan was made on, as sha256 (null: the file was absent). The backup read is the
   * check: a file that changed since abandons the entry and refuses the write ("plan again").
   */
  expect?: { path: string; sha256: string | null };
}

/** What a journaled write returns: its read-back, for the entry and the snapshot. */
export interface JournaledOutcome {
  /** Every change read back as planned (the entry's `verified`). */
  verified: boolean;
  /** The files' after-states when the write knows them (else read from disk). */
  after?: Record<string, AfterState>;
  /** The paths the write was meant to change: the snapshot's diff leaves them out. */
  expected: string[];
}

export interface WriteFrame {
  /** An archive or read-only source is refused (never forceable); no process check. */
  assertSource(root: string): Promise<void>;
  /**
   * Right before writing: the process check of `root`, refused unless forced. `also`: the
   * action's own refusals of this moment, blocking by the same rule (after the check's own).
   * `skipProcessCheck`: this action needs no process check now (nothing local to write).
   */
  checkWrite(root: string, o?: { also?: Refusal[]; skipProcessCheck?: boolean }): Promise<WriteCheckOutcome>;
  /** Start the before/after snapshot of `root` (`scope`: only these top-level folders). */
  snapshot(root: string, scope?: string[]): Promise<FrameSnapshot>;
  /**
   * The checked, journaled write: the process check (its warnings and the forced warning go to
   * the result), the snapshot, the entry opened with the backups of `changes` (and `expect`
   * checked on them), then `write`; its error closes the entry as failed and is thrown on, its
   * outcome closes it as applied. The result gets the entry's id and `applied`; its `verified`
   * and summary stay the applier's.
   */
  journaled<T extends JournaledOutcome>(
    plan: RepairPlan,
    result: RepairResult,
    spec: JournaledSpec,
    write: (entry: ActionEntry | null) => Promise<T>,
  ): Promise<T>;
}

/** The frame of an applier: the one applyPlan handed it, else one made from its options. */
export function writeFrame(opts: WriteFrameOptions = {}): WriteFrame {
  if (opts.frame) return opts.frame;
  const frame: WriteFrame = {
    async assertSource(root) {
      assertNotRefused((await checkWriteAllowed(root, { skipProcessCheck: true })).refusals, false);
    },
    async checkWrite(root, o = {}) {
      const g = await checkWriteAllowed(root, { skipProcessCheck: opts.skipProcessCheck || o.skipProcessCheck });
      const refusals = [...g.refusals, ...(o.also ?? [])];
      assertNotRefused(refusals, opts.force);
      return { warnings: g.warnings, forced: opts.force ? forcedWarning(refusals) : null };
    },
    async snapshot(root, scope) {
      const w = await snapshotStore(root, opts.hooks, scope);
      return {
        async end(into, expected, what) {
          const changed = await w.warning(expected, what);
          if (changed) into.warnings.push(changed);
        },
      };
    },
    journaled: (plan, result, spec, write) => journaledWrite(frame, plan, result, spec, write),
  };
  return frame;
}

/** The process check's outcome in a result: its warnings, and what a force overrode right before writing. */
export function noteCheck(into: { warnings: string[] }, check: WriteCheckOutcome): void {
  for (const w of check.warnings) if (!into.warnings.includes(w)) into.warnings.push(w);
  if (check.forced && !into.warnings.includes(check.forced)) into.warnings.push(`Right before writing: ${check.forced}`);
}

/** The journaled write run with `frame`'s check and snapshot: the one rule, also for a frame that wraps another (tests). */
export async function journaledWrite<T extends JournaledOutcome>(
  frame: WriteFrame,
  plan: RepairPlan,
  result: RepairResult,
  spec: JournaledSpec,
  write: (entry: ActionEntry | null) => Promise<T>,
): Promise<T> {
  noteCheck(result, await frame.checkWrite(spec.root, spec.check));
  const snap = await frame.snapshot(spec.root, spec.scope);
  const changes = await spec.changes();
  const action =
    spec.journal === false
      ? null
      : await openAction({
          rootPath: spec.root,
          storePath: plan.storePath,
          action: plan.action,
          summary: plan.summary,
          changes,
          undoable: spec.undoable,
          undoNote: spec.undoNote,
          evidence: spec.evidence,
        });
  if (action && spec.expect) {
    const want = spec.expect;
    const c = action.entry.changes.find((x) => x.kind === 'file' && x.path === want.path);
    const sha = c?.kind === 'file' && c.before.exists ? (c.before.sha256 ?? null) : null;
    if (sha !== want.sha256) {
      await action.abandon(`${want.path} changed since the plan was made`);
      throw new RefusedError([`${want.path} changed since the plan was made (Fluent Bit running?): plan again.`]);
    }
  }
  result.undoId = action?.id ?? null;
  let out: T;
  try {
    out = await write(action?.entry ?? null);
  } catch (err) {
    await action?.failed((err as Error)?.message ?? String(err));
    throw err;
  }
  await action?.applied(out.verified, out.after);
  await snap.end(result, out.expected, spec.what);
  result.applied = true;
  return out;
}
