/**
 * The dry run of a write, as the engine planned it: refusals first (then nothing else is asked),
 * summary (an undo says what it puts back), why, steps with before/after diff, Store Doctor's own
 * writes (journal, backups), the process check, warnings; then type the confirm phrase, apply,
 * and the verified result with what to do next (undo; protect the index after a repair). The
 * command line that does the same is in a collapsible block. After Plan the focus moves to the
 * plan, after Apply to the result, and a polite live region announces each (a keyboard or
 * screen-reader user is not left on the button above).
 */
import { useEffect, useRef } from 'react';
import type { StoreApi, UseBoundStore } from 'zustand';
import { applyReviewedPlan, cancelApply, makePlan, reviewUndo } from './actions';
import { canApply, expectedBucket, type Plan, type PlanFlowState } from './planFlow';
import { useEvidence } from '../../state/evidence';
import { selectWritesBlocked, useSession } from '../../state/session';
import { useTasks } from '../../state/tasks';
import { ErrorText } from '../../components/ErrorText';
import { ProgressLine } from '../../components/TaskBar';
import { CliEquivalent } from '../../components/CliEquivalent';
import { UndoAtRisk } from './UndoAtRisk';
import { RefreshEvidence } from '../../components/RefreshEvidence';
import { followStep } from '../../components/NextStep';
import type { NextStep, PlanStep } from '../../../../shared/model';
import { blockingRefusals } from '../../../../shared/refusals';

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

/** One undo step in the headline: a value put back, a file or a folder the action created removed. */
function undoPart(s: PlanStep): string {
  const name = s.target.split('/').pop();
  if (s.kind === 'rmdir') return `${name}/ removed (created by the action)`;
  if (s.kind === 'delete-file') return `${name}: ${s.before ?? '(absent)'} → removed (it did not exist before)`;
  return `${name}: ${s.before ?? '(absent)'} → ${s.after ?? '(removed)'}`;
}

/** An undo's headline in its own terms: what it puts back (from its steps), then what it undoes. */
function Headline({ plan }: { plan: Plan }) {
  if (plan.action !== 'undo' || plan.steps.length === 0) return <h3>Plan: {plan.summary}</h3>;
  const back = plan.steps.map(undoPart).join(', ');
  const refused = plan.refusals.length > 0 && blockingRefusals(plan.refusals, !!plan.forced).length > 0;
  return (
    <>
      <h3>
        {refused ? 'Refused plan: ' : 'Plan: '}Put back {back}
      </h3>
      <p className="muted small">{plan.summary.replace(/^Undo /, 'Undoes ')}</p>
    </>
  );
}

/** The request the plan was made from, as a next step (for its command line). */
function planStep(s: PlanFlowState): NextStep {
  const p = s.params;
  const input: Extract<NextStep['request'], { name: 'repair.plan' }>['input'] = { action: p.action };
  if (p.outputId != null && p.action !== 'undo') input.outputId = p.outputId;
  if (p.action === 'repair-index' && /^\d+$/.test(p.value.trim())) input.value = Number(p.value.trim());
  if (p.action === 'protect-index') input.method = p.method;
  if (p.action === 'replay' && p.includeActive) input.includeActive = true;
  if (p.action === 'multipart') {
    if (p.multipartDecision !== 'auto') input.multipartDecision = p.multipartDecision;
    if (p.abortOrphans) input.abortOrphans = true;
  }
  return { label: s.plan?.summary ?? p.action, request: { name: 'repair.plan', input } };
}

/** After an index repair: protect the index now, with the step the diagnosis recommends. */
function ProtectNow({ outputId }: { outputId: number | null }) {
  const diagnosis = useEvidence((x) => x.diagnosis);
  const f = diagnosis?.outputs.find((o) => o.id === outputId)?.findings.find((x) => x.code === 'SEQUENCE_UNPROTECTED');
  const step = f?.next.find((n) => n.request.name === 'repair.plan' && n.request.input.action === 'protect-index');
  if (!step) return null;
  return (
    <button type="button" className="primary" onClick={() => followStep(step)} data-testid="protect-now">
      Protect now →
    </button>
  );
}

/** How a flow plans, applies and undoes: `repair.plan` / `repair.apply` unless given (the Chunks view's salvage). */
export interface PlanOps {
  plan(flow: StoreApi<PlanFlowState>): Promise<void>;
  apply(flow: StoreApi<PlanFlowState>): Promise<void>;
  undo(flow: StoreApi<PlanFlowState>): Promise<void>;
  /** The command line that does the same (repair.plan flows); false where none does exactly this. */
  cli: boolean;
}

/** One empty list (no store open: a storage.path's salvage): a new [] per render would re-render forever. */
const NO_ROOTS: { path: string; bucket: string }[] = [];

const REPAIR_OPS: PlanOps = { plan: makePlan, apply: applyReviewedPlan, undo: reviewUndo, cli: true };

