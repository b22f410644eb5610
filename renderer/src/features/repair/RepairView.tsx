/**
 * Repair wizard: choose → plan (diff) → type the confirm phrase → apply → verified → undo. An
 * archive is refused at step 1 (nothing is planned into it: extract it to a folder, or use a
 * writable copy of the demo). Index actions are offered for outputs with $INDEX only; the next
 * index is prefilled with the safe value and the evidence it rests on.
 */
import { useEffect } from 'react';
import { makePlan, usesShadowDir } from './actions';
import { useEvidence } from '../../state/evidence';
import { useRepair } from './planFlow';
import { selectWritesBlocked, useSession } from '../../state/session';
import { ErrorText } from '../../components/ErrorText';
import { PlanReview } from './PlanReview';
import { blockingRefusals } from '../../../../shared/refusals';
import { ArchiveRefusal } from './ArchiveRefusal';
import { S3TargetPanel } from '../../components/S3Connection';
import type { RepairAction } from '../../../../shared/model';
import { safeIndexText } from '../../format';

const ACTIONS: { value: RepairAction; label: string; help: string }[] = [
  { value: 'repair-index', label: 'Repair the index', help: 'Write the safe next $INDEX into seq_index_<id> atomically, with a backup.' },
  { value: 'protect-index', label: 'Protect the index', help: 'Keep sequence/ from being deleted on graceful stop (marker chunk or shadow copy).' },
  { value: 'restore-index', label: 'Restore the index', help: 'Recreate a missing seq_index from the highest index in the bucket.' },
  {
    value: 'recover-versions',
    label: 'Recover overwritten objects',
    help: 'Copy earlier versions of overwritten keys to new keys (versioned buckets), create-only.',
  },
  { value: 'undo', label: 'Undo the last change', help: 'Put back what the last repair changed, from its undo journal.' },
];

const INDEX_ACTIONS: ReadonlySet<RepairAction> = new Set(['repair-index', 'protect-index', 'restore-index']);
const STEPS = ['Choose', 'Review the plan', 'Confirm & apply', 'Verified'];

function Stepper({ index }: { index: number }) {
  return (
    <ol className="wizard" aria-label="Repair steps">
      {STEPS.map((label, i) => (
        <li key={label} className={i === index ? 'current' : i < index ? 'done' : ''} aria-current={i === index ? 'step' : undefined}>
          {label}
        </li>
      ))}
    </ol>
  );
}

