/**
 * Every apply result starts here, with one rule for `verified`: nothing is verified until the
 * action's own read-back (or the check of each step) says so, so a result starts unverified and
 * the action sets `verified` on every path that returns it — true for a plan with nothing to do.
 */
import type { RepairPlan, RepairResult } from '../../../../shared/model';
import { forcedWarning } from './errors';

export function startResult(plan: RepairPlan): RepairResult {
  return { action: plan.action, applied: false, summary: plan.summary, steps: [], undoId: null, verified: false, warnings: [...plan.warnings] };
}

/** A planner's empty plan: each planner fills in its summary, reasons, steps, warnings and refusals. */
export function startPlan(action: RepairPlan['action'], storePath: string, rootPath: string | null): RepairPlan {
  return { action, storePath, rootPath, summary: '', why: [], steps: [], warnings: [], refusals: [] };
}

/**
 * A planner's last step, the twin of startPlan: a plan made with force says first, above its
 * other warnings, which checks the force overrides (none: nothing is added).
 */
export function finishPlan<P extends RepairPlan>(plan: P, force: boolean | undefined): P {
  const forced = force ? forcedWarning(plan.refusals) : null;
  if (forced) plan.warnings.unshift(forced);
  return plan;
}
