/**
 * A finding's next step (a request, as data from the engine) as a button: it opens the view that
 * makes that request with the fields prefilled — the plan is still reviewed before anything runs.
 */
import type { NextStep } from '../../../shared/model';
import { rescan } from '../actions/store';
import { useEvidence } from '../state/evidence';
import { useMultipart, useRepair, useReplay } from '../features/repair/state';
import { useSession } from '../state/session';

export function followStep(step: NextStep): void {
  const r = step.request;
  const session = useSession.getState();
  switch (r.name) {
    case 'repair.plan': {
      const i = r.input;
      const flow = i.action === 'replay' ? useReplay : i.action === 'multipart' ? useMultipart : useRepair;
      flow.getState().setParams({
        action: i.action,
        outputId: i.outputId ?? null,
        ...(i.method ? { method: i.method } : {}),
        ...(i.includeActive !== undefined ? { includeActive: i.includeActive } : {}),
        ...(i.multipartDecision ? { multipartDecision: i.multipartDecision } : {}),
        ...(i.abortOrphans !== undefined ? { abortOrphans: i.abortOrphans } : {}),
      });
      session.setView(i.action === 'replay' ? 'replay' : i.action === 'multipart' ? 'multipart' : 'repair');
      return;
    }
    case 'evidence.live':
    case 'evidence.importOffline':
      if (r.input.outputId !== undefined) useEvidence.getState().setOutputId(r.input.outputId);
      session.setView('index');
      return;
    case 'config.load':
      session.setView('open');
      return;
    case 'store.rescan':
      void rescan();
  }
}

export function NextStepButton({ step }: { step: NextStep }) {
  return (
    <button type="button" className="small" onClick={() => followStep(step)} data-testid="next-step">
      {step.label} →
    </button>
  );
}
