/** What every write action declares (the registry, registry.ts, lists one of these per action name). */
import type { S3Client } from '@aws-sdk/client-s3';
import type { PlanDetails, Progress, RepairAction, RepairPlan, RepairResult, ReplayItem } from '../../../../shared/model';
import type { WriteFrame, WriteTestHooks } from '../preconditions';
import type { WriteRoot } from '../write';
import type { ActionOptions, DiagnosisContext } from './context';

/** How an action is applied (applyPlan's options without its lock-time hooks). */
export interface ActionApplyOptions {
  force?: boolean;
  /** Tests only: do not look for processes using the store. */
  skipProcessCheck?: boolean;
  client?: S3Client | null;
  concurrency?: number;
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
  /** Tests: e.g. change the store while an action runs. */
  hooks?: WriteTestHooks;
  /** The action's write frame (preconditions/write-frame.ts): applyPlan makes it, the applier runs it. */
  frame?: WriteFrame;
}

/** Where an action may write. */
export type WriteTarget = 'store' | 'bucket' | 'shadow';

export interface ActionDef {
  readonly name: RepairAction;
  /** The `details.kind`s of its plans. */
  readonly kinds: readonly PlanDetails['kind'][];
  /** What it may write: the store (its root, with the journal), the bucket, the shadow folder outside the store. */
  readonly writes: readonly WriteTarget[];
  /** It records itself in the root's undo journal (and backs up what it overwrites). */
  readonly journaled: boolean;
  /** The bucket it needs: asked while planning (ListParts, ListObjectVersions) and/or written when applied. */
  readonly bucket: { readonly plan: boolean; readonly apply: boolean };
  /**
   * Of several outputs on the store, it takes the one with `$INDEX` (the session and the planner
   * both read this: one rule). Refusing an output without `$INDEX` is `refuseRequest`'s.
   */
  readonly prefersIndexOutput: boolean;
  /**
   * What refuses the request before planning, beyond the plan's own refusals: the session asks
   * this with the output picked and whether an S3 connection was given. Null: nothing.
   */
  refuseRequest(q: RequestFacts): string | null;
  /** The one planner of this action (undefined: planned elsewhere, e.g. salvage by storagePath.salvagePlan). */
  plan?(ctx: DiagnosisContext, opts: ActionOptions): Promise<RepairPlan & { replayItems?: ReplayItem[] }>;
  /** The root the plan writes to (undo: the root whose journal it undoes), or null when it writes nothing local. */
  writeRoot(plan: RepairPlan): string | null;
  /** Apply the plan (applyPlan has taken the root's lock and resolved it: `root`). */
  apply(plan: RepairPlan, opts: ActionApplyOptions, root: WriteRoot | null): Promise<RepairResult>;
}

export interface RequestFacts {
  /** The output the request is about (null: none could be picked; the planner then says why). */
  target: { id: number; displayName: string; keyFormat: string; hasIndex: boolean } | null;
  /** An S3 connection was given. */
  connection: boolean;
  /** Offline object versions are loaded for the target (recover-versions can plan from them). */
  versionsEvidence: boolean;
}

/** The S3 client an applier needs, or the error that says so. */
export function needClient(plan: RepairPlan, opts: ActionApplyOptions): S3Client {
  if (!opts.client) throw new Error(`${plan.action} needs an S3 connection`);
  return opts.client;
}

export const noRequestRefusal = (): null => null;
