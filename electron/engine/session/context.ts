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
  const key = keyOf(s, opts);
  const madeAt = Date.now();
  const diagnosis = diagnose({
    report: s.report,
    config: s.config,
    evidence: evidenceMap(s),
    at: opts.at ? new Date(opts.at) : undefined,
    outputId: opts.outputId,
    fluentBit: s.fluentBit,
    freshness: { bucketWrites: s.bucketWrites, ...(s.evidenceMaxAgeMs !== null ? { maxAgeMs: s.evidenceMaxAgeMs } : {}) },
  });
  made.set(s, { key, madeAt, diagnosis });
  return diagnosis;
}

/** Everything a session's diagnosis rests on, by identity (reports, configs and evidence are replaced, never changed in place). */
interface DiagnosisKey {
  report: StoreSession['report'];
  config: StoreSession['config'];
  fluentBit: StoreSession['fluentBit'];
  evidence: S3Evidence | null;
  byOutput: [number, S3Evidence][];
  bucketWrites: string;
  maxAgeMs: number | null;
  at: string | undefined;
  outputId: number | undefined;
}

function keyOf(s: StoreSession, opts: { at?: string; outputId?: number }): DiagnosisKey {
  return {
    report: s.report,
    config: s.config,
    fluentBit: s.fluentBit,
    evidence: s.evidence,
    byOutput: [...s.evidenceByOutput],
    bucketWrites: JSON.stringify(s.bucketWrites),
    maxAgeMs: s.evidenceMaxAgeMs,
    at: opts.at,
    outputId: opts.outputId,
  };
}

function sameKey(a: DiagnosisKey, b: DiagnosisKey): boolean {
  return (
    a.report === b.report &&
    a.config === b.config &&
    a.fluentBit === b.fluentBit &&
    a.evidence === b.evidence &&
    a.byOutput.length === b.byOutput.length &&
    a.byOutput.every(([id, ev], i) => b.byOutput[i][0] === id && b.byOutput[i][1] === ev) &&
    a.bucketWrites === b.bucketWrites &&
    a.maxAgeMs === b.maxAgeMs &&
    a.at === b.at &&
    a.outputId === b.outputId
  );
}

/** Did some evidence pass its age limit between `then` and now (the one part of a diagnosis that changes with the clock alone)? */
function agedSince(s: StoreSession, then: number): boolean {
  const max = s.evidenceMaxAgeMs;
  if (max === null) return false;
  const now = Date.now();
  for (const ev of [s.evidence, ...s.evidenceByOutput.values()]) {
    const taken = ev?.listedAt ? Date.parse(ev.listedAt) : NaN;
    if (!Number.isNaN(taken) && then - taken <= max && now - taken > max) return true;
  }
  return false;
}

/** The last diagnosis made of each session, with what it rested on. */
const made = new WeakMap<StoreSession, { key: DiagnosisKey; madeAt: number; diagnosis: Diagnosis }>();

/**
 * The session's diagnosis of its current state: the one already made (by `diagnose.run` or an
 * earlier plan) when nothing it rests on changed — same store scan, config, evidence, Fluent Bit
 * version, the tool's own bucket writes, restart time (`at`; none given: the diagnosis being
 * reused, the one the operator saw) and no evidence aged past the limit since — else a new one.
 */
export function currentDiagnosis(s: StoreSession, opts: { at?: string } = {}): Diagnosis {
  const last = made.get(s);
  // A plan asks with the restart time the operator saw (the CLI passes the diagnosis' own `at`):
  // a diagnosis made for the time it resolved to is the same diagnosis.
  const asked = last && opts.at !== undefined && opts.at === last.diagnosis.at ? { ...opts, at: last.key.at } : opts;
  if (last && sameKey(last.key, keyOf(s, asked)) && !agedSince(s, last.madeAt)) return last.diagnosis;
  return diagnoseSession(s, opts);
}

export function diagnosisContext(s: StoreSession, at?: string): DiagnosisContext {
  return { storePath: s.path, report: s.report, config: s.config, evidence: evidenceMap(s), diagnosis: currentDiagnosis(s, { at }) };
}
