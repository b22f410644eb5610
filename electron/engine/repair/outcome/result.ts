/**
 * Every apply result starts here, with one rule for `verified`: nothing is verified until the
 * action's own read-back (or the check of each step) says so, so a result starts unverified and
 * the action sets `verified` on every path that returns it — true for a plan with nothing to do.
 */
import type { RepairPlan, RepairResult } from '../../../../shared/model';

export function startResult(plan: RepairPlan): RepairResult {
  return { action: plan.action, applied: false, summary: plan.summary, steps: [], undoId: null, verified: false, warnings: [...plan.warnings] };
}
