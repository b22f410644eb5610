/**
 * The standing checklist of the Overview: what the diagnosis looked at and what it did not —
 * config, and per output its bucket evidence (and how far it goes), versions and multipart
 * uploads — each with the control that adds it right here (a path on the engine's machine or an
 * upload; a live listing in Index & S3). After an import the diagnosis runs again and the
 * Overview shows it. So no view reads "nothing wrong" into what was never checked.
 */
import { useState } from 'react';
import type { DiagnosisChecks } from '../../../shared/model';
import { importFiles, importOffline, readFiles } from '../actions/evidence';
import { loadConfig } from '../actions/store';
import { useEvidence, type ImportedDoc } from '../state/evidence';
import { useSession } from '../state/session';
import { RefreshEvidence } from './RefreshEvidence';

const LISTING: Record<DiagnosisChecks['outputs'][number]['listing'], { ok: boolean; text: string }> = {
  complete: { ok: true, text: 'full listing (every key the key format can reach)' },
  window: { ok: true, text: 'focused listing (complete for the partitions a restart can reach; older keys not listed)' },
  stale: { ok: false, text: 'STALE listing: older than a write Store Doctor made to the bucket, or than the age limit — refresh it' },
  incomplete: { ok: false, text: 'incomplete listing' },
  none: { ok: false, text: 'not listed' },
  unusable: { ok: false, text: 'keys cannot be matched (no key format or no $INDEX)' },
};

const API: Record<ImportedDoc['kind'], string> = {
  listing: 'list-objects-v2',
  versions: 'list-object-versions',
  multipart: 'list-multipart-uploads',
};

function Mark({ ok }: { ok: boolean }) {
  return (
    <span className={ok ? 'check-ok' : 'check-missing'} aria-label={ok ? 'checked' : 'not checked'}>
      {ok ? '✓' : '✗'}
    </span>
  );
}

/** True when the checks leave out something that could hide a problem. */
export function checksIncomplete(c: DiagnosisChecks): boolean {
  return !c.store || !c.config || !c.complete || c.outputs.some((o) => !LISTING[o.listing].ok);
}

/** A path on the engine's machine, or an upload: the two ways a file reaches the engine. */
function FileControls({ label, accept, onPath, onFiles }: { label: string; accept: string; onPath(p: string): void; onFiles(files: FileList): void }) {
  const [path, setPath] = useState('');
  const busy = useEvidence((s) => s.busy != null);
  return (
    <form
      className="inline-import"
      onSubmit={(e) => {
        e.preventDefault();
        if (path.trim()) onPath(path.trim());
      }}
    >
      <input
        type="text"
        value={path}
        spellCheck={false}
        aria-label={`${label}: path on the Store Doctor host`}
        placeholder="path on the host"
        onChange={(e) => setPath(e.target.value)}
      />
      <button type="submit" className="small" disabled={!path.trim() || busy}>
        Read
      </button>
      <label className="file-button small">
        Upload…
        <input
          type="file"
          accept={accept}
          aria-label={`${label}: upload`}
          disabled={busy}
          onChange={(e) => {
            if (e.target.files?.length) onFiles(e.target.files);
            e.target.value = '';
          }}
        />
      </label>
    </form>
  );
}

function EvidenceRow({ outputId, kind, ok, text, stale }: { outputId: number; kind: ImportedDoc['kind']; ok: boolean; text: string; stale?: boolean }) {
  const label = `${kind === 'listing' ? 'Bucket listing' : kind === 'versions' ? 'Versions' : 'Multipart uploads'} (aws s3api ${API[kind]} JSON)`;
  const opts = { add: true, back: true };
  return (
    <li className="check-row" data-testid={`check-${kind}-${outputId}`}>
      <span>
        <Mark ok={ok} /> {text}
        {stale && (
          <>
            {' '}
            <RefreshEvidence />
          </>
        )}
      </span>
      {!ok || kind === 'listing' ? (
        <FileControls
          label={label}
          accept=".json,application/json"
          onPath={(p) => {
            useEvidence.getState().setOutputId(outputId);
            void importFiles(kind, [p], opts);
          }}
          onFiles={async (files) => {
            useEvidence.getState().setOutputId(outputId);
            await importOffline(await readFiles(files), { ...opts, kind });
          }}
        />
      ) : null}
    </li>
  );
}

export function ChecksPanel({ checks }: { checks: DiagnosisChecks }) {
  const toIndex = (id: number) => {
    useEvidence.getState().setOutputId(id);
    useSession.getState().setView('index');
  };
  return (
    <section className="card checks" aria-label="What was checked" data-testid="checks">
      <h3>What was checked</h3>
      <ul>
        <li className="check-row">
          <span>
            <Mark ok={checks.store} /> Store {checks.store ? 'found' : 'not found: no bucket root in this path'}
          </span>
        </li>
        <li className="check-row" data-testid="check-config">
          <span>
            <Mark ok={!!checks.config} /> Config{' '}
            {checks.config ? checks.config.join(', ') : 'not loaded: outputs are inferred from seq_index files, key formats unknown'}
          </span>
          {!checks.config && (
            <FileControls
              label="Fluent Bit config"
              accept=".conf,.yaml,.yml,text/plain"
              onPath={(p) => void loadConfig({ path: p })}
              onFiles={async (files) => void loadConfig({ document: { name: files[0].name, text: await files[0].text() } })}
            />
          )}
        </li>
        {checks.roots
          .filter((r) => r.index === 'unknown')
          .map((r) => (
            <li key={r.path} className="check-row" data-testid={`check-root-${r.bucket}`}>
              <span>
                <Mark ok={false} /> Bucket evidence for <code>{r.bucket}</code>: index state unknown — load the config (its S3 output for bucket{' '}
                <code>{r.bucket}</code>), then list or import a listing of <code>{r.bucket}</code>
              </span>
            </li>
          ))}
        {checks.outputs.map((o) => (
          <li key={o.id} className="check-output">
            <div className="check-output-head">
              <strong>{o.displayName}</strong>
              <button type="button" className="small" onClick={() => toIndex(o.id)}>
                List live in Index &amp; S3 →
              </button>
            </div>
            <ul>
              <EvidenceRow
                outputId={o.id}
                kind="listing"
                ok={LISTING[o.listing].ok}
                text={`Bucket evidence: ${LISTING[o.listing].text}`}
                stale={o.listing === 'stale'}
              />
              <EvidenceRow
                outputId={o.id}
                kind="versions"
                ok={o.versions}
                text={o.versions ? 'Versions listed' : 'Versions not listed: overwritten objects unknown'}
              />
              <EvidenceRow
                outputId={o.id}
                kind="multipart"
                ok={o.multipart}
                text={o.multipart ? 'Multipart uploads listed' : 'Multipart uploads not listed: server uploads unknown'}
              />
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
