/**
 * Plan any repair action from a diagnosis run (report + config + evidence + diagnosis): picks the
 * output and its root, takes `safeNextIndex` from the diagnosis, and calls the action's planner.
 * What the CLI commands and the session's `repair.plan` use.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Diagnosis, FluentBitConfig, RepairAction, RepairPlan, ReplayItem, RootReport, S3Evidence, StoreReport } from '../../../shared/model';
import { selectTargets, type Target } from '../diagnose/targets';
import { planIndexRepair } from './index-repair';
import { planMultipart, type MultipartDecision } from './multipart';
import { planProtectIndex } from './protect';
import { planReplay } from './replay-plan';
import { planRestoreIndex } from './restore';
import { planUndo } from './undo';
import { planRecoverVersions } from './versions';

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
  method?: 'marker' | 'shadow';
  shadowDir?: string;
  includeActive?: boolean;
  time?: Date;
  compression?: string;
  decision?: MultipartDecision;
  abortOrphans?: boolean;
  recoveryPrefix?: string;
  prefix?: string;
  /** Live S3 client (replay, multipart, recover-versions). */
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

/** The output an action works on (an index action prefers the `$INDEX` output). */
export function pickTarget(ctx: DiagnosisContext, opts: ActionOptions, wantIndex: boolean): Target {
  let targets = selectTargets(ctx.report, ctx.config, opts.outputId);
  if (wantIndex && targets.some((t) => t.hasIndex)) targets = targets.filter((t) => t.hasIndex);
  const withRoot = targets.filter((t) => t.root);
  if (withRoot.length) targets = withRoot;
  if (!targets.length) {
    throw new ActionInputError(
      ctx.config ? 'no S3 output of the config uses this store' : 'no output known: give --config (and --output), or the store needs a seq_index file',
    );
  }
  if (targets.length > 1)
    throw new ActionInputError(`several outputs use this store (${targets.map((t) => `${t.displayName} = ${t.id}`).join(', ')}): pick one with --output`);
  return targets[0];
}

function rootOf(ctx: DiagnosisContext, t: Target): RootReport {
  const root = t.root ?? (ctx.report.roots.length === 1 ? ctx.report.roots[0] : null);
  if (!root) throw new ActionInputError(`the store has no root for bucket ${t.bucket} (roots: ${ctx.report.roots.map((r) => r.bucket).join(', ') || 'none'})`);
  return root;
}

function sourceFlags(ctx: DiagnosisContext) {
  return { archive: ctx.report.source.kind === 'archive', readOnlySource: ctx.report.source.readOnly && ctx.report.source.kind !== 'archive' };
}

export async function planAction(action: RepairAction, ctx: DiagnosisContext, opts: ActionOptions = {}): Promise<RepairPlan & { replayItems?: ReplayItem[] }> {
  if (action === 'undo') return planUndo(ctx.storePath, { ...opts, ...(ctx.report ? sourceFlags(ctx) : {}) });
  const flags = { ...sourceFlags(ctx), skipProcessCheck: opts.skipProcessCheck, force: opts.force };
  if (action === 'recover-versions') {
    const t = pickTarget(ctx, opts, false);
    const { archive, readOnlySource } = flags;
    return planRecoverVersions({
      storePath: ctx.storePath,
      bucket: t.bucket,
      client: opts.client ?? null,
      prefix: opts.prefix,
      recoveryPrefix: opts.recoveryPrefix,
      versions: ctx.evidence.get(t.id)?.versions ?? null,
      archive,
      readOnlySource,
      signal: opts.signal,
    });
  }
  const t = pickTarget(ctx, opts, action !== 'multipart');
  const root = rootOf(ctx, t);
  const out = ctx.diagnosis.outputs.find((o) => o.id === t.id) ?? null;
  const ev = ctx.evidence.get(t.id);
  const safe = out?.safeNextIndex ?? 0;
  const why: string[] = [];
  if (out) {
    why.push(`Highest $INDEX in the bucket: ${out.highestIndexInBucket ?? 'none found'}; persisted next index: ${out.persistedNextIndex ?? 'none'}.`);
    for (const f of out.findings.filter((f) => f.severity === 'critical' || f.severity === 'error')) why.push(`${f.code}: ${f.summary}`);
  }
  switch (action) {
    case 'repair-index': {
      const plan = await planIndexRepair({
        storePath: ctx.storePath,
        rootPath: root.path,
        outputId: t.id,
        safeNextIndex: safe,
        why,
        value: opts.value,
        bucket: t.bucket,
        ...flags,
      });
      if (!ev && opts.value === undefined) {
        plan.refusals.push({
          reason: 'No bucket evidence (--listing or --live): the keys already used are unknown, so no index can be called safe. Give evidence, or --value N.',
          forceable: true,
        });
      } else if (ev && !ev.complete) {
        const why = ev.notes.length ? ` (${ev.notes.join('; ')})` : '';
        if (opts.value === undefined) {
          plan.refusals.push({
            reason: `The bucket evidence is incomplete${why}: ${safe} is only a lower bound, a higher $INDEX may already be used. Complete the listing, or give --value N, or --force.`,
            forceable: true,
          });
        } else plan.warnings.push(`The bucket evidence is incomplete${why}: ${safe} is only a lower bound for the safe index.`);
      }
      return plan;
    }
    case 'restore-index': {
      const ids = ctx.config
        ? selectTargets(ctx.report, ctx.config, opts.outputId)
            .filter((x) => x.hasIndex && (x.root ?? root) === root)
            .map((x) => x.id)
        : opts.outputId !== undefined
          ? [opts.outputId]
          : [];
      const bucketSafe = new Map<number, number>();
      for (const o of ctx.diagnosis.outputs) if (ctx.evidence.has(o.id)) bucketSafe.set(o.id, o.safeNextIndex);
      return planRestoreIndex({ storePath: ctx.storePath, rootPath: root.path, outputIds: ids, shadowDir: opts.shadowDir, bucketSafe, ...flags });
    }
    case 'protect-index': {
      const outputsOnRoot = ctx.config
        ? selectTargets(ctx.report, ctx.config)
            .filter((x) => x.root === root)
            .map((x) => ({ id: x.id, displayName: x.displayName, hasIndex: x.hasIndex }))
        : null;
      return planProtectIndex({
        storePath: ctx.storePath,
        rootPath: root.path,
        method: opts.method ?? 'shadow',
        outputsOnRoot,
        shadowDir: opts.shadowDir,
        ...flags,
      });
    }
    case 'replay': {
      if (!t.keyFormat) throw new ActionInputError("replay needs the output's s3_key_format: give --config");
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
        safeNextIndex: safe,
        includeActive: opts.includeActive,
        time: opts.time,
        ...flags,
      });
      plan.why.push(...why);
      if (t.hasIndex && !ev)
        plan.refusals.push({
          reason:
            'No bucket evidence (--listing or --live): $INDEX values cannot be allocated safely. Give evidence (the 412 check still protects existing keys), or --force.',
          forceable: true,
        });
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
        ...flags,
        signal: opts.signal,
      });
    default:
      throw new ActionInputError(`unknown action ${String(action)}`);
  }
}
