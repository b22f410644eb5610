/**
 * The dry run of a write, as the engine planned it: summary, why, steps with before/after diff,
 * warnings and refusals; then type-the-bucket-name to confirm, apply, and the verified result.
 */
import type { StoreApi, UseBoundStore } from 'zustand';
import { applyPlan, cancelApply, planUndo } from '../actions/repair';
import { canApply, expectedBucket, type PlanFlowState } from '../state/planFlow';
import { useEvidence } from '../state/evidence';
import { selectWritesBlocked, useSession } from '../state/session';
import { useTasks } from '../state/tasks';
import { ErrorText } from './ErrorText';
import { ProgressLine } from './TaskBar';
import type { PlanStep } from '../../../shared/model';

function StepDiff({ step }: { step: PlanStep }) {
  if (step.before === undefined && step.after === undefined) return null;
  return (
    <div className="diff" data-testid="diff">
      <div>
        <div className="diff-label">Before</div>
        <pre className="diff-before">{step.before ?? '(does not exist)'}</pre>
      </div>
      <div>
        <div className="diff-label">After</div>
        <pre className="diff-after">{step.after ?? '(removed)'}</pre>
      </div>
    </div>
  );
}

export function PlanReview({ flow, applyLabel = 'Apply' }: { flow: UseBoundStore<StoreApi<PlanFlowState>>; applyLabel?: string }) {
  const s = flow();
  const roots = useSession((x) => x.opened?.report.roots ?? []);
  const writesBlocked = useSession(selectWritesBlocked);
  const diagnosis = useEvidence((x) => x.diagnosis);
  const outputId = s.params.outputId ?? useEvidence.getState().outputId;
  const outputBucket = diagnosis?.outputs.find((o) => o.id === outputId)?.bucket ?? null;
  const task = useTasks((t) => (s.taskId ? t.tasks[s.taskId] : undefined));
  const plan = s.plan;
  if (!plan) return null;
  const expected = expectedBucket(plan, roots, outputBucket);
  const blockingRefusals = plan.refusals.filter((r) => !r.forceable || !s.params.force);
  const ready = canApply(s, expected, writesBlocked);
  const result = s.phase === 'applied' ? s.result : null;
  return (
    <section className="card plan" aria-label="Plan">
      <h3>Plan: {plan.summary}</h3>
      {plan.why.length > 0 && (
        <ul className="why">
          {plan.why.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      <ol className="steps">
        {plan.steps.map((step, i) => (
          <li key={i}>
            <div>
              <code className="kind">{step.kind}</code> <code>{step.target}</code>
            </div>
            <div className="muted">{step.description}</div>
            <StepDiff step={step} />
          </li>
        ))}
      </ol>
      {plan.steps.length === 0 && <p className="muted">Nothing to do.</p>}
      {plan.warnings.map((w, i) => (
        <p key={i} className="warning-text">
          ⚠ {w}
        </p>
      ))}
      {plan.refusals.map((r, i) => (
        <p key={i} className="error">
          Refused: {r.reason}
          {r.forceable ? ' (can be overridden with Force)' : ''}
        </p>
      ))}
      {plan.refusals.some((r) => r.forceable) && (
        <label className="check">
          <input type="checkbox" checked={s.params.force} onChange={(e) => flow.setState({ params: { ...s.params, force: e.target.checked } })} /> Force (I
          understand the refusal above)
        </label>
      )}
      {s.phase === 'review' && blockingRefusals.length === 0 && plan.steps.length > 0 && (
        <div className="confirm">
          <label>
            <span>
              Type the bucket name
              {expected ? (
                <>
                  {' '}
                  <code>{expected}</code>
                </>
              ) : (
                ''
              )}{' '}
              to confirm
            </span>
            <input
              type="text"
              value={s.confirmText}
              autoComplete="off"
              spellCheck={false}
              aria-label="Bucket name to confirm"
              onChange={(e) => s.setConfirm(e.target.value)}
            />
          </label>
          <button type="button" className="primary danger" disabled={!ready} onClick={() => void applyPlan(flow)}>
            {applyLabel}
          </button>
          {writesBlocked && <span className="error">Writes are blocked: the store changed on disk. Rescan first.</span>}
        </div>
      )}
      {s.phase === 'applying' && (task ? <ProgressLine task={task} /> : <p>Applying…</p>)}
      <ErrorText error={s.error} />
      {result && (
        <div className={`result ${result.applied ? 'ok' : 'failed'}`} data-testid="apply-result">
          <h4>
            {result.applied ? 'Applied' : 'Not applied'} — {result.verified ? 'verified' : 'not verified'}
          </h4>
          <p>{result.summary}</p>
          <ul>
            {result.steps.map((r, i) => (
              <li key={i} className={r.ok ? '' : 'error'}>
                {r.ok ? '✓' : '✗'} {r.step.description}: {r.message}
              </li>
            ))}
          </ul>
          {result.warnings.map((w, i) => (
            <p key={i} className="warning-text">
              ⚠ {w}
            </p>
          ))}
          {result.unsettled?.map((u, i) => (
            <p key={`u${i}`} className="error">
              Not settled: {u}
            </p>
          ))}
          {result.undoId && result.action !== 'undo' && (
            <button type="button" onClick={() => void planUndo(flow)}>
              Undo this change…
            </button>
          )}
        </div>
      )}
      {s.phase === 'applying' && s.taskId && !task && (
        <button type="button" onClick={() => void cancelApply(flow)}>
          Cancel
        </button>
      )}
    </section>
  );
}
