/** History: every action applied to this store, from its undo journals — what, when, by whom, the result, and its undo state. */
import { useEffect } from 'react';
import { loadHistory } from './history-actions';
import { reviewUndo } from './actions';
import { useHistory } from './history-state';
import { useRepair } from './planFlow';
import { useSession } from '../../state/session';
import { Badge } from '../../components/Badge';
import { ErrorText } from '../../components/ErrorText';
import { Time } from '../../components/Time';

const RESULT_KIND = { verified: 'ok', applied: 'warning', failed: 'error', incomplete: 'warning', abandoned: 'info' } as const;
const UNDO_KIND = { next: 'info', later: 'info', undone: 'ok', 'undo-failed': 'error', 'not-undoable': 'warning', nothing: 'info' } as const;

export function HistoryView() {
  const { list, loading, error } = useHistory();
  const storeId = useSession((s) => s.opened?.storeId);
  useEffect(() => {
    void loadHistory();
  }, [storeId]);
  return (
    <div className="view">
      <h2>History</h2>
      <p className="muted">
        Actions applied to this store, newest first, as its undo journals record them (<code>.store-doctor/journal.jsonl</code> in each bucket root).
      </p>
      <ErrorText error={error} />
      {loading && !list && <p className="muted">Reading the journals…</p>}
      {list?.note && <p className="muted">{list.note}</p>}
      {list && !list.note && list.entries.length === 0 && <p data-testid="history-empty">Nothing was applied to this store yet (no journal entry).</p>}
      {list && list.entries.length > 0 && (
        <table className="compact" aria-label="Applied actions" data-testid="history">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col">By</th>
              <th scope="col">Result</th>
              <th scope="col">Undo</th>
            </tr>
          </thead>
          <tbody>
            {list.entries.map((e) => (
              <tr key={`${e.journal}:${e.id}`} data-testid="history-row">
                <td className="nowrap">
                  <Time iso={e.at} />
                </td>
                <td>
                  <code>{e.action}</code> {e.summary}
                  <div className="muted small">
                    {e.id} · {e.changes} change{e.changes === 1 ? '' : 's'} · {e.rootPath}
                  </div>
                </td>
                <td className="nowrap">{e.uid !== null ? `uid ${e.uid}` : <span className="muted">not recorded</span>}</td>
                <td>
                  <Badge kind={RESULT_KIND[e.result]}>{e.result}</Badge> <span className="small">{e.resultText}</span>
                </td>
                <td>
                  <Badge kind={UNDO_KIND[e.undo.state]}>{e.undo.state}</Badge> <span className="small">{e.undo.text}</span>
                  {e.undo.at && (
                    <span className="small">
                      {' '}
                      <Time iso={e.undo.at} />
                    </span>
                  )}
                  {e.undo.state === 'next' && (
                    <div>
                      <button
                        type="button"
                        className="small"
                        onClick={() => {
                          useSession.getState().setView('repair');
                          void reviewUndo(useRepair);
                        }}
                      >
                        Plan the undo →
                      </button>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list && list.journals.length > 0 && <p className="muted small">Read: {list.journals.join(', ')}</p>}
    </div>
  );
}
