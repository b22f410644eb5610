/**
 * What the session knows about one opened store, as the diagnosis and the one planner need it:
 * evidence per output id, the diagnosis of the current state, the diagnosis context.
 */
import type { Diagnosis, S3Evidence } from '../../../shared/model';
import { diagnose, offlineTarget, selectTargets } from '../diagnose';
import type { DiagnosisContext } from '../repair';
import type { StoreSession } from './registry';

/** Evidence per output id: per-output imports, plus a session-wide import tied to its bucket's output. */
export function evidenceMap(s: StoreSession): Map<number, S3Evidence> {
  const map = new Map(s.evidenceByOutput);
  if (s.evidence) {
    const targets = selectTargets(s.report, s.config);
    if (targets.length) {
      try {
        const t = offlineTarget(targets, s.evidence);
        if (!map.has(t.id)) map.set(t.id, s.evidence);
      } catch {
        // a listing of a bucket no output uses: it stays unattached (the diagnosis says there is no evidence)
      }
    }
  }
  return map;
}

export function diagnoseSession(s: StoreSession, opts: { at?: string; outputId?: number } = {}): Diagnosis {
  return diagnose({
    report: s.report,
    config: s.config,
    evidence: evidenceMap(s),
    at: opts.at ? new Date(opts.at) : undefined,
    outputId: opts.outputId,
    fluentBit: s.fluentBit,
    freshness: { bucketWrites: s.bucketWrites, ...(s.evidenceMaxAgeMs !== null ? { maxAgeMs: s.evidenceMaxAgeMs } : {}) },
  });
}

export function diagnosisContext(s: StoreSession, at?: string): DiagnosisContext {
  return { storePath: s.path, report: s.report, config: s.config, evidence: evidenceMap(s), diagnosis: diagnoseSession(s, { at }) };
}
