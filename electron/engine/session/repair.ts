/**
 * The one write pipeline every door goes through: a `repair.plan` request becomes a plan by the one
 * planner (repair/plan-action.ts) on the session's scan, config and evidence, stored under an id
 * with its basis; `repair.apply` applies exactly that plan once — after the confirmation, and only
 * while its basis holds — then merges what it changed into the session's report (no rescan).
 * `repair.import` takes a plan saved earlier and accepts it only when planning now gives the same.
 */
import * as path from 'node:path';
import type { Door, RepairPlanRequest } from '../../../shared/contract';
import type { Progress, RepairResult, SeqIndexInfo, StoreUpdate } from '../../../shared/model';
import { mergeStoreUpdate } from '../../../shared/store-update';
import { selectTargets } from '../diagnose';
import { ACTIONS, ActionInputError, applyPlan, confirmPhrase, pickTarget, planAction, planningScope, rootIdentity, type ActionOptions } from '../repair';
import { clientForOutput } from '../s3';
import { refreshRoot } from '../store/refresh';
import { diagnosisContext, evidenceMap } from './context';
import { EngineError } from './errors';
import { basisChanges, basisOf } from './fingerprint';
import { changedPaths, type PlanRecord, type PlanStore, type StoredPlan } from './plans';
import { bookkeepingSteps, processCheckOf } from './plan-notes';
import type { StoreSession } from './registry';

export interface WorkOptions {
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
}

function actionOptions(req: RepairPlanRequest): ActionOptions {
  return {
    outputId: req.outputId,
    value: req.value,
    force: req.force,
    method: req.method,
    shadowDir: req.shadowDir,
    includeActive: req.includeActive,
    time: req.time ? new Date(req.time) : undefined,
    compression: req.compression,
    decision: req.multipartDecision,
    abortOrphans: req.abortOrphans,
    prefix: req.prefix,
    recoveryPrefix: req.recoveryPrefix,
  };
}

/** The output a request is about, for its S3 settings (null for undo, or an output the planner will refuse). */
function targetOf(s: StoreSession, req: RepairPlanRequest) {
  if (req.action === 'undo') return null;
  try {
    return pickTarget(s, { outputId: req.outputId }, ACTIONS[req.action].prefersIndexOutput);
  } catch {
    return null;
  }
}

function asEngineError(err: unknown): unknown {
  if (err instanceof ActionInputError) return new EngineError('invalid-input', err.message);
  return err;
}

/** Plan one request on the session's current state (nothing is stored). */
/** Planning only reads: within one plan, the processes of a root are looked up once (procs.ts). */
function makePlan(s: StoreSession, door: Door, req: RepairPlanRequest, opts: WorkOptions): Promise<{ plan: StoredPlan; outputId: number | null }> {
  return planningScope(() => planNow(s, door, req, opts));
}

async function planNow(s: StoreSession, door: Door, req: RepairPlanRequest, opts: WorkOptions): Promise<{ plan: StoredPlan; outputId: number | null }> {
  // The shadow folder is a path the user typed (--shadow-dir, or the app's field), as a store's path
  // is: every door may name one; it must be absolute (the CLI resolves it), and the plan shows it.
  if (req.shadowDir !== undefined && !path.isAbsolute(req.shadowDir)) {
    throw new EngineError('invalid-input', `shadow folder "${req.shadowDir}": not an absolute path`);
  }
  const ctx = diagnosisContext(s, req.at);
  const target = targetOf(s, req);
  const def = ACTIONS[req.action];
  const client = def.bucket.plan && req.connection ? clientForOutput(target?.s3 ?? null, req.connection) : null;
  try {
    const refused = def.refuseRequest({ target, connection: !!client, versionsEvidence: !!(target && ctx.evidence.get(target.id)?.versions) });
    if (refused) throw new EngineError('refused', refused);
    const plan = await planAction(req.action, ctx, { ...actionOptions(req), client, signal: opts.signal });
    plan.confirm = plan.action === 'undo' ? undoPhrase(s, plan.rootPath) : target ? confirmPhrase(s, target) : undefined;
    plan.forced = !!req.force;
    const outputId = target?.id ?? null;
    plan.bookkeeping = bookkeepingSteps(plan);
    const processCheck = await processCheckOf(plan);
    if (processCheck) plan.processCheck = processCheck;
    plan.basis = await planBasis(s, plan, outputId, changedPaths(plan));
    return { plan, outputId };
  } catch (err) {
    throw asEngineError(err);
  } finally {
    client?.destroy();
  }
}

/**
 * The basis of a plan (session/fingerprint.ts) plus what its root resolves to: a bucket root may be
 * a symlink, and one swapped to another folder after planning makes the plan stale.
 */
async function planBasis(s: StoreSession, plan: { rootPath: string | null }, outputId: number | null, paths: string[]) {
  const basis = await basisOf(s.report, plan.rootPath, s.config, outputId !== null ? (evidenceMap(s).get(outputId) ?? null) : null, paths);
  if (plan.rootPath) basis.root = await rootIdentity(plan.rootPath);
  return basis;
}

function undoPhrase(s: StoreSession, rootPath: string | null): string | undefined {
  const root = s.report.roots.find((r) => r.path === rootPath);
  return root?.bucket ?? s.report.roots[0]?.bucket;
}

export async function planRequest(s: StoreSession, plans: PlanStore, door: Door, req: RepairPlanRequest, opts: WorkOptions): Promise<StoredPlan> {
  const { plan, outputId } = await makePlan(s, door, req, opts);
  return plans.add({ storeId: s.storeId, request: req, plan, outputId }).plan;
}