export function PlanReview({
  flow,
  applyLabel = 'Apply',
  ops = REPAIR_OPS,
}: {
  flow: UseBoundStore<StoreApi<PlanFlowState>>;
  applyLabel?: string;
  ops?: PlanOps;
}) {
  const s = flow();
  const roots = useSession((x) => x.opened?.report.roots ?? NO_ROOTS);
  const writesBlocked = useSession(selectWritesBlocked);
  const diagnosis = useEvidence((x) => x.diagnosis);
  const outputId = s.params.outputId ?? useEvidence.getState().outputId;
  const outputBucket = diagnosis?.outputs.find((o) => o.id === outputId)?.bucket ?? null;
  const task = useTasks((t) => (s.taskId ? t.tasks[s.taskId] : undefined));
  const plan = s.plan;
  const result = s.phase === 'applied' ? s.result : null;
  const planRef = useRef<HTMLElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (plan) planRef.current?.focus();
  }, [plan]);
  useEffect(() => {
    if (result) resultRef.current?.focus();
  }, [result]);
  if (!plan) return null;
  const expected = expectedBucket(plan, roots, outputBucket);
  const blocking = blockingRefusals(plan.refusals, s.params.force);
  const ready = canApply(s, expected, writesBlocked);
  const announcement = result
    ? `${result.applied ? 'Applied' : 'Not applied'} — ${result.verified ? 'verified' : 'not verified'}: ${result.summary}`
    : `Plan ready: ${plan.summary}${plan.refusals.length ? ` — refused: ${plan.refusals.map((r) => r.reason).join('; ')}` : ''}`;
  return (
    <section className="card plan" aria-label="Plan" tabIndex={-1} ref={planRef}>
      {plan.refusals.length > 0 && (
        <div className="refusals" data-testid="refusals">
          {plan.refusals.map((r, i) => (
            <p key={i} className="error" role="alert">
              Refused: {r.reason}
              {r.forceable ? ' (can be overridden with Force)' : ''}
              {/stale evidence/i.test(r.reason) && (
                <>
                  {' '}
                  <RefreshEvidence />
                </>
              )}
            </p>
          ))}
          {plan.refusals.some((r) => r.forceable) && (
            <label className="check">
              <input
                type="checkbox"
                checked={s.params.force}
                onChange={(e) => {
                  // a forced plan is a new plan (the engine records the force): plan again with it
                  flow.getState().setParams({ force: e.target.checked });
                  void ops.plan(flow);
                }}
              />{' '}
              Force (I understand the refusal above)
            </label>
          )}
          <UndoAtRisk plan={plan} />
        </div>
      )}
      <Headline plan={plan} />
      {plan.why.length > 0 && (
        <ul className="why">
          {plan.why.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      {blocking.length === 0 && (
        <>
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
          {plan.bookkeeping && plan.bookkeeping.length > 0 && (
            <div className="bookkeeping" data-testid="bookkeeping">
              <h4>Store Doctor's own writes (for undo)</h4>
              <ul>
                {plan.bookkeeping.map((b, i) => (
                  <li key={i}>
                    <code className="kind">{b.kind}</code> <code>{b.target}</code> <span className="muted">— {b.description}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {plan.processCheck && (
            <p className={plan.processCheck.processes.length ? 'error' : 'ok-text'} data-testid="process-check">
              {plan.processCheck.processes.length ? '✗ ' : '✓ '}
              {plan.processCheck.text}
            </p>
          )}
        </>
      )}
      {plan.warnings.map((w, i) => (
        <p key={i} className="warning-text">
          ⚠ {w}
        </p>
      ))}
      {ops.cli && <CliEquivalent steps={[planStep(s)]} title="The same on the command line" />}
      {s.phase === 'review' && blocking.length === 0 && plan.steps.length > 0 && (
        <div className="confirm">
          <label>
            <span>
              Type {expected ? <code>{expected}</code> : 'the bucket name'} to confirm
              {expected?.includes('/') ? ' (several outputs share this bucket: bucket/output)' : ''}
            </span>
            <input
              type="text"
              value={s.confirmText}
              autoComplete="off"
              spellCheck={false}
              aria-label={expected?.includes('/') ? 'Bucket and output to confirm' : 'Bucket name to confirm'}
              onChange={(e) => s.setConfirm(e.target.value)}
            />
          </label>
          <button type="button" className="primary danger" disabled={!ready} onClick={() => void ops.apply(flow)}>
            {applyLabel}
          </button>
          {writesBlocked && <span className="error">Writes are blocked: the store changed on disk. Rescan first.</span>}
        </div>
      )}
      {s.phase === 'applying' && (task ? <ProgressLine task={task} /> : <p>Applying…</p>)}
      <ErrorText error={s.error} />
      {result && (
        <div className={`result ${result.applied ? 'ok' : 'failed'}`} data-testid="apply-result" tabIndex={-1} ref={resultRef}>
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
          <div className="row-form">
            {result.applied && result.action === 'repair-index' && <ProtectNow outputId={outputId ?? null} />}
            {/* a replay's journal entry is not undoable (its objects are in the bucket): no button that would be refused */}
            {result.undoId && result.action !== 'undo' && result.action !== 'replay' && (
              <button type="button" onClick={() => void ops.undo(flow)}>
                Undo this change…
              </button>
            )}
            <button type="button" className="small" onClick={() => useSession.getState().setView('history')}>
              History →
            </button>
          </div>
        </div>
      )}
      {s.phase === 'applying' && s.taskId && !task && (
        <button type="button" onClick={() => void cancelApply(flow)}>
          Cancel
        </button>
      )}
      {/* last, so that the refusals stay the plan's first child */}
      <p className="sr-only" role="status" aria-live="polite" data-testid="plan-announcement">
        {announcement}
      </p>
    </section>
  );
}
