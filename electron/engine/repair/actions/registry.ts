/**
 * The registry of write actions: one entry per action name, each from its own module. Everything
 * that differs by action — its planner, its applier, the root it writes, where it may write,
 * whether it keeps the undo journal, the bucket it needs, the refusals of a request — is read from
 * here (planAction, applyPlan, the session, the plan notes), so an action is added in one place.
 * The names are shared/model's REPAIR_ACTIONS; the type makes the registry cover every one.
 */
import type { RepairAction, RepairPlan } from '../../../../shared/model';
import { multipart } from './multipart';
import { protectIndex } from './protect-index';
import { recoverVersions } from './recover-versions';
import { repairIndex } from './repair-index';
import { replay } from './replay';
import { restoreIndex } from './restore-index';
import { salvage } from './salvage';
import type { ActionDef } from './types';
import { undo } from './undo';

export const ACTIONS: { readonly [A in RepairAction]: ActionDef & { readonly name: A } } = {
  'repair-index': { ...repairIndex, name: 'repair-index' },
  'protect-index': { ...protectIndex, name: 'protect-index' },
  'restore-index': { ...restoreIndex, name: 'restore-index' },
  undo: { ...undo, name: 'undo' },
  replay: { ...replay, name: 'replay' },
  multipart: { ...multipart, name: 'multipart' },
  'recover-versions': { ...recoverVersions, name: 'recover-versions' },
  salvage: { ...salvage, name: 'salvage' },
};

/** The action of a name, or undefined for a name no action has. */
export function actionDef(name: string): ActionDef | undefined {
  return Object.prototype.hasOwnProperty.call(ACTIONS, name) ? ACTIONS[name as RepairAction] : undefined;
}

/** The action that applies a plan: by its details' kind (what apply needs), else by its name. */
export function actionOfPlan(plan: RepairPlan): ActionDef {
  const kind = plan.details?.kind;
  const byKind = kind ? Object.values(ACTIONS).find((a) => a.kinds.includes(kind)) : undefined;
  const def = byKind ?? actionDef(plan.action);
  if (!def) throw new Error(`no action applies a plan of ${String(plan.action)}`);
  return def;
}
