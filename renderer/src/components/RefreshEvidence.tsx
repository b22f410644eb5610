/**
 * "Refresh evidence", next to every stale marker and stale refusal (issue 18): lists the bucket
 * again (live evidence) or reads the offline file again (actions/evidence refreshEvidence), and
 * says what it found.
 */
import { refreshEvidence } from '../actions/evidence';
import { useEvidence } from '../state/evidence';

export function RefreshEvidence() {
  const busy = useEvidence((s) => s.busy != null);
  const note = useEvidence((s) => s.refreshNote);
  const has = useEvidence((s) => s.evidence != null);
  if (!has) return null;
  return (
    <span className="refresh-evidence">
      <button type="button" className="small" disabled={busy} onClick={() => void refreshEvidence()}>
        Refresh evidence
      </button>
      {note && (
        <span className="small muted" role="status" data-testid="refresh-note">
          {' '}
          {note}
        </span>
      )}
    </span>
  );
}
