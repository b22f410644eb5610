/**
 * Requests that plan or write: repair.plan, repair.apply (refused while the store changes under
 * us, and re-scanned after writing), report.export and task.cancel.
 */
import path from 'node:path';
import type { EngineHandlers } from '../../../shared/contract';
import type { RepairPlan } from '../../../shared/model';
import { EngineError } from './errors';
import { exportJson, exportMarkdown } from './export';
import { evidenceFor } from './registry';
import { runDiagnose } from './handlers-inspect';
import type { SessionContext } from './handlers-store';
import type { TaskRegistry } from './tasks';

type RepairHandlers = Pick<EngineHandlers, 'repair.plan' | 'repair.apply' | 'report.export' | 'task.cancel'>;

/** Local paths a plan writes (for telling our own writes from Fluent Bit's in the live watch). */
function localTargets(plan: RepairPlan): string[] {
  return plan.steps.map((s) => s.target).filter((t) => path.isAbsolute(t));
}

const OWN_WRITE_GRACE_MS = 3000;

export function repairHandlers(ctx: SessionContext, tasks: TaskRegistry): RepairHandlers {
  return {
    'repair.plan': async (input, ec) => {
      const s = ctx.registry.get(input.storeId);
      return ctx.deps.repairPlan(s, input, { signal: ec.signal, onProgress: ec.onProgress });
    },

    'repair.apply': async (input, ec) => {
      const s = ctx.registry.get(input.storeId);
      if (s.report.source.kind === 'archive')
        throw new EngineError('refused', `${path.basename(s.path)} is an archive: it is opened read-only. Extract it and open the folder to repair.`, s.path);
      if (s.changedSinceScan && input.action !== 'undo') {
        throw new EngineError(
          'refused',
          `the store changed at ${s.lastChangeAt ?? 'an unknown time'} after it was scanned (is Fluent Bit running?). Stop Fluent Bit, rescan, and plan again.`,
          s.path,
        );
      }
      const expected = ctx.deps.confirmations(s, input);
      if (!expected.includes(input.confirm)) {
        throw new EngineError('refused', `type the bucket name (${expected.join(' or ')}) to confirm this ${input.action}`);
      }
      const plan = await ctx.deps.repairPlan(s, input, { signal: ec.signal, onProgress: ec.onProgress });
      s.ownWrites = { paths: new Set(localTargets(plan)), until: Number.POSITIVE_INFINITY };
      try {
        const result = await ctx.deps.repairApply(s, input, plan, { signal: ec.signal, onProgress: ec.onProgress });
        // What we wrote is now the truth: rescan so the views and the next plan see it.
        s.report = await ctx.deps.scanStore(s.path, { signal: ec.signal });
        s.changedSinceScan = false;
        s.diagnosis = null;
        return result;
      } finally {
        s.ownWrites = { paths: s.ownWrites?.paths ?? new Set(), until: Date.now() + OWN_WRITE_GRACE_MS };
      }
    },

    'report.export': async (input) => {
      const s = ctx.registry.get(input.storeId);
      let diagnosis = s.diagnosis;
      if (!diagnosis) {
        try {
          diagnosis = await runDiagnose(ctx, s);
        } catch {
          diagnosis = null; // the report still carries the scan
        }
      }
      const exportInput = { report: s.report, diagnosis, config: s.config, evidence: evidenceFor(s), version: ctx.version };
      return input.format === 'json' ? exportJson(exportInput) : exportMarkdown(exportInput);
    },

    'task.cancel': async (input) => ({ cancelled: tasks.cancel(input.taskId) }),
  };
}
