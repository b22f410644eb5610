/**
 * The plans a session made, by id. A plan is applied at most once, only in the store it was made
 * for, and only while what it rests on (its basis) is unchanged. Plans expire after a while so a
 * forgotten review never turns into a write hours later.
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { RepairPlanRequest } from '../../../shared/contract';
import type { RepairPlan, ReplayItem } from '../../../shared/model';
import { EngineError } from './errors';

export type StoredPlan = RepairPlan & { replayItems?: ReplayItem[] };

export interface PlanRecord {
  planId: string;
  storeId: string;
  request: RepairPlanRequest;
  plan: StoredPlan;
  /** Output the plan is for (null: undo). */
  outputId: number | null;
  createdAt: number;
}

const TTL_MS = 60 * 60 * 1000;
const MAX_PLANS = 200;

export class PlanStore {
  private readonly plans = new Map<string, PlanRecord>();

  add(rec: Omit<PlanRecord, 'planId' | 'createdAt'>): PlanRecord {
    this.prune();
    const planId = `plan-${randomBytes(12).toString('hex')}`;
    const full: PlanRecord = { ...rec, planId, createdAt: Date.now() };
    full.plan.planId = planId;
    this.plans.set(planId, full);
    return full;
  }

  get(storeId: string, planId: string): PlanRecord {
    this.prune();
    const rec = this.plans.get(planId);
    if (!rec || rec.storeId !== storeId)
      throw new EngineError('not-found', `no plan ${planId.slice(0, 40)} for this store (it was applied, replaced, or expired): plan again`);
    return rec;
  }

  delete(planId: string): void {
    this.plans.delete(planId);
  }

  /** Plans of a store that is closed or rescanned cannot be applied any more. */
  dropStore(storeId: string): void {
    for (const [id, rec] of this.plans) if (rec.storeId === storeId) this.plans.delete(id);
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, rec] of this.plans) if (now - rec.createdAt > TTL_MS) this.plans.delete(id);
    while (this.plans.size >= MAX_PLANS) this.plans.delete(this.plans.keys().next().value!);
  }
}

/** Local files and folders a plan writes, moves or deletes (absolute paths inside the store). */
export function changedPaths(plan: RepairPlan): string[] {
  const d = plan.details;
  const local = plan.steps.map((s) => s.target).filter((t) => path.isAbsolute(t));
  switch (d?.kind) {
    case 'replay': {
      const out = d.items.filter((i) => i.state === 'planned').map((i) => path.join(d.rootPath, i.chunkPath));
      if (d.outputId !== null && d.hasIndex) out.push(path.join(d.rootPath, 'sequence', 'index_metadata', `seq_index_${d.outputId}`));
      return [...out, ...local];
    }
    case 'multipart':
      return [...new Set([...d.records, ...d.settle.map((s) => s.recordPath).filter((p): p is string => !!p), ...local])];
    case 'restore':
      return d.subplans.flatMap(changedPaths);
    case 'protect-shadow':
    case 'recover':
      return [];
    default:
      return local;
  }
}
