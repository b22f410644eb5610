/**
 * One entry point to apply any plan this folder makes: dispatches on `plan.details.kind`.
 * S3-backed actions need a client; the others work on the local store only. Verification is each
 * action's own read-back of what it wrote — nothing here rescans the store.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Progress, RepairPlan, RepairResult } from '../../../shared/model';
import { applyIndexPlan } from './index-repair';
import { applyMultipart } from './multipart';
import { applyProtectPlan } from './protect';
import { applyReplay } from './replay-run';
import { applyRestorePlan } from './restore';
import { applyUndo } from './undo';
import type { WriteTestHooks } from './guard';
import { assertNotRefused } from './errors';
import { applyRecoverVersions } from './versions';

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
}

export async function applyPlan(plan: RepairPlan, opts: ApplyPlanOptions = {}): Promise<RepairResult> {
  const d = plan.details;
  if (d?.kind !== 'undo') assertNotRefused(plan.refusals, opts.force); // refusals first (an archive needs no S3 connection to be refused)
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
      return applyUndo(plan, opts);
    case 'replay':
      return applyReplay(plan, { ...opts, client: needClient() });
    case 'multipart':
      return applyMultipart(plan, { ...opts, client: needClient() });
    case 'recover':
      return applyRecoverVersions(plan, { ...opts, client: needClient() });
    case undefined:
      if (plan.action === 'undo') return applyUndo(plan, opts);
      assertNotRefused(plan.refusals, opts.force);
      return { action: plan.action, applied: false, summary: plan.summary, steps: [], undoId: null, verified: true, warnings: [...plan.warnings] };
  }
}
