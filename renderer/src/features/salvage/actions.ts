/**
 * Salvage from the Chunks view, through the same session requests as `store-doctor salvage`
 * (storagePath.salvagePlan with the one chunk → storagePath.salvageApply → storagePath.undoPlan):
 * for a storage.path chunk Fluent Bit rejects and for a store_dir chunk the S3 output rejects.
 * After a write the storage.path is read again; a store's report takes what the engine read back
 * (the result's storeUpdate), as after every write.
 */
import type { ChunkInfo, RepairResult } from '../../../../shared/model';
import { getClient } from '../../client';
import type { PlanFlowState } from '../repair/state';
import { useSalvage, useSalvageTarget, type SalvageTarget } from './state';
import { useSession } from '../../state/session';
import { useStoragePath } from '../../state/storagePath';
import type { StoreApi } from 'zustand';
import { loadHistory } from '../repair';
import { describeError, runTask } from '../../actions/run';
import { loadStorage, mergeOwnWrite } from '../../actions/store';
import { runDiagnosis } from '../../actions/evidence';

type Flow = StoreApi<PlanFlowState>;

/** Why a store_dir chunk is not salvaged (null: offered; the plan has the last word). */
export function storeSalvageRefusal(c: ChunkInfo, streamKind: string | undefined, readOnly: boolean): string | null {
  if (readOnly) return 'the store was opened read-only (an archive): extract it and open the folder';
  if (streamKind && streamKind !== 'data') return `a ${streamKind} file, not a data chunk`;
  switch (c.status) {
    case 'truncated':
    case 'bad-magic':
      return null;
    case 'too-short':
      return 'shorter than a chunk header: nothing to keep';
    case 'crc-mismatch':
      return 'the S3 output loads it anyway (its store opens without checksums)';
    case 'zero-byte':
      return 'empty: Fluent Bit re-initialises it, nothing to keep';
    case 'unreadable':
      return 'Store Doctor could not read it';
    default:
      return 'Fluent Bit loads it: nothing to salvage';
  }
}

/** Start the salvage of one chunk: plan it and show the plan for review. */
export async function startSalvage(target: SalvageTarget): Promise<void> {
  useSalvageTarget.getState().set(target);
  useSalvage.getState().reset();
  await planSalvage(useSalvage);
}

export async function planSalvage(flow: Flow): Promise<void> {
  const target = useSalvageTarget.getState().target;
  if (!target) return;
  const { action, force } = flow.getState().params;
  flow.getState().planning();
  try {
    const plan =
      action === 'undo'
        ? await runTask('storagePath.undoPlan', { path: target.path, ...(force ? { force } : {}) }, 'Planning the undo')
        : await runTask('storagePath.salvagePlan', { path: target.path, chunks: [target.chunk], ...(force ? { force } : {}) }, 'Planning the salvage');
    flow.getState().planned(plan);
  } catch (e) {
    flow.getState().fail(describeError(e, 'Planning'));
  }
}

export async function applySalvage(flow: Flow): Promise<void> {
  const target = useSalvageTarget.getState().target;
  const plan = flow.getState().plan;
  if (!target || !plan?.planId) return;
  const storeId = useSession.getState().opened?.storeId ?? null; // the store the write is for
  let result: RepairResult;
  try {
    result = await runTask(
      'storagePath.salvageApply',
      { path: target.path, planId: plan.planId, confirm: flow.getState().confirmText },
      `Applying ${plan.action}`,
      { onStart: (taskId) => flow.getState().applying(taskId) },
    );
  } catch (e) {
    flow.getState().fail(describeError(e, 'Applying'));
    return;
  }
  // The chunks as they are now, then the result: the table and the result appear together.
  await reread(target, storeId, result);
  flow.getState().applied(result);
}

async function reread(target: SalvageTarget, storeId: string | null, result: RepairResult): Promise<void> {
  if (target.layout === 'storage-path') {
    try {
      useStoragePath.getState().set({ report: await getClient().request('storagePath.open', { path: target.path }) });
    } catch (e) {
      useStoragePath.getState().set({ error: describeError(e, `Reading ${target.path} again`) });
    }
    return;
  }
  // A store_dir: the engine read back what it wrote into the open store's report; merged here, no rescan.
  if (storeId === null) return;
  mergeOwnWrite(storeId, result.storeUpdate);
  await Promise.all([runDiagnosis(), loadStorage(), loadHistory()]);
}

export async function planSalvageUndo(flow: Flow): Promise<void> {
  flow.getState().setParams({ action: 'undo', force: false });
  await planSalvage(flow);
}
