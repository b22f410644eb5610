/** Repair wizard: choose → plan (diff) → type the bucket name → apply → verified → undo. */
import { makePlan } from '../actions/repair';
import { useEvidence } from '../state/evidence';
import { useRepair } from '../state/planFlow';
import { selectWritesBlocked, useSession } from '../state/session';
import { ErrorText } from '../components/ErrorText';
import { PlanReview } from '../components/PlanReview';
import type { RepairAction } from '../../../shared/model';
import { safeIndexText } from '../format';

const ACTIONS: { value: RepairAction; label: string; help: string }[] = [
  { value: 'repair-index', label: 'Repair the index', help: 'Write the safe next $INDEX into seq_index_<id> atomically, with a backup.' },
  { value: 'protect-index', label: 'Protect the index', help: 'Keep sequence/ from being deleted on graceful stop (marker chunk or shadow copy).' },
  { value: 'restore-index', label: 'Restore the index', help: 'Recreate a missing seq_index from the highest index in the bucket.' },
  { value: 'recover-versions', label: 'Recover overwritten objects', help: 'Copy earlier versions of overwritten keys back (versioned buckets).' },
  { value: 'undo', label: 'Undo the last change', help: 'Put back what the last repair changed, from its undo journal.' },
];

const STEPS = ['Choose', 'Review the plan', 'Confirm & apply', 'Verified'];

export function RepairView() {
  const s = useRepair();
  const diagnosis = useEvidence((x) => x.diagnosis);
  const writesBlocked = useSession(selectWritesBlocked);
  const stepIndex = s.phase === 'choose' || s.phase === 'planning' ? 0 : s.phase === 'review' ? (s.confirmText ? 2 : 1) : s.phase === 'applying' ? 2 : 3;
  const help = ACTIONS.find((a) => a.value === s.params.action)?.help;
  return (
    <div className="view">
      <h2>Repair</h2>
      <ol className="wizard" aria-label="Repair steps">
        {STEPS.map((label, i) => (
          <li key={label} className={i === stepIndex ? 'current' : i < stepIndex ? 'done' : ''} aria-current={i === stepIndex ? 'step' : undefined}>
            {label}
          </li>
        ))}
      </ol>
      {writesBlocked && <p className="error">The store changed on disk: writes are blocked until you rescan.</p>}
      <form
        className="card"
        onSubmit={(e) => {
          e.preventDefault();
          void makePlan(useRepair);
        }}
      >
        <div className="grid-form fit">
          <label>
            Action
            <select value={s.params.action} onChange={(e) => s.setParams({ action: e.target.value as RepairAction })}>
              {ACTIONS.map((a) => (
                <option key={a.value} value={a.value}>
                  {a.label}
                </option>
              ))}
            </select>
          </label>
          {diagnosis && diagnosis.outputs.length > 0 && (
            <label>
              Output
              <select
                value={s.params.outputId ?? useEvidence.getState().outputId ?? ''}
                onChange={(e) => s.setParams({ outputId: e.target.value === '' ? null : Number(e.target.value) })}
              >
                {diagnosis.outputs.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.displayName} → {o.bucket} (safe next index {safeIndexText(o)})
                  </option>
                ))}
              </select>
            </label>
          )}
          {s.params.action === 'repair-index' && (
            <label>
              Next index
              <input
                type="text"
                inputMode="numeric"
                value={s.params.value}
                placeholder="safe value from the diagnosis"
                onChange={(e) => s.setParams({ value: e.target.value })}
              />
            </label>
          )}
          {s.params.action === 'protect-index' && (
            <label>
              Method
              <select value={s.params.method} onChange={(e) => s.setParams({ method: e.target.value as 'marker' | 'shadow' })}>
                <option value="marker">Marker chunk in sequence/</option>
                <option value="shadow">Shadow copy of the index</option>
              </select>
            </label>
          )}
        </div>
        {help && <p className="muted small">{help}</p>}
        <button type="submit" className="primary" disabled={s.phase === 'planning' || s.phase === 'applying'}>
          {s.phase === 'planning' ? 'Planning…' : 'Plan (dry run)'}
        </button>
      </form>
      {s.phase !== 'review' && s.phase !== 'applied' && s.phase !== 'applying' && <ErrorText error={s.error} />}
      <PlanReview flow={useRepair} applyLabel={s.params.action === 'undo' ? 'Undo' : 'Apply'} />
    </div>
  );
}
