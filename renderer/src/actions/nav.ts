/** Navigation side effects: alerts of the view left behind are cleared (stale errors never follow the user). */
import { useEvidence } from '../state/evidence';
import { useSession } from '../state/session';

export function clearAlertsOnNavigation(): () => void {
  return useSession.subscribe((s, prev) => {
    if (s.view !== prev.view && useEvidence.getState().error) useEvidence.getState().setError(null);
  });
}
