/**
 * What every action's planner starts from: the diagnosis context (report + config + evidence +
 * diagnosis), the options a request may give, and the rules all actions share — which output an
 * action works on (one rule, never another bucket's root) and what the operator types to confirm.
 */
import * as path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Diagnosis, FluentBitConfig, OutputDiagnosis, RootReport, S3Evidence, StoreReport, UsedIndexEvidence } from '../../../../shared/model';
import { highestLabel } from '../../../../shared/evidence-scope';
import { selectTargets, type Target } from '../../diagnose/targets';
import { usedEvidenceOf } from '../undo';
import type { MultipartDecision } from '../bucket';

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

export function sourceFlags(ctx: DiagnosisContext) {
  return { archive: ctx.report.source.kind === 'archive', readOnlySource: ctx.report.source.readOnly && ctx.report.source.kind !== 'archive' };
}

/** Where the index values of an output come from, for a plan's `why`. */
export function indexWhy(out: OutputDiagnosis | null): string[] {
  if (!out) return [];
  const lines = [
    `Highest $INDEX ${highestLabel(out.indexEvidence)}: ${out.highestIndexInBucket ?? 'none found'} (${out.indexEvidence.text}); persisted next index: ${out.persistedNextIndex ?? 'none'}.`,
  ];
  for (const f of out.findings.filter((f) => f.severity === 'critical' || f.severity === 'error')) lines.push(`${f.code}: ${f.summary}`);
  return lines;
}

/** The `$INDEX` evidence of the outputs whose root is `rootPath`, per output id (what an undo there is judged against). */
export function currentEvidence(ctx: DiagnosisContext, rootPath: string): Map<number, UsedIndexEvidence> {
  const map = new Map<number, UsedIndexEvidence>();
  for (const o of ctx.diagnosis.outputs)
    if (o.rootPath !== null && path.resolve(o.rootPath) === path.resolve(rootPath)) map.set(o.id, usedEvidenceOf(o, ctx.evidence.get(o.id) ?? null));
  return map;
}

/** The output an action works on (by its registry flag, as the session picks it), its root, its diagnosis and evidence. */
export function targetOf(ctx: DiagnosisContext, opts: ActionOptions, action: { readonly prefersIndexOutput: boolean }) {
  const t = pickTarget(ctx, opts, action.prefersIndexOutput);
  const root = rootOf(ctx, t);
  const out = ctx.diagnosis.outputs.find((o) => o.id === t.id) ?? null;
  const ev = ctx.evidence.get(t.id) ?? null;
  return { t, root, out, ev };
}

/** The outputs of the config on `root` (null without a config). */
export function outputsOnRoot(ctx: DiagnosisContext, root: RootReport) {
  return ctx.config
    ? selectTargets(ctx.report, ctx.config)
        .filter((x) => x.root === root)
        .map((x) => ({ id: x.id, displayName: x.displayName, hasIndex: x.hasIndex }))
    : null;
}
