/**
 * Requests that plan or write — repair.plan, repair.import, repair.apply (through the one pipeline
 * in ./repair.ts) — and report.export, task.cancel.
 */
import type { EngineHandlers } from '../../../shared/contract';
import { repairPlanRequestSchema } from '../../../shared/contract';
import { EngineError } from './errors';
import { exportJson, exportMarkdown } from './export';
import { configuredStoragePathReport } from './handlers-storage-path';
import { evidenceFor } from './registry';
import { runDiagnose } from './handlers-inspect';
import type { SessionContext } from './handlers-store';
import { applyRecord, importPlan, planRequest } from './repair';
import type { StoredPlan } from './plans';
import type { TaskRegistry } from './tasks';
import { markOwnWrites } from './own-writes';

type RepairHandlers = Pick<EngineHandlers, 'repair.plan' | 'repair.import' | 'repair.apply' | 'report.export' | 'task.cancel'>;

export function repairHandlers(ctx: SessionContext, tasks: TaskRegistry): RepairHandlers {
  return {
    'repair.plan': async (input, ec) => {
      const s = ctx.registry.get(input.storeId);
      const { storeId: _storeId, ...req } = input;
      return planRequest(s, ctx.plans, ctx.door, req, { signal: ec.signal, onProgress: ec.onProgress });
    },

    'repair.import': async (input, ec) => {
      const s = ctx.registry.get(input.storeId);
      const req = repairPlanRequestSchema.safeParse(input.request);
      if (!req.success) throw new EngineError('invalid-input', `the saved plan's request is not valid: ${req.error.issues[0]?.message ?? 'invalid'}`);
      // Force is never taken from a plan file (an edit could add it): only from the caller's own flag.
      const request = { ...req.data, force: input.force === true || undefined };
      return importPlan(s, ctx.plans, ctx.door, input.plan as unknown as StoredPlan, request, { signal: ec.signal, onProgress: ec.onProgress });
    },

    'repair.apply': async (input, ec) => {
      const s = ctx.registry.get(input.storeId);
      return applyRecord(
        s,
        ctx.plans,
        input.planId,
        input.confirm,
        {
          door: ctx.door,
          ownWrites: (paths, active) => markOwnWrites(s, paths, active),
        },
        { signal: ec.signal, onProgress: ec.onProgress },
      );
    },

    'report.export': async (input) => {
      const s = ctx.registry.get(input.storeId);
      let diagnosis = s.diagnosis;
      if (!diagnosis) {
        try {
          diagnosis = runDiagnose(s);
        } catch {
          diagnosis = null; // the report still carries the scan
        }
      }
      const exportInput = {
        report: s.report,
        diagnosis,
        config: s.config,
        evidence: evidenceFor(s),
        version: ctx.version,
        storagePath: await configuredStoragePathReport(s.config),
      };
      return input.format === 'json' ? exportJson(exportInput) : exportMarkdown(exportInput);
    },

    'task.cancel': async (input) => ({ cancelled: tasks.cancel(input.taskId) }),
  };
}
