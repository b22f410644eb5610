/**
 * The one planner: every door (Electron IPC, HTTP host, CLI) plans every repair action here, from
 * a diagnosis context (report + config + evidence + diagnosis). It picks the output and its root
 * (one rule, never another bucket's root), decides the index to write only from evidence that
 * covers it, and calls the action's own planner. Rules about safety added here hold in all doors.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type {
  Diagnosis,
  FluentBitConfig,
  OutputDiagnosis,
  RepairAction,
  RepairPlan,
  ReplayItem,
  RootReport,
  S3Evidence,
  StoreReport,
  UsedIndexEvidence,
} from '../../../shared/model';
import * as path from 'node:path';
import { parseKey } from '../../../shared/keyformat';
import { highestLabel } from '../../../shared/evidence-scope';
import { selectTargets, type Target } from '../diagnose/targets';
import { planIndexRepair } from './index-actions';
import { planMultipart, type MultipartDecision } from './bucket';
import { planProtectIndex } from './index-actions';
import { planReplay } from './bucket';
import { planRestoreIndex } from './index-actions';
import { planUndo } from './undo';
import { usedEvidenceOf } from './undo';
import { planRecoverVersions } from './bucket';

export interface DiagnosisContext {
  storePath: string;
  report: StoreReport;
  config: FluentBitConfig | null;
  evidence: Map<number, S3Evidence>;
  diagnosis: Diagnosis;
}

export interface ActionOptions {
  outputId?: number;
  value?: number;
  force?: boolean;
  /** protect-index: default a marker where it is safe, else a shadow copy. */
  method?: 'marker' | 'shadow';
  shadowDir?: string;
  /** restore-index: the shadow values are final (taken after Fluent Bit's exit flush). */
  shadowFinal?: boolean;
  includeActive?: boolean;
  time?: Date;
  compression?: string;
  decision?: MultipartDecision;
  abortOrphans?: boolean;
  recoveryPrefix?: string;
  prefix?: string;
  /** Live S3 client (multipart and recover-versions plan with it). */
  client?: S3Client | null;
  skipProcessCheck?: boolean;
  signal?: AbortSignal;
}

export class ActionInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActionInputError';
  }
}

/** The output an action works on (an index action prefers the `$INDEX` outputs). */
export function pickTarget(ctx: Pick<DiagnosisContext, 'report' | 'config'>, opts: { outputId?: number }, wantIndex: boolean): Target {
  let targets = selectTargets(ctx.report, ctx.config, opts.outputId);
  if (wantIndex && targets.some((t) => t.hasIndex)) targets = targets.filter((t) => t.hasIndex);
  if (!targets.length) {
    throw new ActionInputError(
      ctx.config
        ? 'no S3 output of the config uses this store'
        : 'no output known: load the Fluent Bit config (and pick an output), or the store needs a seq_index file',
    );
  }
  if (targets.length > 1) {
    const withRoot = targets.filter((t) => t.root);
    if (withRoot.length === 1 && opts.outputId === undefined) return withRoot[0];
    throw new ActionInputError(`several outputs use this store (${targets.map((t) => `${t.displayName} = ${t.id}`).join(', ')}): pick one`);
  }
  return targets[0];
}

/** The target's own root in the store — never another bucket's. */
export function rootOf(ctx: Pick<DiagnosisContext, 'report'>, t: Target): RootReport {
  if (t.root) return t.root;
  throw new ActionInputError(
    `the store has no root for bucket ${t.bucket} of ${t.displayName} (expected ${t.rootPath ?? t.bucket}; roots found: ${ctx.report.roots.map((r) => r.bucket).join(', ') || 'none'}): open the store_dir this output uses`,
  );
}

/** What the operator types to confirm a write: the bucket, or `bucket/name` when several outputs share that bucket. */
export function confirmPhrase(ctx: Pick<DiagnosisContext, 'report' | 'config'>, t: Target): string {
  const all = selectTargets(ctx.report, ctx.config);
  return all.filter((x) => x.bucket === t.bucket).length > 1 ? `${t.bucket}/${t.displayName}` : t.bucket;
}

function sourceFlags(ctx: DiagnosisContext) {
  return { archive: ctx.report.source.kind === 'archive', readOnlySource: ctx.report.source.readOnly && ctx.report.source.kind !== 'archive' };
}

/** Where the index values of an output come from, for a plan's `why`. */
function indexWhy(out: OutputDiagnosis | null): string[] {
  if (!out) return [];
  const lines = [
    `Highest $INDEX ${highestLabel(out.indexEvidence)}: ${out.highestIndexInBucket ?? 'none found'} (${out.indexEvidence.text}); persisted next index: ${out.persistedNextIndex ?? 'none'}.`,
  ];
  for (const f of out.findings.filter((f) => f.severity === 'critical' || f.severity === 'error')) lines.push(`${f.code}: ${f.summary}`);
  return lines;
}

/** The `$INDEX` evidence of the outputs whose root is `rootPath`, per output id (what an undo there is judged against). */
function currentEvidence(ctx: DiagnosisContext, rootPath: string): Map<number, UsedIndexEvidence> {
  const map = new Map<number, UsedIndexEvidence>();
  for (const o of ctx.diagnosis.outputs)
    if (o.rootPath !== null && path.resolve(o.rootPath) === path.resolve(rootPath)) map.set(o.id, usedEvidenceOf(o, ctx.evidence.get(o.id) ?? null));
  return map;
}

