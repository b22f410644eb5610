/** Load the Fluent Bit config of the opened store: a path on the engine's machine, or a file's text. */
import { useState } from 'react';
import { getClient } from '../client';
import { loadConfig } from '../actions/store';
import { useSession } from '../state/session';

export function ConfigImport() {
  const [path, setPath] = useState('');
  const config = useSession((s) => s.config);
  const client = getClient();
  return (
    <section className="card" aria-label="Fluent Bit config">
      <h3>Fluent Bit config</h3>
      {config ? (
        <div>
          <p>
            Read {config.files.join(', ')} ({config.format}): {config.outputs.length} output{config.outputs.length === 1 ? '' : 's'}.
          </p>
          <ul>
            {config.outputs.map((o) => (
              <li key={o.id}>
                <strong>{o.displayName}</strong> (id {o.id}, {o.plugin}
                {o.s3 ? `, bucket ${o.s3.bucket}, key format ${o.s3.s3KeyFormat}` : ''})
              </li>
            ))}
          </ul>
          {config.warnings.map((w, i) => (
            <p key={i} className="warning-text">
              ⚠ {w.file}:{w.line}: {w.message}
            </p>
          ))}
        </div>
      ) : (
        <p className="muted">Optional: the config tells which output owns which bucket root, its key format and endpoint.</p>
      )}
      <form
        className="row-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (path.trim()) void loadConfig({ path: path.trim() });
        }}
      >
        <label className="grow">
          Config path
          <input type="text" value={path} spellCheck={false} placeholder="/etc/fluent-bit/fluent-bit.conf" onChange={(e) => setPath(e.target.value)} />
        </label>
        <button type="submit" disabled={!path.trim()}>
          Load
        </button>
        {client.canPickPath && (
          <button
            type="button"
            onClick={async () => {
              const p = await client.pickPath('config');
              if (p) await loadConfig({ path: p });
            }}
          >
            Choose…
          </button>
        )}
        <label className="file-button">
          Upload file…
          <input
            type="file"
            accept=".conf,.yaml,.yml,text/plain"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              if (f) await loadConfig({ document: { name: f.name, text: await f.text() } });
              e.target.value = '';
            }}
          />
        </label>
      </form>
    </section>
  );
}
