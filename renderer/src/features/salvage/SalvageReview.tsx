/**
 * The Chunks view's salvage under review: the same PlanReview as every write (refusals, steps,
 * Store Doctor's own writes, the process check, the typed confirmation, the verified result and
 * undo), planned and applied through storagePath.salvagePlan / salvageApply.
 */
import { applySalvage, planSalvage, planSalvageUndo } from './actions';
import { useSalvage, useSalvageTarget } from './state';
import { shown } from '../../format';
import { ErrorText } from '../../components/ErrorText';
import { PlanReview, type PlanOps } from '../repair';

const OPS: PlanOps = { plan: planSalvage, apply: applySalvage, undo: planSalvageUndo, cli: false };

export function SalvageReview() {
  const target = useSalvageTarget((s) => s.target);
  const phase = useSalvage((s) => s.phase);
  const error = useSalvage((s) => s.error);
  const plan = useSalvage((s) => s.plan);
  if (!target) return null;
  return (
    <section className="card" aria-label="Salvage" data-testid="salvage-review">
      <h3>
        Salvage <code>{shown(target.chunk)}</code>
      </h3>
      <p className="muted small">
        On the command line, <code>store-doctor salvage {shown(target.path)}</code> plans every chunk of the folder that needs it; here only this one.
      </p>
      {phase === 'planning' && <p>Planning…</p>}
      {!plan && <ErrorText error={error} />}
      <PlanReview flow={useSalvage} applyLabel="Apply the salvage" ops={OPS} />
    </section>
  );
}
