/**
 * The Overview of a storage.path opened alone: what it is (Fluent Bit's engine buffer, not an S3
 * store_dir), its storage picture (backlog per input), what Store Doctor found and what the storage
 * limits do. Salvage is on the Chunks view (one chunk) and the Open view (every chunk).
 */
import { storagePathBacklog } from '../../../shared/storage-path-backlog';
import { StoragePathPicture } from '../components/StoragePathPicture';
import { shown } from '../format';
import { useStoragePath } from '../state/storagePath';

export function StoragePathOverview() {
  const report = useStoragePath((s) => s.report);
  if (!report) return null;
  return (
    <div className="view">
      <h2>Overview</h2>
      <section className="card" aria-label="Where the data sits" data-testid="storage">
        <h3>Where the data sits</h3>
        <StoragePathPicture backlog={storagePathBacklog(report)} fromConfig={false} />
      </section>
      <section className="card">
        <h3>Findings</h3>
        {report.findings.length ? (
          <ul>
            {report.findings.map((f) => (
              <li key={f}>{shown(f)}</li>
            ))}
          </ul>
        ) : (
          <p className="muted">None.</p>
        )}
        <h4>What the storage limits do</h4>
        <ul>
          {report.limits.effects.map((e) => (
            <li key={e}>{shown(e)}</li>
          ))}
        </ul>
      </section>
    </div>
  );
}