export function RepairView() {
  const s = useRepair();
  const diagnosis = useEvidence((x) => x.diagnosis);
  const writesBlocked = useSession(selectWritesBlocked);
  const archive = useSession((x) => x.opened?.report.source.kind === 'archive');
  const outputs = (diagnosis?.outputs ?? []).filter((o) => !INDEX_ACTIONS.has(s.params.action) || o.collision.hasIndex);
  const outputId =
    s.params.outputId ?? (outputs.some((o) => o.id === useEvidence.getState().outputId) ? useEvidence.getState().outputId : (outputs[0]?.id ?? null));
  const out = outputs.find((o) => o.id === outputId) ?? null;
  const safe = s.params.action === 'repair-index' ? (out?.safeNextIndex ?? null) : null;
  // Prefill the next index with the safe value (the engine's), once per output, while nothing is planned.
  useEffect(() => {
    if (s.params.action === 'repair-index' && s.phase === 'choose' && s.params.value === '' && safe !== null)
      useRepair.setState({ params: { ...useRepair.getState().params, value: String(safe), outputId } });
  }, [s.params.action, s.phase, s.params.value, safe, outputId]);
  const refused = s.plan ? blockingRefusals(s.plan.refusals, s.params.force).length > 0 : false;
  const stepIndex = archive
    ? 0
    : s.phase === 'choose' || s.phase === 'planning' || refused
      ? 0
      : s.phase === 'review'
        ? s.confirmText
          ? 2
          : 1
        : s.phase === 'applying'
          ? 2
          : 3;
  const help = ACTIONS.find((a) => a.value === s.params.action)?.help;
  if (archive) {
    return (
      <div className="view">
        <h2>Repair</h2>
        <Stepper index={0} />
        <ArchiveRefusal />
      </div>
    );
  }
  return (
    <div className="view">
      <h2>Repair</h2>
      <Stepper index={stepIndex} />
      {writesBlocked && <p className="error">The store changed on disk: writes are blocked until you rescan.</p>}
      <form
        className="card"
        onSubmit={(e) => {
          e.preventDefault();
          if (outputId !== s.params.outputId) useRepair.setState({ params: { ...useRepair.getState().params, outputId } });
          void makePlan(useRepair);
        }}
      >
        <div className="grid-form fit">
          <label>
            Action
            <select value={s.params.action} onChange={(e) => s.setParams({ action: e.target.value as RepairAction, value: '' })}>
              {ACTIONS.map((a) => (
                <option key={a.value} value={a.value}>
                  {a.label}
                </option>
              ))}
            </select>
          </label>
          {s.params.action !== 'undo' && outputs.length > 0 && (
            <label>
              Output
              <select value={outputId ?? ''} onChange={(e) => s.setParams({ outputId: e.target.value === '' ? null : Number(e.target.value), value: '' })}>
                {outputs.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.displayName} → {o.bucket}
                    {INDEX_ACTIONS.has(s.params.action) ? ` (safe next index ${safeIndexText(o)})` : ''}
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
                placeholder="the safe value"
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
          {usesShadowDir(s.params) && (
            <label>
              Shadow folder
              <input
                type="text"
                value={s.params.shadowDir}
                spellCheck={false}
                placeholder="default: ~/.local/state/store-doctor/shadow/<hash of root>/"
                onChange={(e) => s.setParams({ shadowDir: e.target.value })}
              />
            </label>
          )}
          {INDEX_ACTIONS.has(s.params.action) && (
            <label>
              Assumed restart time
              <input
                type="text"
                value={s.params.at}
                spellCheck={false}
                placeholder="now (ISO, UTC unless zoned)"
                title="When Fluent Bit is assumed to restart, for the overwrite check the plan rests on (the command line's --at)"
                onChange={(e) => s.setParams({ at: e.target.value })}
              />
            </label>
          )}
        </div>
        {s.params.action === 'repair-index' && out && (
          <p className="small" data-testid="safe-evidence">
            {out.safeNextIndex !== null ? (
              <>
                Safe next index <strong>{out.safeNextIndex}</strong>, from {out.indexEvidence.text}.
                {s.params.value.trim() !== '' && s.params.value.trim() !== String(out.safeNextIndex)
                  ? ' You typed another value: the plan says whether it is safe.'
                  : ''}
              </>
            ) : (
              <>
                The safe next index is unknown ({out.indexEvidence.text}); it is at least {out.lowerBoundNextIndexText ?? out.lowerBoundNextIndex}. Add bucket
                evidence in the Overview checklist, or type a value you know.
              </>
            )}
          </p>
        )}
        {INDEX_ACTIONS.has(s.params.action) && diagnosis && outputs.length < diagnosis.outputs.length && (
          <p className="muted small">
            Not offered for{' '}
            {diagnosis.outputs
              .filter((o) => !o.collision.hasIndex)
              .map((o) => o.displayName)
              .join(', ')}
            : no $INDEX in its key format.
          </p>
        )}
        {help && <p className="muted small">{help}</p>}
        <button type="submit" className="primary" disabled={s.phase === 'planning' || s.phase === 'applying'}>
          {s.phase === 'planning' ? 'Planning…' : 'Plan (dry run)'}
        </button>
      </form>
      {s.params.action === 'recover-versions' && <S3TargetPanel what="the copies" />}
      {s.phase !== 'review' && s.phase !== 'applied' && s.phase !== 'applying' && <ErrorText error={s.error} />}
      <PlanReview flow={useRepair} applyLabel={s.params.action === 'undo' ? 'Undo' : 'Apply'} />
    </div>
  );
}
