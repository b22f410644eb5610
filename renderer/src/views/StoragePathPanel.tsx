/**
 * A Fluent Bit engine buffer (`[SERVICE] storage.path`), read-only: backlog per input, the chunks
 * Fluent Bit will reject with their records, what the storage limits do — and the salvage plan for
 * review, applied only after typing its confirmation (the same requests as `store-doctor salvage`).
 */
import { useState } from 'react';
import { applySalvage, reviewSalvage } from '../actions/storagePath';
import { useStoragePath } from '../state/storagePath';
import { ErrorText } from '../components/ErrorText';
import { shown } from '../format';
import { nextStartFate } from '../../../shared/storage-path-backlog';

export function StoragePathPanel() {
  const { report, plan, result, error, busy } = useStoragePath();
  const [confirm, setConfirm] = useState('');
  if (!report && !error) return null;
  const checksum = report?.limits.checksum ?? null;
  const rejected = report ? report.streams.flatMap((s) => s.chunks).filter((c) => nextStartFate(c, checksum) === 'reject') : [];
  return (
    <section className="panel" data-testid="storage-path" aria-labelledby="storage-path-title">
      <h3 id="storage-path-title">Engine buffer (storage.path)</h3>
      <ErrorText error={error} />
      {report && (
        <>
          <p>
            <code>{shown(report.path)}</code> is a Fluent Bit <code>storage.path</code>, not an S3 <code>store_dir</code>: shown read-only.{' '}
            {report.totals.chunks} chunk(s), {report.totals.records} record(s), {report.totals.bytes} bytes.
          </p>
          <h4>Backlog per input</h4>
          <table>
            <thead>
              <tr>
                <th>input</th>
                <th>chunks</th>
                <th>records</th>
                <th>bytes</th>
                <th>oldest record</th>
                <th>newest record</th>
              </tr>
            </thead>
            <tbody>
              {report.streams.map((s) => (
                <tr key={s.name} data-testid="storage-path-input">
                  <td>{shown(s.name)}</td>
                  <td>{s.chunks.length}</td>
                  <td>{s.records}</td>
                  <td>{s.bytes}</td>
                  <td>{s.oldestTime ?? '—'}</td>
                  <td>{s.newestTime ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h4>{checksum === null ? 'Chunks Fluent Bit will reject with storage.checksum on' : 'Chunks Fluent Bit will reject'}</h4>
          {rejected.length ? (
            <ul>
              {rejected.map((c) => (
                <li key={c.path} data-testid="storage-path-rejected">
                  <code>{shown(c.path)}</code>: {c.records} record(s) — {shown(c.fateText)}
                </li>
              ))}
            </ul>
          ) : (
            <p>None in what was read.</p>
          )}
          <h4>What the storage limits do</h4>
          <ul>
            {report.limits.effects.map((e) => (
              <li key={e}>{shown(e)}</li>
            ))}
          </ul>
          <button type="button" disabled={busy} onClick={() => void reviewSalvage()}>
            Review the salvage plan
          </button>
        </>
      )}
      {plan && (
        <div data-testid="storage-path-plan">
          <h4>Salvage plan</h4>
          <p>{shown(plan.summary)}</p>
          <ol>
            {plan.steps.map((s, i) => (
              <li key={i}>
                <code>{s.kind}</code> <code>{shown(s.target)}</code>: {shown(s.description)}
              </li>
            ))}
          </ol>
          {plan.refusals.map((r) => (
            <ErrorText key={r.reason} error={`Refused: ${r.reason}`} />
          ))}
          {plan.steps.length > 0 && !plan.refusals.length && (
            <form
              className="row-form"
              onSubmit={(e) => {
                e.preventDefault();
                void applySalvage(confirm);
              }}
            >
              <label className="grow">
                Type <code>{shown(plan.confirm ?? '')}</code> to confirm
                <input type="text" name="confirm" value={confirm} onChange={(e) => setConfirm(e.target.value)} spellCheck={false} />
              </label>
              <button type="submit" className="primary" disabled={busy || confirm !== (plan.confirm ?? '')}>
                Apply the salvage
              </button>
            </form>
          )}
        </div>
      )}
      {result && (
        <p data-testid="storage-path-result">
          {shown(result.summary)} {result.verified ? '(verified)' : ''}
        </p>
      )}
    </section>
  );
}
