/** Shown when the opened store changed on disk: writes are blocked until a rescan. */
import { rescan } from '../actions/store';
import { useSession } from '../state/session';

export function LiveBanner() {
  const changed = useSession((s) => s.changed);
  if (!changed) return null;
  const sample = changed.paths.slice(0, 3).join(', ');
  const more = changed.paths.length > 3 ? ` and ${changed.paths.length - 3} more` : '';
  return (
    <div className="banner warning" role="alert" data-testid="live-banner">
      <div>
        <strong>The store changed on disk — writes are blocked; rescan.</strong>{' '}
        {sample ? (
          <span className="muted">
            Changed: {sample}
            {more}.
          </span>
        ) : null}
      </div>
      <button type="button" onClick={() => void rescan()}>
        Rescan
      </button>
    </div>
  );
}
