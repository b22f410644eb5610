/**
 * `diagnose()`: scan report + config + bucket evidence (+ assumed restart time) → per S3 output
 * the persisted `$INDEX`, the lower bound and — only where the evidence covers it — the safe next
 * index, a timeline, resets, collision analysis and findings, plus what was and was not checked.
 * Pure: findings name their next steps as requests, never as one door's command lines.
 */
import type {
  Diagnosis,
  DiagnosisChecks,
  EvidenceFreshness,
  FluentBitConfig,
  FluentBitVersionGiven,
  Finding,
  OutputDiagnosis,
  RootReport,
  S3Evidence,
  StoreReport,
} from '../../../shared/model';
import { analyzeCollisions, parseKey } from '../../../shared/keyformat';
import { bySeverity } from '../../../shared/severity';
import { pushAll } from '../../../shared/arrays';
import { analyzeBucket } from './bucket';
import { coversIndex, indexEvidenceOf } from './coverage';
import { indexFileFindings, overwriteRiskFinding, reuseFindings, type IndexContext } from './findings-index';
import { sequenceFinding } from './findings-sequence';
import { writersFinding } from './findings-writers';
import { backlogFindings, multipartFindings, outputIdMismatch, sharedRootFinding, type MismatchSafe } from './findings-store';
import { evidenceFindings, noStoreFinding, indexStateUnknownFinding, rootUnusedFinding, storeProblemFindings } from './findings-evidence';
import { safeIndexOf } from './safe-index';
import { nextKeyExamples } from './next-keys';
import { configVersionFindings, type VersionView } from './findings-version';
import { resolveVersion } from '../fluentbit/versions';
import { selectTargets, targetsFromConfig, inferTargets, type Target } from './targets';

export interface DiagnoseInput {
  report: StoreReport;
  config: FluentBitConfig | null;
  evidence?: Map<number, S3Evidence> | Record<number, S3Evidence> | null;
  /** Assumed restart time (default: now, or the newest object time when that is later). */
  at?: Date;
  outputId?: number;
  /** The Fluent Bit version set on the store (given, or read from its binary); without it the store tells what it can. */
  fluentBit?: FluentBitVersionGiven | null;
  /** What makes evidence stale: the tool's own bucket writes, an age limit. */
  freshness?: EvidenceFreshness;
}

export { SEVERITY_ORDER, bySeverity, worstSeverity } from '../../../shared/severity';

function evidenceById(e: DiagnoseInput['evidence']): Map<number, S3Evidence> {
  if (!e) return new Map();
  if (e instanceof Map) return e;
  return new Map(Object.entries(e).map(([k, v]) => [Number(k), v]));
}

function defaultAt(evidence: Map<number, S3Evidence>): Date {
  let latest = Date.now();
  for (const ev of evidence.values()) {
    for (const o of [...ev.objects, ...(ev.versions ?? [])]) {
      const t = o.lastModified ? Date.parse(o.lastModified) : NaN;
      if (!Number.isNaN(t) && t + 1000 > latest) latest = t + 1000;
    }
  }
  return new Date(latest);
}

