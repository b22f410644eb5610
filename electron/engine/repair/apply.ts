/**
 * One entry point to apply any plan this folder makes: the action that applies it is found in the
 * registry (actions/registry.ts) by `plan.details.kind`.
 * S3-backed actions need a client; the others work on the local store only. Verification is each
 * action's own read-back of what it wrote — nothing here rescans the store.
 *
 * Every plan that writes to a root is applied here under that root's write lock (write-lock.ts),
 * the one place it is taken: from before the caller's check that the plan still holds
 * (`underLock`: the session's basis check) until the action is done, so two writers — two CLI
 * runs, the app and a timer — never interleave. The root is resolved once, here, to its realpath
 * (a bucket root may be a symlink, which Fluent Bit follows): the lock, the journal and every path
 * of the plan are taken in that folder, and that folder is held open by descriptor for the whole
 * action (anchor.ts), so a link or folder changed meanwhile cannot send the writes elsewhere.
 *
 * Every action runs in one write frame made here (preconditions/write-frame.ts): the source check
 * before the lock, then — in the applier, right before and after its write — the process check
 * with the forced warning, the before/after snapshot of the store, and the undo journal's entry
 * (backups first; closed applied with the action's verdict, or failed). The applier declares what
 * it changes, writes and verifies.
 */
import type { PlanRoot, RepairPlan, RepairResult } from '../../../shared/model';
import { actionOfPlan, type ActionApplyOptions } from './actions';
import { takeWriteLock, writeFrame } from './preconditions';
import { assertNotRefused, RefusedError, startResult } from './outcome';
import { Anchor, isPlannedRoot, rebase, resolveWriteRoot, type WriteRoot } from './write';

export interface ApplyPlanOptions extends ActionApplyOptions {
  /** Run with the root's write lock held, before anything is written (the caller's check that the plan still holds). */
  underLock?: () => Promise<void> | void;
  /** What the root resolved to when the plan was made (confine.ts rootIdentity): checked before the lock is taken there. */
  expectRoot?: PlanRoot;
}

/** The root a plan writes to (undo: the root whose journal it undoes), or null when it writes nothing local. */
function writeRootOf(plan: RepairPlan): string | null {
  return plan.details ? actionOfPlan(plan).writeRoot(plan) : null;
}

export async function applyPlan(plan: RepairPlan, given: ApplyPlanOptions = {}): Promise<RepairResult> {
  // The action's write frame (preconditions/write-frame.ts): its prologue and epilogue, run by the applier around its write.
  const frame = writeFrame(given);
  const opts: ApplyPlanOptions = { ...given, frame };
  const d = plan.details;
  if (d?.kind !== 'undo') assertNotRefused(plan.refusals, opts.force); // refusals first (an archive needs no S3 connection to be refused)
  const rootPath = writeRootOf(plan);
  if (!rootPath) {
    await opts.underLock?.();
    return dispatch(plan, opts, null);
  }
  // An archive or a read-only store is refused before anything (the lock) is created in it.
  await frame.assertSource(rootPath);
  const root = await resolveWriteRoot(rootPath);
  if (opts.expectRoot !== undefined && !isPlannedRoot(root, opts.expectRoot))
    throw new RefusedError([
      `The plan is stale: ${root.path} now resolves to ${root.real}, not the folder the plan was made for (${opts.expectRoot.folder?.real ?? `unresolved: ${opts.expectRoot.problem}`}). Plan again.`,
    ]);
  // The root is held open from here on (anchor.ts), checked to be the folder just resolved: the
  // lock, the journal, the backups and every write of the action go through that descriptor.
  return Anchor.pinned(root.path, { dev: root.st.dev, ino: root.st.ino }, async () => {
    const release = await takeWriteLock(root.real, { action: plan.action });
    try {
      await opts.underLock?.();
      // Undo re-reads its journal and checks every path itself; the other plans are taken into the resolved folder.
      return await dispatch(d?.kind === 'undo' ? plan : rebase(plan, root.path, root.real), opts, root);
    } finally {
      await release();
    }
  });
}

function dispatch(plan: RepairPlan, opts: ApplyPlanOptions, root: WriteRoot | null): Promise<RepairResult> {
  if (!plan.details && plan.action !== 'undo') {
    assertNotRefused(plan.refusals, opts.force);
    return Promise.resolve({ ...startResult(plan), verified: true }); // nothing to apply, nothing to doubt
  }
  return actionOfPlan(plan).apply(plan, opts, root);
}
