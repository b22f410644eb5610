/**
 * A storage.path opened in the app: store.open refuses it (not an S3 store_dir), so the Open view
 * shows it read-only through storagePath.open, and reviews its salvage through the same requests
 * as `store-doctor salvage` (storagePath.salvagePlan → storagePath.salvageApply).
 */
import { getClient } from '../client';
import { useStoragePath } from '../state/storagePath';
import { resetSalvage } from '../features/salvage/state';
import { describeError } from './run';

const REFUSAL = /is a Fluent Bit storage\.path/;

/** After store.open failed: when the path is a storage.path, show it instead. True when shown. */
export async function showIfStoragePath(path: string, error: unknown): Promise<boolean> {
  if (!REFUSAL.test((error as Error)?.message ?? '')) return false;
  const s = useStoragePath.getState();
  s.clear();
  resetSalvage();
  try {
    s.set({ report: await getClient().request('storagePath.open', { path }) });
    return true;
  } catch (e) {
    s.set({ error: describeError(e, `Reading the storage.path ${path}`) });
    return true;
  }
}

export async function reviewSalvage(): Promise<void> {
  const s = useStoragePath.getState();
  if (!s.report) return;
  s.set({ busy: true, error: null, result: null });
  try {
    s.set({ plan: await getClient().request('storagePath.salvagePlan', { path: s.report.path }) });
  } catch (e) {
    s.set({ error: describeError(e, 'Planning the salvage') });
  } finally {
    s.set({ busy: false });
  }
}

export async function applySalvage(confirm: string): Promise<void> {
  const s = useStoragePath.getState();
  if (!s.report || !s.plan?.planId) return;
  s.set({ busy: true, error: null });
  try {
    const result = await getClient().request('storagePath.salvageApply', { path: s.report.path, planId: s.plan.planId, confirm });
    s.set({ result, plan: null, report: await getClient().request('storagePath.open', { path: s.report.path }) });
  } catch (e) {
    s.set({ error: describeError(e, 'Applying the salvage') });
  } finally {
    s.set({ busy: false });
  }
}
