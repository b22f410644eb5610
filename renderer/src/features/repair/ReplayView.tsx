/** Replay buffered chunks to S3 create-only: the S3 target first, then the plan table, progress, cancel, resume. */
import { makePlan } from './actions';
import { useReplay } from './planFlow';
import { useSession } from '../../state/session';
import { ArchiveRefusal } from './ArchiveRefusal';
import { ErrorText } from '../../components/ErrorText';
import { OutputPicker, ConnectionFields, S3TargetPanel } from '../../components/S3Connection';
import { PlanReview } from './PlanReview';
import { Badge } from '../../components/Badge';
import { formatBytes, formatCount, shown } from '../../format';
import type { RepairResult, ReplayItem } from '../../../../shared/model';

export function ReplayView() {
  const s = useReplay();
  const archive = useSession((x) => x.opened?.report.source.kind === 'archive');
  // after the run: every chunk as the replay left it (done, failed with why), never the plan's "planned"
  const ran = s.phase === 'applied' ? (s.result as (RepairResult & { items?: ReplayItem[] }) | null)?.items : undefined;
  const items = ran ?? s.plan?.replayItems ?? [];
  if (archive)
    return (
      <div className="view">
        <h2>Replay</h2>
        <ArchiveRefusal />
      </div>
    );
  return (
    <div className="view">
      <h2>Replay</h2>
      <p className="muted">
        Uploads buffered chunks with the key Fluent Bit would have used, create-only (<code>If-None-Match: *</code>): an existing object is never overwritten. A
        chunk leaves the store only after its object is confirmed.
      </p>
      <section className="card" aria-label="Replay connection">
        <OutputPicker />
        <ConnectionFields />
      </section>
      <S3TargetPanel what="the replay" />
      <form
        className="row-form"
        onSubmit={(e) => {
          e.preventDefault();
          void makePlan(useReplay);
        }}
      >
        <label className="check">
          <input type="checkbox" checked={s.params.includeActive} onChange={(e) => s.setParams({ includeActive: e.target.checked })} /> Include the active
          stream (only when Fluent Bit is stopped)
        </label>
        <button type="submit" className="primary" disabled={s.phase === 'planning' || s.phase === 'applying'}>
          {s.phase === 'planning' ? 'Planning…' : s.phase === 'cancelled' ? 'Plan again to resume' : 'Plan replay'}
        </button>
      </form>
      {s.phase === 'cancelled' && <p className="warning-text">{s.error}</p>}
      {s.phase !== 'cancelled' && s.phase !== 'review' && s.phase !== 'applied' && <ErrorText error={s.error} />}
      {items.length > 0 && (
        <table className="compact" aria-label="Replay plan" data-testid="replay-table">
          <thead>
            <tr>
              <th>Chunk</th>
              <th>Tag</th>
              <th>Key</th>
              <th className="num">Index</th>
              <th className="num">Size</th>
              <th className="num">Records</th>
              <th>Compression</th>
              <th>State</th>
            </tr>
          </thead>
          <tbody>
            {items.map((it) => (
              <tr key={it.chunkPath}>
                <td>
                  <code>{it.chunkPath}</code>
                </td>
                <td>{shown(it.tag)}</td>
                <td>
                  <code>{shown(it.key)}</code>
                </td>
                <td className="num">{it.index ?? '—'}</td>
                <td className="num">{formatBytes(it.bytes)}</td>
                <td className="num">{formatCount(it.records)}</td>
                <td>{it.compression}</td>
                <td>
                  <Badge kind={it.state === 'failed' ? 'error' : it.state === 'skipped' ? 'warning' : 'ok'}>{it.state}</Badge>
                  {it.message ? <span className="muted small"> {it.message}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PlanReview flow={useReplay} applyLabel="Replay" />
    </div>
  );
}