/** Steps and what they act on, without the texts that may differ between two runs (pids, times). */
function essence(p: StoredPlan): string {
  return JSON.stringify({
    action: p.action,
    rootPath: p.rootPath,
    steps: p.steps.map(({ kind, target, before, after }) => ({ kind, target, before, after })),
    details: p.details,
  });
}

/** Accept a plan saved earlier: plan the same request now; only the very same plan is accepted (under a new id). */
export async function importPlan(
  s: StoreSession,
  plans: PlanStore,
  door: Door,
  saved: StoredPlan,
  req: RepairPlanRequest,
  opts: WorkOptions,
): Promise<StoredPlan> {
  const { plan, outputId } = await makePlan(s, door, req, opts);
  const changes = saved.basis ? basisChanges(saved.basis, plan.basis!) : ['the saved plan has no basis'];
  if (!changes.length && essence(plan) !== essence(saved)) changes.push('planning the same request now gives a different plan');
  if (changes.length) throw new EngineError('refused', `The saved plan is stale: ${changes.join('; ')}. Plan again.`);
  return plans.add({ storeId: s.storeId, request: req, plan, outputId }).plan;
}

export interface ApplyContext {
  door: Door;
  /** Tell the live watch which paths are our own writes (and for how long). */
  ownWrites(paths: string[], active: boolean): void;
}

/** Read back what an applied plan changed in an open store and merge it into its report (no rescan). */
export async function updateReport(s: StoreSession, rec: Pick<PlanRecord, 'plan'>, result: RepairResult): Promise<StoreUpdate[]> {
  if (!result.applied || s.report.source.kind === 'archive') return [];
  const paths = changedPaths(rec.plan);
  const known = new Map<string, SeqIndexInfo>();
  const w = (result as { written?: SeqIndexInfo }).written;
  if (w && rec.plan.details?.kind === 'index') known.set(rec.plan.details.file, w);
  const updates: StoreUpdate[] = [];
  const roots = rec.plan.rootPath ? s.report.roots.filter((r) => r.path === rec.plan.rootPath) : s.report.roots;
  for (const root of roots) {
    const mine = paths.filter((p) => p === root.path || p.startsWith(root.path + '/'));
    if (!mine.length) continue;
    updates.push((await refreshRoot(root, mine, { known })).update);
  }
  s.report = mergeStoreUpdate(s.report, updates);
  return updates;
}

export async function applyRecord(
  s: StoreSession,
  plans: PlanStore,
  planId: string,
  confirm: string,
  actx: ApplyContext,
  opts: WorkOptions,
): Promise<RepairResult> {
  const rec = plans.get(s.storeId, planId);
  const plan = rec.plan;
  if (s.report.source.kind === 'archive') throw new EngineError('refused', 'an archive is opened read-only: extract it and open the folder to repair', s.path);
  if (s.changedSinceScan && plan.action !== 'undo') {
    plans.delete(planId);
    throw new EngineError(
      'refused',
      `the store changed at ${s.lastChangeAt ?? 'an unknown time'} after it was scanned (is Fluent Bit running?). Stop Fluent Bit, rescan, and plan again.`,
      s.path,
    );
  }
  if (plan.confirm !== undefined && confirm !== plan.confirm) throw new EngineError('refused', `type ${plan.confirm} to confirm this ${plan.action}`);
  plans.delete(planId); // one apply per plan, whatever happens next
  // Checked with the root's write lock held (applyPlan takes it): no other writer can change the
  // basis between this check and the write.
  const stillHolds = async () => {
    const now = await planBasis(s, plan, rec.outputId, plan.basis?.files.map((f) => f.path) ?? []);
    const changes = plan.basis ? basisChanges(plan.basis, now) : [];
    if (changes.length) throw new EngineError('refused', `The plan is stale: ${changes.join('; ')}. Plan again.`);
  };
  const target = rec.outputId !== null ? (selectTargets(s.report, s.config).find((t) => t.id === rec.outputId) ?? null) : null;
  const conn = rec.request.connection;
  const writesBucket = ACTIONS[plan.action].bucket.apply;
  if (writesBucket && !conn) throw new EngineError('refused', `${plan.action} writes to the bucket: plan it with the S3 connection`);
  const client = writesBucket && conn ? clientForOutput(target?.s3 ?? null, conn) : null;
  const paths = changedPaths(plan);
  actx.ownWrites(paths, true);
  try {
    const result = await applyPlan(plan, {
      underLock: stillHolds,
      expectRoot: plan.basis?.root,
      force: plan.forced,
      client,
      concurrency: rec.request.concurrency,
      signal: opts.signal,
      onProgress: opts.onProgress,
    });
    result.storeUpdate = await updateReport(s, rec, result);
    s.diagnosis = null;
    delete (result as { written?: unknown }).written;
    return result;
  } catch (err) {
    throw asEngineError(err);
  } finally {
    client?.destroy();
    actx.ownWrites(paths, false);
    // Any attempt may have written to the bucket: evidence listed before it is stale from now on.
    const bucket = bucketOf(plan) ?? target?.bucket;
    if (client && bucket) {
      s.bucketWrites[bucket] = { at: new Date().toISOString(), action: plan.action };
      s.diagnosis = null;
    }
  }
}

function bucketOf(plan: StoredPlan): string | null {
  const d = plan.details;
  return d?.kind === 'replay' || d?.kind === 'multipart' || d?.kind === 'recover' ? d.bucket : null;
}
