/**
 * `diagnose()`: scan report + config + bucket evidence (+ assumed restart time) → per S3 output
 * the persisted and safe `$INDEX`, a timeline, resets, collision analysis and findings. Pure.
 */
import type { Diagnosis, FluentBitConfig, Finding, OutputDiagnosis, RootReport, S3Evidence, Severity, StoreReport } from '../../../shared/model';
import { analyzeCollisions, parseKey } from '../../../shared/keyformat';
import { pushAll } from '../../../shared/arrays';
import { analyzeBucket } from './bucket';
import { indexFileFindings, overwriteRiskFinding, reuseFindings, sequenceFinding, type IndexContext } from './findings-index';
import { backlogFindings, multipartFindings, outputIdMismatch, sharedRootFinding, type MismatchSafe } from './findings-store';
import { safeIndexOf } from './safe-index';
import { selectTargets, targetsFromConfig, inferTargets, type Target } from './targets';
import { command, type CommandContext } from './text';

export interface DiagnoseInput {
  report: StoreReport;
  config: FluentBitConfig | null;
  evidence?: Map<number, S3Evidence> | Record<number, S3Evidence> | null;
  /** Assumed restart time (default: now, or the newest object time when that is later). */
  at?: Date;
  outputId?: number;
  /** How recommended commands should name the store, config and evidence. */
  commands?: Partial<CommandContext>;
}

export const SEVERITY_ORDER: Severity[] = ['critical', 'error', 'warning', 'info'];
export const bySeverity = (a: Finding, b: Finding) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity);

