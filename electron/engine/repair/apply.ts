/**
 * One entry point to apply any plan this folder makes: dispatches on `plan.details.kind`.
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
 */
import * as path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Progress, RepairPlan, RepairResult } from '../../../shared/model';
import { applyIndexPlan } from './index-actions';
import { applyMultipart } from './bucket';
import { applyProtectPlan } from './index-actions';
import { applyReplay } from './bucket';
import { applyRestorePlan } from './index-actions';
import { applyUndo } from './undo';
import { checkWriteAllowed, type WriteTestHooks } from './preconditions';
import { assertNotRefused, RefusedError } from './outcome';
import { applyRecoverVersions } from './bucket';
import { applySalvage } from './salvage';
import { identityOf, rebase, resolveWriteRoot, type WriteRoot } from './write';
import { takeWriteLock } from './preconditions';
import { Anchor } from './write';
import { startResult } from './outcome';

export interface ApplyPlanOptions {
  force?: boolean;
  /** Tests only: do not look for processes using the store. */
  skipProcessCheck?: boolean;
  client?: S3Client | null;
  concurrency?: number;
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
  /** Tests: e.g. change the store while an action runs. */
  hooks?: WriteTestHooks;
  /** Run with the root's write lock held, before anything is written (the caller's check that the plan still holds). */
  underLock?: () => Promise<void> | void;
  /** What the root resolved to when the plan was made (confine.ts rootIdentity): checked before the lock is taken there. */
  expectRoot?: string;
}

/** The root a plan writes to (undo: the root whose journal it undoes), or null when it writes nothing local. */
function writeRootOf(plan: RepairPlan): string | null {
  const d = plan.details;
  if (!d) return null;
  switch (d.kind) {
    case 'recover':
      return null;
    case 'undo':
      return path.dirname(path.dirname(d.journal));
    case 'index':
    case 'protect-marker':
    case 'protect-shadow':
      return d.noChange ? null : d.rootPath;
    case 'restore': {
      const sub = d.subplans.find((s) => s.details?.kind === 'index' && !s.details.noChange)?.details;
      return sub?.kind === 'index' ? sub.rootPath : null;
    }
    default:
      return d.rootPath;
  }
}

export async function applyPlan(plan: RepairPlan, opts: ApplyPlanOptions = {}): Promise<RepairResult> {
  const d = plan.details;
  if (d?.kind !== 'undo') assertNotRefused(plan.refusals, opts.force); // refusals first (an archive needs no S3 connection to be refused)
  const rootPath = writeRootOf(plan);
  if (!rootPath) {
    await opts.underLock?.();
    return dispatch(plan, opts, null);
  }
  // An archive or a read-only store is refused before anything (the lock) is created in it.
  assertNotRefused((await checkWriteAllowed(rootPath, { skipProcessCheck: true })).refusals, false);
  const root = await resolveWriteRoot(rootPath);
  if (opts.expectRoot !== undefined && identityOf(root) !== opts.expectRoot)
    throw new RefusedError([
      `The plan is stale: ${root.path} now resolves to ${root.real}, not the folder the plan was made for (${opts.expectRoot.replace(/^root@[^=]*=/, '')}). Plan again.`,
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
  const d = plan.details;
  const needClient = (): S3Client => {
    if (!opts.client) throw new Error(`${plan.action} needs an S3 connection`);
    return opts.client;
  };
  switch (d?.kind) {
    case 'index':
      return applyIndexPlan(plan, opts);
    case 'restore':
      return applyRestorePlan(plan, opts);
    case 'protect-marker':
    case 'protect-shadow':
      return applyProtectPlan(plan, opts);
    case 'undo':
      return applyUndo(plan, { ...opts, writeRoot: root ?? undefined });
    case 'replay':
      return applyReplay(plan, { ...opts, client: needClient() });
    case 'multipart':
      return applyMultipart(plan, { ...opts, client: needClient() });
    case 'recover':
      return applyRecoverVersions(plan, { ...opts, client: needClient() });
    case 'salvage':
      return applySalvage(plan, opts);
    case undefined:
      if (plan.action === 'undo') return applyUndo(plan, opts);
      assertNotRefused(plan.refusals, opts.force);
      return Promise.resolve(startResult(plan));
  }
}
