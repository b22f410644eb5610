/**
 * What the diagnosis looked at and what it did not (config, bucket evidence and how far it goes,
 * versions, multipart uploads), so no view reads "nothing wrong" into what was never checked.
 */
import type { DiagnosisChecks } from '../../../shared/model';
import { useEvidence } from '../state/evidence';
import { useSession } from '../state/session';

const LISTING: Record<DiagnosisChecks['outputs'][number]['listing'], { ok: boolean; text: string }> = {
  complete: { ok: true, text: 'complete listing' },
  window: { ok: true, text: 'focused listing (complete for the restart window)' },
  incomplete: { ok: false, text: 'incomplete listing' },
  none: { ok: false, text: 'not listed' },
  unusable: { ok: false, text: 'keys cannot be matched (no key format or no $INDEX)' },
};

function Mark({ ok }: { ok: boolean }) {
  return <span className={ok ? 'check-ok' : 'check-missing'}>{ok ? '✓' : '✗'}</span>;
}

/** True when the checks leave out something that could hide a problem. */
export function checksIncomplete(c: DiagnosisChecks): boolean {
  return !c.store || !c.config || c.outputs.some((o) => !LISTING[o.listing].ok);
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
        <li>
          <Mark ok={checks.store} /> Store {checks.store ? 'found' : 'not found: no bucket root in this path'}
        </li>
        <li>
          <Mark ok={!!checks.config} /> Config{' '}
          {checks.config ? checks.config.join(', ') : 'not loaded: outputs are inferred from seq_index files, key formats unknown'}{' '}
          {!checks.config && (
            <button type="button" className="small" onClick={() => useSession.getState().setView('open')}>
              Load config →
            </button>
          )}
        </li>
        {checks.outputs.map((o) => (
          <li key={o.id}>
            <Mark ok={LISTING[o.listing].ok} /> {o.displayName}: bucket evidence {LISTING[o.listing].text} · <Mark ok={o.versions} /> versions ·{' '}
            <Mark ok={o.multipart} /> multipart uploads{' '}
            {(!LISTING[o.listing].ok || !o.versions || !o.multipart) && (
              <button type="button" className="small" onClick={() => toIndex(o.id)}>
                Add bucket evidence →
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
