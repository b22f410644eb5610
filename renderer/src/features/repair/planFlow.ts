/**
 * One write flow (repair wizard, replay, multipart): choose → plan (dry run, diff) → type the
 * bucket name → apply (with progress, cancel) → verified result → undo. View state only: the
 * actions in `actions.ts` call the client and feed these setters.
 */
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { RequestResult } from '../../../../shared/contract';
import type { RepairAction, RepairResult } from '../../../../shared/model';
import { blockingRefusals } from '../../../../shared/refusals';

export type Phase = 'choose' | 'planning' | 'review' | 'applying' | 'applied' | 'cancelled';

export interface PlanParams {
  action: RepairAction;
  outputId: number | null;
  /** Typed override of the index value (repair-index); blank = the engine's safe value. */
  value: string;
  method: 'marker' | 'shadow';
  includeActive: boolean;
  force: boolean;
  /** Multipart: `auto` completes only uploads whose parts match; `complete`/`abort` every record's upload. */
  multipartDecision: 'auto' | 'complete' | 'abort';
  /** Multipart: also abort server uploads that have no local record. */
  abortOrphans: boolean;
  /** protect-index (shadow) / restore-index: the shadow folder, an absolute path; blank = the default (as --shadow-dir). */
  shadowDir: string;
  /** Assumed restart time for the diagnosis the plan rests on, ISO (UTC unless zoned); blank = now (as --at). */
  at: string;
}

export type Plan = RequestResult<'repair.plan'>;

export interface PlanFlowState {
  params: PlanParams;
  phase: Phase;
  plan: Plan | null;
  confirmText: string;
  result: RepairResult | null;
  /** The result of the last non-undo apply, kept so the user can undo it. */
  lastApplied: RepairResult | null;
  taskId: string | null;
  error: string | null;
  setParams(patch: Partial<PlanParams>): void;
  planning(): void;
  planned(plan: Plan): void;
  setConfirm(text: string): void;
  applying(taskId: string): void;
  applied(result: RepairResult): void;
  cancelled(message: string): void;
  fail(message: string): void;
  back(): void;
  reset(): void;
}

export function createPlanFlow(defaultAction: RepairAction): UseBoundStore<StoreApi<PlanFlowState>> {
  const initial = {
    params: {
      action: defaultAction,
      outputId: null,
      value: '',
      method: 'marker' as const,
      includeActive: false,
      force: false,
      multipartDecision: 'auto' as const,
      abortOrphans: false,
      shadowDir: '',
      at: '',
    },
    phase: 'choose' as Phase,
    plan: null,
    confirmText: '',
    result: null,
    lastApplied: null,
    taskId: null,
    error: null,
  };
  return create<PlanFlowState>()((set, get) => ({
    ...initial,
    setParams: (patch) => set({ params: { ...get().params, ...patch }, phase: 'choose', plan: null, confirmText: '', error: null }),
    planning: () => set({ phase: 'planning', error: null, result: null }),
    planned: (plan) => set({ phase: 'review', plan, confirmText: '', error: null }),
    setConfirm: (confirmText) => set({ confirmText }),
    applying: (taskId) => set({ phase: 'applying', taskId, error: null }),
    applied: (result) =>
      set({ phase: 'applied', result, taskId: null, lastApplied: result.action === 'undo' ? null : result.applied ? result : get().lastApplied }),
    cancelled: (message) => set({ phase: 'cancelled', taskId: null, error: message }),
    fail: (message) => set({ phase: get().plan ? 'review' : 'choose', taskId: null, error: message }),
    back: () => set({ phase: 'choose', plan: null, confirmText: '', error: null }),
    reset: () => set(initial),
  }));
}

export const useRepair = createPlanFlow('repair-index');
export const useReplay = createPlanFlow('replay');
export const useMultipart = createPlanFlow('multipart');

/** The phrase the user must type: the plan's own (the engine decides it), else the plan's root's bucket, else the output's. */
export function expectedBucket(plan: Plan | null, roots: readonly { path: string; bucket: string }[], outputBucket: string | null): string | null {
  if (plan?.confirm) return plan.confirm;
  if (plan?.rootPath) {
    const root = roots.find((r) => r.path === plan.rootPath);
    if (root) return root.bucket;
  }
  if (outputBucket) return outputBucket;
  if (roots.length === 1) return roots[0].bucket;
  return null;
}

export function canApply(s: PlanFlowState, expected: string | null, writesBlocked: boolean): boolean {
  if (writesBlocked || s.phase !== 'review' || !s.plan) return false;
  if (blockingRefusals(s.plan.refusals, s.params.force).length) return false;
  if (s.plan.steps.length === 0) return false;
  return expected ? s.confirmText === expected : s.confirmText.trim().length > 0;
}
