/** The outcome of the last store action (open, rescan) in every view: an error sentence or a neutral notice. */
import { useSession } from '../state/session';
import { ErrorText } from './ErrorText';

export function StatusLine() {
  const error = useSession((s) => s.error);
  const notice = useSession((s) => s.notice);
  if (error)
    return (
      <div className="status-line">
        <ErrorText error={error} />
      </div>
    );
  if (!notice) return null;
  return (
    <div className="status-line notice" role="status" data-testid="notice">
      <span>{notice}</span>
      <button type="button" className="small" aria-label="Dismiss" onClick={() => useSession.getState().setNotice(null)}>
        ×
      </button>
    </div>
  );
}
