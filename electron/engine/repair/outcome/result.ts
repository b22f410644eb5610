/** The result of a plan before any of it is applied: nothing done, nothing to doubt yet. */
import type { RepairPlan, RepairResult } from '../../../../shared/model';

export function startResult(plan: RepairPlan): RepairResult {
  return { action: plan.action, applied: false, summary: plan.summary, steps: [], undoId: null, verified: true, warnings: [...plan.warnings] };
}
