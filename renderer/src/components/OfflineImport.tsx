/** Offline S3 evidence: JSON files from the AWS CLI, read in the browser and sent as documents. */
import { importOffline, readFiles } from '../actions/evidence';
import { useEvidence } from '../state/evidence';

export function OfflineImport({ title }: { title: string }) {
  const busy = useEvidence((s) => s.busy);
  const evidence = useEvidence((s) => s.evidence);
  return (
    <section className="card" aria-label="Offline listing">
      <h3>{title}</h3>
      <p className="muted small">
        JSON from <code>aws s3api list-objects-v2</code>, <code>list-object-versions</code> or <code>list-multipart-uploads</code>.
      </p>
      <label className="file-button">
        {busy === 'offline' ? 'Importing…' : 'Choose JSON files…'}
        <input
          type="file"
          multiple
          accept=".json,application/json"
          data-testid="offline-input"
          disabled={busy != null}
          onChange={async (e) => {
            const files = e.target.files;
            if (files && files.length > 0) await importOffline(await readFiles(files));
            e.target.value = '';
          }}
        />
      </label>
      {evidence && (
        <p className="muted small" data-testid="offline-loaded">
          Loaded: {evidence.source === 'live' ? 'live listing' : evidence.scope.join(', ') || 'offline listing'} ({evidence.objects.length} objects).
        </p>
      )}
    </section>
  );
}
