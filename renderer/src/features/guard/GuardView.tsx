/**
 * Guard: run the guard daemon on the opened live store (as `store-doctor guard` does next to
 * Fluent Bit): its state and why, the index values it keeps (final or not), the restores it made
 * after a graceful stop deleted sequence/, and its log. Start and stop; the status is re-read every
 * second while the panel is shown.
 */
import { useEffect, useState } from 'react';
import { refreshGuard, startGuard, stopGuard } from './actions';
import { useGuard } from './state';
import { useSession } from '../../state/session';
import { Badge } from '../../components/Badge';
import { ErrorText } from '../../components/ErrorText';
import { Time } from '../../components/Time';

const STATE_KIND = {
  off: 'info',
  watching: 'ok',
  'waiting-for-store': 'info',
  restoring: 'warning',
  refused: 'error',
  stopped: 'info',
  error: 'error',
} as const;
const PHASE_KIND = { watching: 'ok', restoring: 'warning', refused: 'error', replaced: 'error' } as const;

export function GuardView() {
  const { status, busy, error } = useGuard();
  const storeId = useSession((s) => s.opened?.storeId);
  const archive = useSession((s) => s.opened?.report.source.kind === 'archive');
  const hasConfig = useSession((s) => !!s.config);
  const [marker, setMarker] = useState(false);
  useEffect(() => {
    useGuard.getState().set({ status: null, error: null });
    void refreshGuard();
    const t = setInterval(() => void refreshGuard(), 1000);
    return () => clearInterval(t);
  }, [storeId]);
  const running = !!status?.running;
  return (
    <div className="view" data-testid="guard-view">
      <h2>Guard</h2>
      <p className="muted">
        Keeps every <code>$INDEX</code> of this store through Fluent Bit&apos;s graceful stops: it watches the index files, keeps each value in a shadow folder
        outside the store, and when a graceful stop deletes <code>sequence/</code> it waits until no process uses the root and restores the last value through
        the repair pipeline (journalled, undoable). The same guard as <code>store-doctor guard</code>; it runs while this store is open.
      </p>
      {archive && <p>An archive never changes: there is nothing to guard.</p>}
      {!archive && !hasConfig && <p>Load the Fluent Bit config first (Overview): the guard keeps the index of every output with $INDEX in its key format.</p>}
      <ErrorText error={error} />
      <div className="row">
        <span data-testid="guard-state">
          <Badge kind={STATE_KIND[status?.state ?? 'off']}>{status?.state ?? 'off'}</Badge>
        </span>{' '}
        {status?.stateReason && <span className="small">{status.stateReason}</span>}
      </div>
      <div className="row">
        {!running ? (
          <>
            <label className="small">
              <input type="checkbox" checked={marker} onChange={(e) => setMarker(e.target.checked)} /> also keep a marker chunk in sequence/ where it is safe
            </label>{' '}
            <button type="button" disabled={busy || archive || !hasConfig} onClick={() => void startGuard(marker)}>
              Start the guard
            </button>
          </>
        ) : (
          <button type="button" disabled={busy} onClick={() => void stopGuard()}>
            Stop the guard
          </button>
        )}
      </div>
      {status && status.state !== 'off' && (
        <>
          <p className="small muted">
            Restores: <span data-testid="guard-restores">{status.restores}</span>
            {status.lastRestoreAt && (
              <>
                {' '}
                · last <Time iso={status.lastRestoreAt} />
                {status.lastRestoreLatencyMs !== null && ` (${status.lastRestoreLatencyMs} ms after the deletion)`}
              </>
            )}
            {status.stateDir && (
              <>
                {' '}
                · shadow folders in <code>{status.stateDir}</code>
              </>
            )}
          </p>
          <table className="compact" aria-label="Guarded index values" data-testid="guard-roots">
            <thead>
              <tr>
                <th scope="col">Bucket root</th>
                <th scope="col">State</th>
                <th scope="col">Output</th>
                <th scope="col">Kept value</th>
                <th scope="col">Restores</th>
              </tr>
            </thead>
            <tbody>
              {status.roots.flatMap((r) =>
                r.outputs.map((o) => (
                  <tr key={`${r.rootPath}:${o.id}`} data-testid="guard-output">
                    <td>
                      <code>{r.bucket}</code>
                      <div className="muted small">{r.rootPath}</div>
                    </td>
                    <td>
                      <Badge kind={PHASE_KIND[r.phase]}>{r.phase}</Badge>
                      {r.problem && <div className="small">{r.problem}</div>}
                    </td>
                    <td>
                      seq_index_{o.id} <span className="muted small">{o.displayName}</span>
                    </td>
                    <td data-testid="guard-kept">
                      {o.kept === null ? <span className="muted">none yet</span> : o.kept} {o.kept !== null && (o.final ? '(final)' : '(not final)')}
                    </td>
                    <td data-testid="guard-output-restores">{o.restores}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
          {status.roots.length === 0 && <p>The config has no S3 output with $INDEX in its key format: nothing to guard.</p>}
          <h3>Log</h3>
          <ul className="small" aria-label="Guard log" data-testid="guard-log">
            {status.messages
              .slice()
              .reverse()
              .map((m, i) => (
                <li key={`${i}:${m}`}>{m}</li>
              ))}
          </ul>
        </>
      )}
    </div>
  );
}