function evidenceMap(e: DiagnoseInput['evidence']): Map<number, S3Evidence> {
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
  const evidence = evidenceMap(input.evidence);
  const at = input.at ?? defaultAt(evidence);
  const allTargets = config ? targetsFromConfig(report, config) : inferTargets(report);
  const targets = selectTargets(report, config, input.outputId);
  const cmd: CommandContext = {
    store: input.commands?.store ?? report.source.path,
    config: input.commands?.config ?? config?.files[0] ?? null,
    evidenceArgs: input.commands?.evidenceArgs,
    multipleOutputs: input.commands?.multipleOutputs ?? allTargets.length > 1,
  };
  const rootDone = new Set<RootReport>();
  const outputs: OutputDiagnosis[] = [];
  const storeFindings: Finding[] = [];

  // first every output's bucket and safe index: OUTPUT_ID_MISMATCH names the value of another output
  const buckets = new Map(targets.map((t) => [t.id, analyzeBucket(t.keyFormat, t.tagDelimiters, evidence.get(t.id) ?? null)]));
  const seqOf = (t: Target) => t.root?.seqIndex.find((s) => s.outputId === t.id) ?? null;
  const persistedOf = (t: Target) => {
    const seq = seqOf(t);
    return seq && seq.value !== null && Number.isSafeInteger(seq.value) ? seq.value : null;
  };
  const safe = new Map(targets.map((t) => [t.id, safeIndexOf(t, buckets.get(t.id)!, persistedOf(t), seqOf(t), allTargets, config)]));
  const safeForMismatch = new Map(
    targets.map((t) => [
      t.id,
      { ...safe.get(t.id)!, incomplete: !!buckets.get(t.id)!.evidence && !buckets.get(t.id)!.evidence!.complete, noEvidence: !buckets.get(t.id)!.evidence },
    ]),
  );

  for (const target of targets) {
    const ev = evidence.get(target.id) ?? null;
    const bucket = buckets.get(target.id)!;
    const collision = analyzeCollisions(target.keyFormat || '/$INDEX', target.tagDelimiters);
    const seq = seqOf(target);
    const persisted = persistedOf(target);
    const { safeNextIndex, safeNextIndexText, strayFloor } = safe.get(target.id)!;
    const rootSiblings = allTargets.filter((t) => t !== target && t.root && t.root === target.root);
    const ctx: IndexContext = { target, seq, persisted, safeNextIndex, safeNextIndexText, strayFloor, bucket, collision, at, cmd, rootSiblings };
    const findings: Finding[] = [];
    if (target.inferred) {
      findings.push({
        code: 'NO_EVIDENCE',
        severity: 'info',
        summary: `No Fluent Bit config: output ${target.id} was inferred from seq_index_${target.id}; its key format is unknown, so bucket keys cannot be matched.`,
        evidence: [`${target.root?.path}/sequence/index_metadata/seq_index_${target.id}`],
        action: `Give the config: \`${command(cmd, 'diagnose', null, { extra: ['--config', '<fluent-bit.conf>'] })}\`.`,
        outputId: target.id,
        data: { reason: 'no-config' },
      });
    }
    if (!target.root && !target.inferred) {
      findings.push({
        code: 'ROOT_NOT_FOUND',
        severity: 'warning',
        summary: `The store has no root for bucket ${target.bucket} (${target.rootPath}): Fluent Bit would create it empty${target.hasIndex ? ' and start $INDEX at 0' : ''}.`,
        evidence: [
          `roots in the store: ${report.roots.map((r) => r.bucket).join(', ') || 'none'}`,
          `config: store_dir ${target.s3?.storeDir}, bucket ${target.bucket}`,
        ],
        action: 'Check that this is the store_dir of this Fluent Bit (or the right snapshot) before repairing anything.',
        outputId: target.id,
      });
    }
    pushAll(findings, indexFileFindings(ctx));
    const risk = overwriteRiskFinding(ctx);
    if (risk) findings.push(risk);
    pushAll(findings, reuseFindings(ctx));
    const seqF = sequenceFinding(ctx);
    if (seqF) findings.push(seqF);
    const shared = sharedRootFinding(target, allTargets);
    if (shared) findings.push(shared);
    if (target.root && !rootDone.has(target.root)) {
      rootDone.add(target.root);
      pushAll(findings, rootFindings(target.root, target, ev, allTargets, config, cmd, safeForMismatch));
    }
    if (!ev && !target.inferred) {
      findings.push({
        code: 'NO_EVIDENCE',
        severity: 'info',
        summary: 'No bucket evidence: the highest $INDEX used, past resets and the overwrite risk were not checked.',
        evidence: [`bucket ${target.bucket}, key format ${target.keyFormat}`],
        action: `Give a listing (\`aws s3api list-objects-v2 --bucket ${target.bucket} > listing.json\`, then \`--listing listing.json\`) or use \`--live\`.`,
        outputId: target.id,
        data: { reason: 'no-evidence' },
      });
    } else if (ev && !ev.complete) {
      findings.push({
        code: 'NO_EVIDENCE',
        severity: 'warning',
        summary: 'The bucket evidence is incomplete: conclusions about the highest $INDEX may be too low.',
        evidence: [...ev.notes, `scope: ${ev.scope.join(', ')}`],
        action: 'Repeat the listing to the end before repairing the index.',
        outputId: target.id,
        data: { reason: 'incomplete' },
      });
    }
    if (ev?.notes.length && ev.complete) {
      findings.push({
        code: 'NO_EVIDENCE',
        severity: 'info',
        summary: `Evidence notes: ${ev.notes.join('; ')}`,
        evidence: ev.notes,
        action: 'None needed; some checks were skipped.',
        outputId: target.id,
        data: { reason: 'notes' },
      });
    }
    findings.sort(bySeverity);
    outputs.push({
      id: target.id,
      displayName: target.displayName,
      bucket: target.bucket,
      keyFormat: target.keyFormat,
      rootPath: target.root?.path ?? target.rootPath,
      persistedNextIndex: persisted,
      highestIndexInBucket: bucket.highestIndex,
      safeNextIndex,
      ...(bucket.highestIndexText !== null && BigInt(bucket.highestIndexText) > BigInt(Number.MAX_SAFE_INTEGER)
        ? { highestIndexInBucketText: bucket.highestIndexText }
        : {}),
      ...(safeNextIndexText !== null ? { safeNextIndexText } : {}),
      timeline: bucket.timeline,
      resets: bucket.resets,
      collision,
      findings,
    });
  }

  if (input.outputId === undefined) {
    for (const root of report.roots) {
      if (rootDone.has(root)) continue;
      const fs = rootFindings(root, null, null, allTargets, config, cmd, safeForMismatch);
      const used = allTargets.some((t) => t.root === root);
      if (!used && (config || fs.length)) {
        fs.push({
          code: 'ROOT_NOT_FOUND',
          severity: 'info',
          summary: `Root ${root.bucket} is used by no S3 output${config ? ' of the config' : ' found'}.`,
          evidence: [root.path, `${root.totals.chunks} chunks, ${root.totals.bytes} bytes`],
          action: config ? 'An output was removed or renamed its bucket: replay what is left here, or ignore it.' : 'Give the config to tie it to an output.',
          outputId: null,
        });
      }
      pushAll(storeFindings, fs);
    }
    for (const p of report.problems) {
      if (p.severity === 'info') continue;
      storeFindings.push({
        code: 'CHUNK_DAMAGED',
        severity: p.severity === 'error' ? 'error' : 'warning',
        summary: `Store problem: ${p.message}`,
        evidence: [p.path],
        action: `Inspect with \`store-doctor scan ${cmd.store}\`.`,
        outputId: null,
      });
    }
  }
  storeFindings.sort(bySeverity);
  return { at: at.toISOString(), outputs, storeFindings };
}

function rootFindings(
  root: RootReport,
  target: Target | null,
  ev: S3Evidence | null,
  all: Target[],
  config: FluentBitConfig | null,
  cmd: CommandContext,
  safe: Map<number, MismatchSafe>,
): Finding[] {
  const owners = all.filter((t) => t.root === root);
  const id = target?.id ?? null;
  const out = backlogFindings(root, id, cmd);
  const belongs = (k: string) =>
    owners.some((t) => !!t.keyFormat && !!parseKey(t.keyFormat, k, { tagDelimiters: t.tagDelimiters })) || (!owners.some((t) => t.keyFormat) && !!target);
  pushAll(out, multipartFindings(root, ev?.multipartUploads ?? null, belongs, id, cmd));
  const mismatch = outputIdMismatch(root, config, owners, cmd, safe);
  if (mismatch) out.push(mismatch.finding);
  return out;
}

/** The worst severity in a diagnosis (null: no findings). */
export function worstSeverity(d: Diagnosis): Severity | null {
  const all = [...d.outputs.flatMap((o) => o.findings), ...d.storeFindings];
  for (const s of SEVERITY_ORDER) if (all.some((f) => f.severity === s)) return s;
  return null;
}