export async function planAction(action: RepairAction, ctx: DiagnosisContext, opts: ActionOptions = {}): Promise<RepairPlan & { replayItems?: ReplayItem[] }> {
  const flags = { ...sourceFlags(ctx), skipProcessCheck: opts.skipProcessCheck, force: opts.force };
  if (action === 'undo') return planUndo(ctx.storePath, { ...flags, currentEvidence: (rootPath) => currentEvidence(ctx, rootPath) });
  if (action === 'recover-versions') {
    const t = pickTarget(ctx, opts, false);
    const versions = ctx.evidence.get(t.id)?.versions ?? null;
    return planRecoverVersions({
      storePath: ctx.storePath,
      bucket: t.bucket,
      client: opts.client ?? null,
      prefix: opts.prefix,
      recoveryPrefix: opts.recoveryPrefix,
      versions,
      archive: flags.archive,
      readOnlySource: flags.readOnlySource,
      signal: opts.signal,
    });
  }
  const t = pickTarget(ctx, opts, action !== 'multipart');
  const root = rootOf(ctx, t);
  const out = ctx.diagnosis.outputs.find((o) => o.id === t.id) ?? null;
  const ev = ctx.evidence.get(t.id) ?? null;
  const outputsOnRoot = ctx.config
    ? selectTargets(ctx.report, ctx.config)
        .filter((x) => x.root === root)
        .map((x) => ({ id: x.id, displayName: x.displayName, hasIndex: x.hasIndex }))
    : null;
  switch (action) {
    case 'repair-index':
      return planIndexRepair({
        storePath: ctx.storePath,
        rootPath: root.path,
        outputId: t.id,
        safeNextIndex: out?.safeNextIndex ?? null,
        lowerBound: out?.lowerBoundNextIndex ?? 0,
        evidenceText: out?.indexEvidence.text ?? 'no diagnosis of this output',
        evidenceListed: !!ev,
        why: indexWhy(out),
        value: opts.value,
        bucket: t.bucket,
        evidence: out ? usedEvidenceOf(out, ev) : undefined,
        ...flags,
      });
    case 'restore-index': {
      const ids = ctx.config
        ? selectTargets(ctx.report, ctx.config, opts.outputId)
            .filter((x) => x.hasIndex && x.root === root)
            .map((x) => x.id)
        : [t.id];
      const bucketSafe = new Map<number, number>();
      const evidenceText = new Map<number, string>();
      for (const o of ctx.diagnosis.outputs) {
        if (o.safeNextIndex !== null) bucketSafe.set(o.id, o.safeNextIndex);
        evidenceText.set(o.id, o.indexEvidence.text);
      }
      return planRestoreIndex({
        storePath: ctx.storePath,
        rootPath: root.path,
        outputIds: ids,
        shadowDir: opts.shadowDir,
        shadowFinal: opts.shadowFinal,
        bucketSafe,
        evidenceText,
        ...flags,
      });
    }
    case 'protect-index': {
      const markerSafe = !!outputsOnRoot && outputsOnRoot.every((o) => o.hasIndex);
      return planProtectIndex({
        storePath: ctx.storePath,
        rootPath: root.path,
        method: opts.method ?? (markerSafe ? 'marker' : 'shadow'),
        outputsOnRoot,
        shadowDir: opts.shadowDir,
        ...flags,
      });
    }
    case 'replay': {
      if (!t.keyFormat) throw new ActionInputError("replay needs the output's s3_key_format: load the Fluent Bit config first");
      const safe = out?.safeNextIndex ?? null;
      const plan = await planReplay({
        storePath: ctx.storePath,
        root,
        rootPath: root.path,
        target: {
          bucket: t.bucket,
          keyFormat: t.keyFormat,
          tagDelimiters: t.tagDelimiters,
          staticFilePath: t.s3?.staticFilePath,
          compression: opts.compression ?? t.s3?.compression ?? 'none',
          outputId: t.hasIndex ? t.id : null,
        },
        safeNextIndex: safe ?? out?.lowerBoundNextIndex ?? 0,
        includeActive: opts.includeActive,
        time: opts.time,
        ...flags,
      });
      plan.why.push(...indexWhy(out));
      if (t.hasIndex && safe === null) {
        plan.refusals.push({
          reason: `No bucket evidence covers the key format (${out?.indexEvidence.text ?? 'not diagnosed'}): $INDEX values cannot be allocated safely. Give a listing (the create-only check still protects existing keys), or force.`,
          forceable: true,
        });
      }
      return plan;
    }
    case 'multipart':
      return planMultipart({
        storePath: ctx.storePath,
        rootPath: root.path,
        root,
        bucket: t.bucket,
        client: opts.client ?? null,
        decision: opts.decision,
        abortOrphans: opts.abortOrphans,
        prefix: opts.prefix,
        ownsKey: t.keyFormat ? (k) => !!parseKey(t.keyFormat, k, { tagDelimiters: t.tagDelimiters }) : undefined,
        ...flags,
        signal: opts.signal,
      });
    default:
      throw new ActionInputError(`unknown action ${String(action)}`);
  }
}
