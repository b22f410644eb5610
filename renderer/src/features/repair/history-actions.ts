/** The history of applied actions of the open store, from its undo journals (engine's history.list). */
import { getClient } from '../../client';
import { useHistory } from './history-state';
import { useSession } from '../../state/session';
import { describeError } from '../../actions/run';

export async function loadHistory(): Promise<void> {
  const opened = useSession.getState().opened;
  if (!opened) return;
  useHistory.getState().setLoading(true);
  try {
    const list = await getClient().request('history.list', { storeId: opened.storeId });
    if (useSession.getState().opened?.storeId === opened.storeId) useHistory.getState().setList(list);
  } catch (e) {
    useHistory.getState().setError(describeError(e, 'Reading the history'));
  }
}
