/** Index & S3: live listing (with its resolved S3 target) or offline listing import, the index-vs-time chart, collision analysis with a worked example. */
import { highestLabel } from '../../../shared/evidence-scope';
import { listLive } from '../actions/evidence';
import type { OutputDiagnosis } from '../../../shared/model';
import { OfflineImport } from '../components/OfflineImport';
import { ConnectionFields, OutputPicker, S3TargetPanel } from '../components/S3Connection';
import { useEvidence } from '../state/evidence';
import { ErrorText } from '../components/ErrorText';
import { IndexChart } from '../components/IndexChart';
import { Badge } from '../components/Badge';
import { RefreshEvidence } from '../components/RefreshEvidence';
import { formatCount, safeIndexText, shown } from '../format';

function Connection() {
  const busy = useEvidence((s) => s.busy);
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
      <OutputPicker />
      <ConnectionFields />
      <button type="submit" className="primary" disabled={busy != null}>
        {busy === 'live' ? 'Listing…' : 'List and compare'}
      </button>{' '}
      <button
        type="button"
        disabled={busy != null}
        title="A full listing: every key the key format can reach, also the partitions a focused listing leaves out"
        onClick={() => void listLive({ fullListing: true })}
      >
        List every key
      </button>
    </form>
  );
}

const STATE_TEXT = {
  exists: 'the bucket holds this key: the next start overwrites it',
  free: 'no such key in the evidence, which covers it',
  unknown: 'the evidence does not cover this key',
} as const;

function WorkedExample({ keys }: { keys: NonNullable<OutputDiagnosis['nextKeys']> }) {
  return (
    <ul className="worked" data-testid="worked-example">
      {keys.map((k) => (
        <li key={k.key}>
          The next start writes <code>{shown(k.key)}</code> ($INDEX {k.index}
          {k.tag ? `, tag ${shown(k.tag)}` : ''}): <Badge kind={k.state === 'exists' ? 'error' : k.state === 'free' ? 'ok' : 'warning'}>{k.state}</Badge>{' '}
          <span className="muted small">{STATE_TEXT[k.state]}</span>
        </li>
      ))}
    </ul>
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
      <S3TargetPanel what="the listing" />
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
          <p className="small" data-testid="evidence-kind">
            {evidence.source === 'offline'
              ? `Offline file(s): ${evidence.scope.join(', ')}`
              : evidence.coverage === 'focused'
                ? `Focused listing: keys from ${evidence.focus?.since ?? '?'} on and the newest partition of each tag (older keys not listed)`
                : 'Full listing: every key the key format can reach'}
            {evidence.listedAt ? `; taken ${evidence.listedAt}` : '; time unknown'}
            {evidence.door ? ` (through the ${evidence.door === 'cli' ? 'command line' : evidence.door === 'host' ? 'web console' : 'desktop app'})` : ''}
            {out?.indexEvidence.coverage === 'stale' && (
              <>
                {' '}
                <Badge kind="error">stale</Badge> <span className="small">{out.indexEvidence.text}</span> <RefreshEvidence />
              </>
            )}
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
              <dd>{out.persistedNextIndexText ?? (out.persistedNextIndex == null ? 'missing' : formatCount(out.persistedNextIndex))}</dd>
            </div>
            <div>
              <dt>Highest index {highestLabel(out.indexEvidence)}</dt>
              <dd>{out.highestIndexInBucketText ?? formatCount(out.highestIndexInBucket)}</dd>
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
          <IndexChart timeline={out.timeline} resets={out.resets} persistedNextIndex={out.persistedNextIndex} safeNextIndex={out.safeNextIndex} />
          <h4>Collision analysis</h4>
          <p data-testid="collision">
            <Badge kind={out.collision.risk === 'always' || out.collision.risk === 'same-window' ? 'error' : 'ok'}>
              {out.collision.riskText ?? out.collision.risk}
            </Badge>{' '}
            {out.collision.explanation}
          </p>
          {out.nextKeys && out.nextKeys.length > 0 && <WorkedExample keys={out.nextKeys} />}
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
