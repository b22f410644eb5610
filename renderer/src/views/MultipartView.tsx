/** Multipart: records in the store and uploads on the server; complete or abort through a plan. */
import { makePlan } from '../actions/repair';
import { useEvidence } from '../state/evidence';
import { useMultipart } from '../state/planFlow';
import { useSession } from '../state/session';
import { ArchiveRefusal } from '../components/ArchiveRefusal';
import { ErrorText } from '../components/ErrorText';
import { PlanReview } from '../components/PlanReview';
import { ConnectionFields, OutputPicker, S3TargetPanel } from '../components/S3Connection';
import { Time } from '../components/Time';
import { RefreshEvidence } from '../components/RefreshEvidence';
import { shown } from '../format';

export function MultipartView() {
  const s = useMultipart();
  const report = useSession((x) => x.opened?.report ?? null);
  const rowsPending = useSession((x) => !!x.opened?.rowsOmitted);
  const uploads = useEvidence((x) => x.evidence?.multipartUploads ?? null);
  const archive = report?.source.kind === 'archive';
  const records = (report?.roots ?? []).flatMap((root) =>
    root.streams.flatMap((st) => st.chunks.filter((c) => c.multipart).map((c) => ({ bucket: root.bucket, chunk: c, m: c.multipart! }))),
  );
  return (
    <div className="view">
      <h2>Multipart uploads</h2>
      <section className="card" aria-label="Multipart records in the store">
        <h3>Records in the store ({rowsPending ? '…' : records.length})</h3>
        {rowsPending ? (
          <p className="muted" role="status">
            Reading the chunk list…
          </p>
        ) : records.length === 0 ? (
          <p className="muted">No multipart record in multipart_upload_metadata/.</p>
        ) : (
          <table className="compact">
            <thead>
              <tr>
                <th>Key</th>
                <th>Upload id</th>
                <th className="num">Parts</th>
                <th className="num">Would complete</th>
                <th>Notes</th>
              </tr>
            </thead>
            <tbody>
              {records.map(({ chunk, m }) => (
                <tr key={chunk.path}>
                  <td className="nowrap">
                    <code>{m.s3Key}</code>
                  </td>
                  <td>
                    <code className="wrap">{m.uploadId}</code>
                  </td>
                  <td className="num">{m.parts.length}</td>
                  <td className="num">{m.completeParts.length}</td>
                  <td>
                    {[...m.problems, m.stoppedAt ? `stops at line ${m.stoppedAt.line}: ${m.stoppedAt.reason}` : ''].filter(Boolean).join('; ') ||
                      chunk.fluentBitAction}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="card" aria-label="Uploads on the server">
        <h3>Uploads on the server</h3>
        {uploads != null && s.phase === 'applied' && (
          <p className="muted small" data-testid="uploads-stale">
            Listed before the change was applied: refresh the evidence. <RefreshEvidence />
          </p>
        )}
        {uploads == null ? (
          <p className="muted">Not known: list the bucket (or import list-multipart-uploads) in Index &amp; S3.</p>
        ) : uploads.length === 0 ? (
          <p>No multipart upload in progress on the server.</p>
        ) : (
          <table className="compact">
            <thead>
              <tr>
                <th>Key</th>
                <th>Upload id</th>
                <th>Initiated</th>
                <th className="num">Parts</th>
              </tr>
            </thead>
            <tbody>
              {uploads.map((u) => (
                <tr key={u.uploadId}>
                  <td className="nowrap">
                    <code>{shown(u.key)}</code>
                  </td>
                  <td>
                    <code className="wrap">{u.uploadId}</code>
                  </td>
                  <td>
                    <Time iso={u.initiated} />
                  </td>
                  <td className="num">{u.parts ? u.parts.length : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {archive ? (
        <ArchiveRefusal />
      ) : (
        <>
          <section className="card" aria-label="Multipart connection">
            <OutputPicker />
            <ConnectionFields />
          </section>
          <S3TargetPanel what="complete / abort" />
        </>
      )}
      <form
        hidden={archive}
        className="row-form"
        onSubmit={(e) => {
          e.preventDefault();
          void makePlan(useMultipart);
        }}
      >
        <fieldset className="inline-fields">
          <legend className="muted small">Uploads of local records</legend>
          {(
            [
              ['auto', 'Complete only uploads whose parts all match'],
              ['complete', 'Complete every upload with its matching parts'],
              ['abort', 'Abort every upload (deletes its parts)'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="check">
              <input
                type="radio"
                name="mp-decision"
                value={value}
                checked={s.params.multipartDecision === value}
                onChange={() => s.setParams({ multipartDecision: value })}
              />
              {label}
            </label>
          ))}
          <label className="check">
            <input type="checkbox" checked={s.params.abortOrphans} onChange={(e) => s.setParams({ abortOrphans: e.target.checked })} />
            Also abort server uploads that have no local record
          </label>
        </fieldset>
        <button type="submit" className="primary" disabled={s.phase === 'planning' || s.phase === 'applying'}>
          {s.phase === 'planning' ? 'Planning…' : 'Plan complete / abort'}
        </button>
        <p className="muted small">
          The plan asks the bucket (ListParts) through the connection above: by default a record whose parts all match is completed and an upload the server no
          longer has only loses its record; nothing is aborted unless you choose it above.
        </p>
      </form>
      {s.phase !== 'review' && s.phase !== 'applied' && <ErrorText error={s.error} />}
      <PlanReview flow={useMultipart} />
    </div>
  );
}
