/**
 * The Guard panel's requests: guard.start / guard.stop / guard.status on the opened store (the
 * session hosts the guard daemon; every write it makes goes through the repair pipeline).
 */
import type { GuardStatus } from '../../../../shared/guard-status';
import { getClient } from '../../client';
import { useGuard } from './state';
import { useSession } from '../../state/session';

async function run(request: (storeId: string) => Promise<GuardStatus>, quiet = false): Promise<void> {
  const storeId = useSession.getState().opened?.storeId;
  if (!storeId) return;
  if (!quiet) useGuard.getState().set({ busy: true });
  try {
    const status = await request(storeId);
    if (useSession.getState().opened?.storeId === storeId) useGuard.getState().set({ status, error: null });
  } catch (err) {
    useGuard.getState().set({ error: (err as Error).message });
  } finally {
    if (!quiet) useGuard.getState().set({ busy: false });
  }
}

export const startGuard = (marker: boolean) => run((storeId) => getClient().request('guard.start', { storeId, marker }));
export const stopGuard = () => run((storeId) => getClient().request('guard.stop', { storeId }));
/** Read the guard's status (the panel polls it while it is shown: the guard changes on its own). */
export const refreshGuard = () => run((storeId) => getClient().request('guard.status', { storeId }), true);
