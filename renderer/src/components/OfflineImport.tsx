/** Offline S3 evidence: JSON files from the AWS CLI, uploaded (read in the browser, sent as documents) or read by the engine from a path on its host. */
import { useState } from 'react';
import { importFiles, importOffline, readFiles } from '../actions/evidence';
import { useEvidence, type ImportedDoc } from '../state/evidence';
import { formatCount } from '../format';

export function OfflineImport({ title }: { title: string }) {
  const busy = useEvidence((s) => s.busy);
  const evidence = useEvidence((s) => s.evidence);
  const [path, setPath] = useState('');
  const [kind, setKind] = useState<ImportedDoc['kind']>('listing');
  return (
    <section className="card" aria-label="Offline listing">
      <h3>{title}</h3>
      <p className="muted small">
        JSON from <code>aws s3api list-objects-v2</code>, <code>list-object-versions</code> or <code>list-multipart-uploads</code>.
      </p>
      <label className="file-button">
        {busy === 'offline' ? 'Importing…' : 'Upload JSON files…'}
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
      <form
        className="row-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (path.trim()) void importFiles(kind, [path.trim()], { add: true });
        }}
      >
        <label className="grow">
          Or a path on the Store Doctor host
          <input type="text" value={path} spellCheck={false} placeholder="/tmp/listing.json" onChange={(e) => setPath(e.target.value)} />
        </label>
        <label>
          It is
          <select value={kind} onChange={(e) => setKind(e.target.value as ImportedDoc['kind'])}>
            <option value="listing">a listing (list-objects-v2)</option>
            <option value="versions">versions (list-object-versions)</option>
            <option value="multipart">multipart uploads (list-multipart-uploads)</option>
          </select>
        </label>
        <button type="submit" disabled={!path.trim() || busy != null}>
          Read
        </button>
      </form>
      {evidence && (
        <p className="muted small" data-testid="offline-loaded">
          Loaded: {evidence.source === 'live' ? 'live listing' : evidence.scope.join(', ') || 'offline listing'} ({formatCount(evidence.objects.length)}{' '}
          objects).
        </p>
      )}
    </section>
  );
}
