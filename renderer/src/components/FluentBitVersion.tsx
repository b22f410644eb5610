/**
 * Which Fluent Bit version the diagnosis applies and where that came from (given, read from a
 * binary, inferred from the store, unknown), with a field to give the version that runs this
 * store (`store.fluentBitVersion`). Self-contained: the engine decides everything; this only
 * shows its answer and sends what the operator typed, then diagnoses again.
 */
import { useState } from 'react';
import type { FluentBitVersionInfo } from '../../../shared/model';
import { getClient } from '../client';
import { runDiagnosis } from '../actions/evidence';
import { describeError } from '../actions/run';
import { useSession } from '../state/session';

const VERSION = /^v?\d{1,3}\.\d{1,3}(\.\d{1,4})?$/;

export function FluentBitVersion({ info }: { info: FluentBitVersionInfo }) {
  const storeId = useSession((s) => s.opened?.storeId);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = async (version: string | null) => {
    if (!storeId) return;
    setError(null);
    try {
      await getClient().request('store.fluentBitVersion', { storeId, version });
      setText('');
      await runDiagnosis();
    } catch (e) {
      setError(describeError(e, 'Setting the Fluent Bit version'));
    }
  };
  const valid = VERSION.test(text.trim());
  return (
    <section className="card" aria-label="Fluent Bit version" data-testid="fluent-bit-version">
      <h3>Fluent Bit version</h3>
      <p>{info.text}</p>
      {info.evidence.length > 0 && (
        <ul className="muted">
          {info.evidence.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      )}
      <form
        className="row-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) void send(text.trim());
        }}
      >
        <label className="grow">
          Version that runs this store
          <input type="text" value={text} spellCheck={false} placeholder="e.g. 1.9.10" onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit" disabled={!valid}>
          Use this version
        </button>
        {(info.source === 'given' || info.source === 'binary') && (
          <button type="button" onClick={() => void send(null)}>
            Infer from the store
          </button>
        )}
      </form>
      {error && <p className="error">{error}</p>}
    </section>
  );
}
