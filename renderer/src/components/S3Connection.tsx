/**
 * The S3 connection of the chosen output, shown before anything reaches the bucket: the form
 * (blank fields take the Fluent Bit config's values), the target the engine resolves from it —
 * endpoint, region, addressing style, bucket, credential source and profile, never a secret — a
 * Test connection button (one HeadBucket) and the connection saved for the bucket.
 */
import { useEffect } from 'react';
import { applySaved, bucketOfOutput, forgetConnection, refreshTarget, saveConnection, testConnection } from '../actions/connection';
import { useEvidence } from '../state/evidence';
import { useSession } from '../state/session';
import { Time } from './Time';

const FROM: Record<string, string> = {
  form: 'this form',
  config: 'the Fluent Bit config',
  aws: 'AWS (no endpoint set)',
  environment: 'the environment',
  'profile-or-default': "the profile's region, else us-east-1",
};

export function OutputPicker() {
  const config = useSession((s) => s.config);
  const diagnosis = useEvidence((s) => s.diagnosis);
  const outputId = useEvidence((s) => s.outputId);
  const options = new Map<number, string>();
  for (const o of config?.outputs ?? []) if (o.s3) options.set(o.id, `${o.displayName} → ${o.s3.bucket}`);
  for (const o of diagnosis?.outputs ?? []) if (!options.has(o.id)) options.set(o.id, `${o.displayName} → ${o.bucket}`);
  if (options.size === 0) return <p className="muted">No S3 output known yet: load the Fluent Bit config (Overview checklist).</p>;
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

/** Keeps the resolved target in step with the output and the form; fills the form from a saved connection when the output changes. */
function useTargetSync(): void {
  const outputId = useEvidence((s) => s.outputId);
  const conn = useEvidence((s) => s.connection);
  const saved = useEvidence((s) => s.saved);
  const config = useSession((s) => s.config);
  useEffect(() => {
    applySaved(outputId);
  }, [outputId, saved]);
  useEffect(() => {
    const t = setTimeout(() => void refreshTarget(), 150);
    return () => clearTimeout(t);
  }, [outputId, conn, config]);
}

export function ConnectionFields() {
  const c = useEvidence((s) => s.connection);
  const outputId = useEvidence((s) => s.outputId);
  // blank fields take the output's settings from the Fluent Bit config: shown as the placeholders
  const s3 = useSession((s) => s.config?.outputs.find((o) => o.id === outputId)?.s3 ?? null);
  const set = useEvidence.getState().setConnection;
  return (
    <div className="grid-form">
      <label>
        Profile
        <input type="text" value={c.profile} placeholder={s3?.profile ?? 'default chain'} onChange={(e) => set({ profile: e.target.value })} />
      </label>
      <label>
        Region
        <input type="text" value={c.region} placeholder={s3?.region ?? 'from the config'} onChange={(e) => set({ region: e.target.value })} />
      </label>
      <label>
        Endpoint
        <input
          type="url"
          value={c.endpoint}
          placeholder={s3 ? (s3.endpoint ?? 'AWS (regional endpoint)') : 'from the config, else AWS'}
          onChange={(e) => set({ endpoint: e.target.value })}
        />
      </label>
      <label className="check">
        <input type="checkbox" checked={c.pathStyle} onChange={(e) => set({ pathStyle: e.target.checked })} /> Path-style addressing (the bucket in the URL
        path, as Fluent Bit sends it)
      </label>
    </div>
  );
}

/** The resolved target, the connection test and the saved connection. `what` says which request will use it. */
export function S3TargetPanel({ what }: { what: string }) {
  useTargetSync();
  const target = useEvidence((s) => s.target);
  const test = useEvidence((s) => s.test);
  const testing = useEvidence((s) => s.testing);
  const outputId = useEvidence((s) => s.outputId);
  const saved = useEvidence((s) => s.saved);
  const hasConfig = useSession((s) => !!s.config);
  const bucket = bucketOfOutput(outputId);
  const savedHere = bucket ? saved.find((c) => c.bucket === bucket) : undefined;
  if (!hasConfig) return <p className="muted">Load the Fluent Bit config (Overview checklist) to see where {what} goes.</p>;
  return (
    <section className="card s3-target" aria-label="S3 target" data-testid="s3-target">
      <h3>Where {what} goes</h3>
      {target ? (
        <dl className="kv small">
          <dt>Bucket</dt>
          <dd>
            <code>{target.bucket}</code> ({target.outputName})
          </dd>
          <dt>Endpoint</dt>
          <dd>
            <code>{target.endpoint}</code> <span className="muted">from {FROM[target.endpointFrom]}</span>
          </dd>
          <dt>Region</dt>
          <dd>
            {target.region ?? '—'} <span className="muted">from {FROM[target.regionFrom]}</span>
          </dd>
          <dt>Addressing</dt>
          <dd>{target.addressing}</dd>
          <dt>Profile</dt>
          <dd>{target.profile ? `${target.profile} (from ${FROM[target.profileFrom ?? 'form']})` : 'none'}</dd>
          <dt>Credentials</dt>
          <dd>{target.credentialSource}</dd>
        </dl>
      ) : (
        <p className="muted">Resolving…</p>
      )}
      <div className="row-form">
        <button type="button" onClick={() => void testConnection()} disabled={testing || outputId == null}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        <button type="button" onClick={() => void saveConnection()} disabled={!bucket}>
          Save for {bucket ?? 'this bucket'}
        </button>
        {savedHere && (
          <>
            <span className="muted small">
              Saved <Time iso={savedHere.savedAt} />
            </span>
            <button type="button" className="small" onClick={() => void forgetConnection(savedHere.bucket)}>
              Forget
            </button>
          </>
        )}
      </div>
      {test && (
        <p className={test.ok ? 'ok-text' : 'error'} role="status" data-testid="connection-test">
          {test.ok ? '✓ ' : '✗ '}
          {test.message}
        </p>
      )}
      <p className="muted small">No key, token or secret is shown, saved or sent to the page: credentials stay with the engine's AWS chain.</p>
    </section>
  );
}
