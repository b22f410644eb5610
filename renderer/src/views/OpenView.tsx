/** Open a store: typed path (folder, store_dir, root or .tar/.tar.gz), native pickers in Electron, recent, demo. */
import { useState } from 'react';
import { getClient } from '../client';
import { openDemo, openDemoCopy, openStore } from '../actions/store';
import { useSession } from '../state/session';
import { ErrorText } from '../components/ErrorText';
import { OfflineImport } from '../components/OfflineImport';
import { useEvidence } from '../state/evidence';
import { Time } from '../components/Time';
import { ConfigImport } from './ConfigImport';
import { StoragePathPanel } from './StoragePathPanel';
import { shown } from '../format';

export function OpenView() {
  const [path, setPath] = useState('');
  const recent = useSession((s) => s.recent);
  const appInfo = useSession((s) => s.appInfo);
  const opening = useSession((s) => s.opening);
  const opened = useSession((s) => s.opened);
  const evidenceError = useEvidence((s) => s.error);
  const client = getClient();

  const pick = async (kind: 'folder' | 'archive') => {
    const p = await client.pickPath(kind);
    if (p) {
      setPath(p);
      await openStore(p);
    }
  };

  return (
    <div className="view">
      <h2>Open a Fluent Bit store</h2>
      <p className="muted">
        A <code>store_dir</code>, one bucket root inside it, or a <code>.tar</code>/<code>.tar.gz</code> snapshot of either. Store Doctor only reads it
        {client.door === 'http' ? ' — the path is on the machine running the Store Doctor host' : ''}.
      </p>
      <form
        className="row-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (path.trim()) void openStore(path.trim());
        }}
      >
        <label className="grow">
          Path
          <input
            type="text"
            name="path"
            value={path}
            placeholder="/var/fluent-bit/s3  or  /tmp/store-snapshot.tar.gz"
            spellCheck={false}
            onChange={(e) => setPath(e.target.value)}
          />
        </label>
        <button type="submit" className="primary" disabled={opening || !path.trim()}>
          {opening ? 'Opening…' : 'Open'}
        </button>
        {client.canPickPath && (
          <>
            <button type="button" onClick={() => void pick('folder')}>
              Choose folder…
            </button>
            <button type="button" onClick={() => void pick('archive')}>
              Choose archive…
            </button>
          </>
        )}
      </form>
      <StoragePathPanel />
      {appInfo?.demoAvailable && (
        <p>
          <button type="button" onClick={() => void openDemo()} disabled={opening}>
            Open the demo store
          </button>{' '}
          <button type="button" onClick={() => void openDemoCopy()} disabled={opening}>
            Open a writable copy of the demo
          </button>{' '}
          <span className="muted">
            A real Fluent Bit store with an index reset and a backlog. The demo itself is a read-only archive; the copy is extracted into a temp folder so
            Repair and Undo can be tried.
          </span>
        </p>
      )}
      {opened && (
        <section className="context" aria-label="Context for the opened store">
          <h3>Add context for {opened.report.roots.length === 1 ? opened.report.roots[0].bucket : 'this store'}</h3>
          <div className="split">
            <ConfigImport />
            <OfflineImport title="S3 listings (offline)" />
          </div>
          <ErrorText error={evidenceError} />
        </section>
      )}
      <section className="card">
        <h3>Recent</h3>
        {recent.length === 0 ? (
          <p className="muted">Nothing opened yet.</p>
        ) : (
          <ul className="recent">
            {recent.map((r) => (
              <li key={r.path}>
                <button type="button" className="link" onClick={() => void openStore(r.path)}>
                  {shown(r.path)}
                </button>{' '}
                <span className="muted">
                  <Time iso={r.openedAt} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {appInfo && (
        <p className="muted small">
          Store Doctor {appInfo.version} · {appInfo.door === 'host' ? 'loopback web host' : 'desktop'}
        </p>
      )}
    </div>
  );
}