export function diagnose(input: DiagnoseInput): Diagnosis {
  const { report, config } = input;
  const evidence = evidenceById(input.evidence);
  const at = input.at ?? defaultAt(evidence);
  const version: VersionView = resolveVersion(input.fluentBit ?? null, report);
  const outputOf = (t: Target) => config?.outputs.find((o) => o.id === t.id) ?? null;
  const allTargets = config ? targetsFromConfig(report, config) : inferTargets(report);
  const targets = selectTargets(report, config, input.outputId);
  const rootDone = new Set<RootReport>();
  const outputs: OutputDiagnosis[] = [];
  const storeFindings: Finding[] = [];

  // first every output's bucket and index: OUTPUT_ID_MISMATCH names the value of another output
  const buckets = new Map(targets.map((t) => [t.id, analyzeBucket(t.keyFormat, t.tagDelimiters, evidence.get(t.id) ?? null)]));
  const covers = new Map(targets.map((t) => [t.id, indexEvidenceOf(t, evidence.get(t.id) ?? null, input.freshness)]));
  const seqOf = (t: Target) => t.root?.seqIndex.find((s) => s.outputId === t.id) ?? null;
  const persistedOf = (t: Target) => {
    const seq = seqOf(t);
    return seq && seq.value !== null && Number.isSafeInteger(seq.value) ? seq.value : null;
  };
  const bounds = new Map(targets.map((t) => [t.id, safeIndexOf(t, buckets.get(t.id)!, persistedOf(t), seqOf(t), allTargets, config)]));
  const safeOf = (t: Target): number | null => {
    const b = bounds.get(t.id)!;
    return coversIndex(covers.get(t.id)!) && b.lowerBoundText === null ? b.lowerBound : null;
  };
  const mismatchSafe = new Map<number, MismatchSafe>(
    targets.map((t) => {
      const b = bounds.get(t.id)!;
      return [t.id, { safe: safeOf(t), lowerBound: b.lowerBound, beyondExactText: b.lowerBoundText, strayFloor: b.strayFloor }];
    }),
  );

  for (const target of targets) {
    const ev = evidence.get(target.id) ?? null;
    const bucket = buckets.get(target.id)!;
    const cover = covers.get(target.id)!;
    const collision = analyzeCollisions(target.keyFormat || '/$INDEX', target.tagDelimiters);
    const seq = seqOf(target);
    const persisted = persistedOf(target);
    const { lowerBound, lowerBoundText, strayFloor } = bounds.get(target.id)!;
    const safe = safeOf(target);
    const rootSiblings = allTargets.filter((t) => t !== target && t.root && t.root === target.root);
    const ctx: IndexContext = {
      target,
      seq,
      persisted,
      lowerBound,
      safe,
      beyondExactText: lowerBoundText,
      cover,
      strayFloor,
      bucket,
      collision,
      at,
      rootSiblings,
    };
    const findings: Finding[] = [];
    pushAll(findings, evidenceFindings(target, ev, cover, report));
    pushAll(findings, indexFileFindings(ctx));
    const risk = overwriteRiskFinding(ctx);
    if (risk) findings.push(risk);
    const writers = writersFinding(target, bucket);
    if (writers) {
      findings.push(writers);
      ctx.writers = writers.data!.writers as number;
    }
    pushAll(findings, reuseFindings(ctx));
    const seqF = sequenceFinding(ctx);
    if (seqF) findings.push(seqF);
    // One card per shared root: on the first diagnosed output of those that share it.
    const shared = sharedRootFinding(target, allTargets);
    if (shared && !targets.some((t) => t !== target && t.id < target.id && (shared.data?.outputs as number[]).includes(t.id))) findings.push(shared);
    pushAll(findings, configVersionFindings(target, outputOf(target), version));
    if (target.root && !rootDone.has(target.root)) {
      rootDone.add(target.root);
      pushAll(findings, rootFindings(target.root, target, ev, allTargets, config, mismatchSafe, version, outputOf(target)?.properties['retry_limit']));
    }
    findings.sort(bySeverity);
    // Fluent Bit starts at the persisted value, at 0 when the file is missing, not at all when it cannot parse it.
    const nextKeys = nextKeyExamples(target, bucket, cover, seq ? persisted : target.root?.sequence.indexMetadataError ? null : 0, at);
    outputs.push({
      id: target.id,
      displayName: target.displayName,
      bucket: target.bucket,
      keyFormat: target.keyFormat,
      rootPath: target.root?.path ?? target.rootPath,
      persistedNextIndex: persisted,
      highestIndexInBucket: bucket.highestIndex,
      safeNextIndex: safe,
      lowerBoundNextIndex: lowerBound,
      indexEvidence: cover,
      ...(bucket.highestIndexText !== null && BigInt(bucket.highestIndexText) > BigInt(Number.MAX_SAFE_INTEGER)
        ? { highestIndexInBucketText: bucket.highestIndexText }
        : {}),
      ...(lowerBoundText !== null ? { lowerBoundNextIndexText: lowerBoundText } : {}),
      ...(persisted === null && seq?.valueText != null ? { persistedNextIndexText: seq.valueText } : {}),
      timeline: bucket.timeline,
      resets: bucket.resets,
      collision,
      ...(nextKeys ? { nextKeys } : {}),
      findings,
    });
  }

  if (input.outputId === undefined) {
    if (!report.roots.length) storeFindings.push(noStoreFinding(report));
    for (const root of report.roots) {
      if (rootDone.has(root)) continue;
      const fs = rootFindings(root, null, null, allTargets, config, mismatchSafe, version);
      const used = allTargets.some((t) => t.root === root);
      if (!used && !config) fs.push(indexStateUnknownFinding(root));
      else if (!used && (config || fs.length)) fs.push(rootUnusedFinding(root, !!config));
      pushAll(storeFindings, fs);
    }
    // with no store at all, NO_STORE already says what the one problem says
    if (report.roots.length) pushAll(storeFindings, storeProblemFindings(report));
  }
  storeFindings.sort(bySeverity);
  return {
    at: at.toISOString(),
    fluentBit: version.info,
    outputs,
    storeFindings,
    checks: checksOf(report, config, targets, allTargets, evidence, input.freshness),
  };
}

function checksOf(
  report: StoreReport,
  config: FluentBitConfig | null,
  targets: Target[],
  all: Target[],
  evidence: Map<number, S3Evidence>,
  freshness?: EvidenceFreshness,
): DiagnosisChecks {
  const roots = report.roots.map((r) => ({
    bucket: r.bucket,
    path: r.path,
    index: config || all.some((t) => t.root === r) ? ('known' as const) : ('unknown' as const),
  }));
  return {
    roots,
    complete: roots.every((r) => r.index === 'known'),
    store: report.roots.length > 0,
    config: config ? config.files : null,
    outputs: targets.map((t) => {
      const ev = evidence.get(t.id) ?? null;
      return {
        id: t.id,
        displayName: t.displayName,
        listing: indexEvidenceOf(t, ev, freshness).coverage,
        versions: !!ev?.versions,
        multipart: !!ev?.multipartUploads,
      };
    }),
  };
}

function rootFindings(
  root: RootReport,
  target: Target | null,
  ev: S3Evidence | null,
  all: Target[],
  config: FluentBitConfig | null,
  safe: Map<number, MismatchSafe>,
  version: VersionView,
  retryLimit?: string,
): Finding[] {
  const owners = all.filter((t) => t.root === root);
  const id = target?.id ?? null;
  const out = backlogFindings(root, id, version, retryLimit);
  const belongs = (k: string) =>
    owners.some((t) => !!t.keyFormat && !!parseKey(t.keyFormat, k, { tagDelimiters: t.tagDelimiters })) || (!owners.some((t) => t.keyFormat) && !!target);
  pushAll(out, multipartFindings(root, ev?.multipartUploads ?? null, belongs, id, root.bucket));
  const mismatch = outputIdMismatch(root, config, owners, safe);
  if (mismatch) out.push(mismatch.finding);
  return out;
}
