/**
 * One entry point to apply any plan this folder makes: dispatches on `plan.details.kind`.
 * S3-backed actions need a client; the others work on the local store only.
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
import { scanStore } from '../store';
import { applyRecoverVersions } from './versions';

export interface ApplyPlanOptions {
  force?: boolean;
  /** Tests only: do not look for processes using the store. */
  skipProcessCheck?: boolean;
  client?: S3Client | null;
  concurrency?: number;
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
  verifyRead?: (rootPath: string, outputId: number) => Promise<number | null>;
  /** Tests: e.g. change the store while an action runs. */
  hooks?: WriteTestHooks;
}

/** Independent check after an index write: what the store scanner (Fluent Bit's fscanf rule) reads now. */
export async function rescanIndex(rootPath: string, outputId: number): Promise<number | null> {
  const report = await scanStore(rootPath);
  const root = report.roots.find((r) => r.seqIndex.some((s) => s.outputId === outputId)) ?? report.roots[0];
  return root?.seqIndex.find((s) => s.outputId === outputId)?.value ?? null;
}

export async function applyPlan(plan: RepairPlan, opts: ApplyPlanOptions = {}): Promise<RepairResult> {
  const kind = (plan.details as { kind?: string } | undefined)?.kind;
  if (kind !== 'undo') assertNotRefused(plan.refusals, opts.force); // refusals first (an archive needs no S3 connection to be refused)
  const needClient = (): S3Client => {
    if (!opts.client) throw new Error(`${plan.action} needs an S3 connection (--live)`);
    return opts.client;
  };
  switch (kind) {
    case 'index':
      return applyIndexPlan(plan, { ...opts, verifyRead: opts.verifyRead ?? rescanIndex });
    case 'restore':
      return applyRestorePlan(plan, { ...opts, verifyRead: opts.verifyRead ?? rescanIndex });
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
    default:
      if (plan.action === 'undo') return applyUndo(plan, opts);
      throw new Error(`cannot apply a ${plan.action} plan without details`);
  }
}
