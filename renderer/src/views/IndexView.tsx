/** Index & S3: live listing or offline listing import, the index-vs-time chart, collision analysis. */
import { listLive } from '../actions/evidence';
import { OfflineImport } from '../components/OfflineImport';
import { useEvidence } from '../state/evidence';
import { useSession } from '../state/session';
import { ErrorText } from '../components/ErrorText';
import { IndexChart } from '../components/IndexChart';
import { Badge } from '../components/Badge';
import { formatCount, safeIndexText } from '../format';

function OutputPicker() {
  const config = useSession((s) => s.config);
  const diagnosis = useEvidence((s) => s.diagnosis);
  const outputId = useEvidence((s) => s.outputId);
  const options = new Map<number, string>();
  for (const o of config?.outputs ?? []) if (o.s3) options.set(o.id, `${o.displayName} → ${o.s3.bucket}`);
  for (const o of diagnosis?.outputs ?? []) if (!options.has(o.id)) options.set(o.id, `${o.displayName} → ${o.bucket}`);
  if (options.size === 0) return <p className="muted">No S3 output known yet: load the Fluent Bit config in the Open view.</p>;
  return (
    <label>
      Output
      <select value={outputId ?? ''} onChange={(e) => useEvidence.getState().setOutputId(e.target.value === '' ? null : Number(e.target.value))}>
        {[...options].map(([id, label]) => (
          <option key={id} value={id}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}

function Connection() {
  const c = useEvidence((s) => s.connection);
  const busy = useEvidence((s) => s.busy);
  const set = useEvidence.getState().setConnection;
  return (
    <form
      className="card"
      aria-label="S3 connection"
      onSubmit={(e) => {
        e.preventDefault();
        void listLive();
      }}
    >
      <h3>List the bucket</h3>
      <p className="muted small">Credentials come from the AWS default chain of the machine running the engine (environment, profile, SSO, role).</p>
      <div className="grid-form">
        <label>
          Profile
          <input type="text" value={c.profile} placeholder="default" onChange={(e) => set({ profile: e.target.value })} />
        </label>
        <label>
          Region
          <input type="text" value={c.region} placeholder="from the config" onChange={(e) => set({ region: e.target.value })} />
        </label>
        <label>
          Endpoint
          <input type="url" value={c.endpoint} placeholder="https://s3.amazonaws.com" onChange={(e) => set({ endpoint: e.target.value })} />
        </label>
        <label className="check">
          <input type="checkbox" checked={c.pathStyle} onChange={(e) => set({ pathStyle: e.target.checked })} /> Path-style addressing
        </label>
      </div>
      <OutputPicker />
      <button type="submit" className="primary" disabled={busy != null}>
        {busy === 'live' ? 'Listing…' : 'List and compare'}
      </button>
    </form>
  );
}

export function IndexView() {
  const evidence = useEvidence((s) => s.evidence);
  const diagnosis = useEvidence((s) => s.diagnosis);
  const outputId = useEvidence((s) => s.outputId);
  const error = useEvidence((s) => s.error);
  const out = diagnosis?.outputs.find((o) => o.id === outputId) ?? diagnosis?.outputs[0] ?? null;
  return (
    <div className="view">
      <h2>Index &amp; S3</h2>
      <div className="split">
        <Connection />
        <OfflineImport title="Or import listings" />
      </div>
      <ErrorText error={error} />
      {evidence && (
        <section className="card" data-testid="evidence-summary">
          <h3>Evidence</h3>
          <p>
            {evidence.source === 'live' ? 'Live listing' : 'Offline listing'}
            {evidence.bucket ? ` of ${evidence.bucket}` : ''}: {formatCount(evidence.objects.length)} objects
            {evidence.versions ? `, ${formatCount(evidence.versions.length)} versions` : ''}
            {evidence.multipartUploads ? `, ${formatCount(evidence.multipartUploads.length)} multipart uploads` : ''}
            {evidence.source === 'live' ? ` in ${formatCount(evidence.requests)} requests` : ''}.{' '}
            {!evidence.complete && <Badge kind="warning">incomplete</Badge>}
          </p>
          <p className="muted small">Scope: {evidence.scope.join(', ') || '—'}</p>
          {evidence.notes.map((n, i) => (
            <p key={i} className="warning-text">
              ⚠ {n}
            </p>
          ))}
        </section>
      )}
      {out && (
        <section className="card" aria-label={`Index of ${out.displayName}`}>
          <h3>
            {out.displayName} <span className="muted">→ {out.bucket}</span>
          </h3>
          <dl className="stats">
            <div>
              <dt>Persisted next index</dt>
              <dd>{out.persistedNextIndexText ?? out.persistedNextIndex ?? 'missing'}</dd>
            </div>
            <div>
              <dt>Highest index in bucket</dt>
              <dd>{out.highestIndexInBucket ?? '—'}</dd>
            </div>
            <div>
              <dt>Safe next index</dt>
              <dd title={out.indexEvidence.text}>{safeIndexText(out)}</dd>
            </div>
            <div>
              <dt>Key format</dt>
              <dd>
                <code>{out.keyFormat}</code>
              </dd>
            </div>
          </dl>
          <IndexChart timeline={out.timeline} resets={out.resets} persistedNextIndex={out.persistedNextIndex} />
          <h4>Collision analysis</h4>
          <p data-testid="collision">
            <Badge kind={out.collision.risk === 'always' || out.collision.risk === 'same-window' ? 'error' : 'ok'}>{out.collision.risk}</Badge>{' '}
            {out.collision.explanation}
          </p>
          <p className="muted small">
            $INDEX {out.collision.hasIndex ? 'yes' : 'no'} · $UUID {out.collision.hasUuid ? 'yes' : 'no'} · $TAG {out.collision.hasTag ? 'yes' : 'no'} · time
            resolution {out.collision.timeResolutionSeconds == null ? 'none' : `${out.collision.timeResolutionSeconds} s`} · listing prefix{' '}
            <code>{out.collision.literalPrefix || '(bucket root)'}</code>
          </p>
          {out.findings.length > 0 && (
            <ul>
              {out.findings.map((f, i) => (
                <li key={i}>
                  <Badge kind={f.severity}>{f.severity}</Badge> {f.summary}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
