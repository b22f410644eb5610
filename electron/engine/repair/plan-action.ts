/**
 * The one planner: every door (Electron IPC, HTTP host, CLI) plans every repair action here, from
 * a diagnosis context (report + config + evidence + diagnosis). The action's own module (actions/,
 * found in the registry) picks the output and its root — one rule, never another bucket's root —,
 * decides the index to write only from evidence that covers it, and calls its room's planner.
 */
import type { RepairAction, RepairPlan, ReplayItem } from '../../../shared/model';
import { ActionInputError, actionDef, type ActionOptions, type DiagnosisContext } from './actions';

export async function planAction(action: RepairAction, ctx: DiagnosisContext, opts: ActionOptions = {}): Promise<RepairPlan & { replayItems?: ReplayItem[] }> {
  const def = actionDef(action);
  if (!def?.plan) throw new ActionInputError(`unknown action ${String(action)}`);
  return def.plan(ctx, opts);
}
