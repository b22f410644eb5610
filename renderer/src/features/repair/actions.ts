/** Plan and apply writes (repair wizard, replay, multipart) through `repair.plan` / `repair.apply`. */
import type { RequestInput } from '../../../../shared/contract';
import type { PlanFlowState } from './planFlow';
import { connectionInput, useEvidence } from '../../state/evidence';
import { useSession } from '../../state/session';
import type { StoreApi } from 'zustand';
import { cancelTask, describeError, isCancelled, runTask } from '../../actions/run';
import { listLive, runDiagnosis } from '../../actions/evidence';
import { loadHistory } from './history-actions';
import { loadStorage, mergeOwnWrite } from '../../actions/store';

type Flow = StoreApi<PlanFlowState>;

/** Whether the action writes or reads a shadow folder: protect-index with the shadow method, restore-index. */
export function usesShadowDir(p: PlanFlowState['params']): boolean {
  return (p.action === 'protect-index' && p.method === 'shadow') || p.action === 'restore-index';
}

/** The assumed restart time as the CLI's --at reads it (UTC unless it has a zone): ISO, null when blank, 'invalid'. */
export function restartTime(text: string): string | null {
  const t = text.trim();
  if (t === '') return null;
  const ms = Date.parse(/(Z|[+-]\d\d:?\d\d)$/i.test(t) || !t.includes('T') ? t : `${t}Z`);
  return Number.isNaN(ms) ? 'invalid' : new Date(ms).toISOString();
}

function planInput(flow: Flow): RequestInput<'repair.plan'> | null {
  const opened = useSession.getState().opened;
  if (!opened) return null;
  const { params } = flow.getState();
  const input: RequestInput<'repair.plan'> = { storeId: opened.storeId, action: params.action };
  const outputId = params.outputId ?? useEvidence.getState().outputId;
  if (outputId != null) input.outputId = outputId;
  if (params.action === 'repair-index' && params.value.trim() !== '') input.value = Number(params.value.trim());
  if (params.action === 'protect-index') input.method = params.method;
  if (params.action === 'replay') input.includeActive = params.includeActive;
  if (params.action === 'multipart') {
    if (params.multipartDecision !== 'auto') input.multipartDecision = params.multipartDecision;
    if (params.abortOrphans) input.abortOrphans = true;
  }
  if (params.force) input.force = true;
  if (usesShadowDir(params) && params.shadowDir.trim() !== '') input.shadowDir = params.shadowDir.trim();
  const at = restartTime(params.at);
  if (at) input.at = at;
  if (params.action === 'replay' || params.action === 'multipart' || params.action === 'recover-versions') {
    input.connection = connectionInput(useEvidence.getState().connection);
  }
  return input;
}

function shadowRelative(flow: Flow): boolean {
  const p = flow.getState().params;
  return usesShadowDir(p) && p.shadowDir.trim() !== '' && !p.shadowDir.trim().startsWith('/');
}

export async function makePlan(flow: Flow): Promise<void> {
  const input = planInput(flow);
  if (!input) return;
  const value = flow.getState().params.value.trim();
  if (input.at === 'invalid') {
    flow.getState().fail(`"${flow.getState().params.at.trim()}" is not an ISO time (e.g. 2026-11-29T18:40:00Z; a time without a zone is UTC).`);
    return;
  }
  if (shadowRelative(flow)) {
    flow.getState().fail(`The shadow folder "${flow.getState().params.shadowDir.trim()}" is not an absolute path.`);
    return;
  }
  if (input.action === 'repair-index' && value !== '' && !/^\d+$/.test(value)) {
    flow.getState().fail(`"${value}" is not an index: type a whole number, or leave it blank for the safe value.`);
    return;
  }
  flow.getState().planning();
  try {
    const plan = await runTask('repair.plan', input, `Planning ${input.action}`);
    flow.getState().planned(plan);
  } catch (e) {
    flow.getState().fail(describeError(e, 'Planning'));
  }
}

/** Apply exactly the plan under review (its id), then take what changed from the result: no rescan. */
export async function applyReviewedPlan(flow: Flow): Promise<void> {
  const opened = useSession.getState().opened;
  const plan = flow.getState().plan;
  if (!opened || !plan?.planId) return;
  if (useSession.getState().changed) {
    flow.getState().fail('The store changed on disk: writes are blocked until you rescan.');
    return;
  }
  const confirm = flow.getState().confirmText;
  try {
    const result = await runTask('repair.apply', { storeId: opened.storeId, planId: plan.planId, confirm }, `Applying ${plan.action}`, {
      onStart: (taskId) => flow.getState().applying(taskId),
    });
    flow.getState().applied(result);
    mergeOwnWrite(opened.storeId, result.storeUpdate);
  } catch (e) {
    if (isCancelled(e)) flow.getState().cancelled('Cancelled. What was done before the cancel stays done; plan it again to resume.');
    else flow.getState().fail(describeError(e, 'Applying'));
    return;
  }
  await Promise.all([runDiagnosis(), loadStorage(), loadHistory()]);
  // Our own write to the bucket made the live listing stale (the engine says so): list it again.
  if (BUCKET_WRITERS.has(plan.action) && useEvidence.getState().evidence?.source === 'live') {
    const full = useEvidence.getState().evidence?.coverage === 'full';
    await listLive({ fullListing: full });
  }
}

const BUCKET_WRITERS: ReadonlySet<string> = new Set(['replay', 'multipart', 'recover-versions']);

export async function cancelApply(flow: Flow): Promise<void> {
  const taskId = flow.getState().taskId;
  if (taskId) await cancelTask(taskId);
}

/** Start undoing the last applied change: plan the undo and show its diff. */
export async function reviewUndo(flow: Flow): Promise<void> {
  flow.getState().setParams({ action: 'undo', force: false });
  await makePlan(flow);
}
