/**
 * From a contract repair request and the session's state (scan, config, evidence) to the repair
 * module's planners and its one `applyPlan`. The diagnosis supplies `safeNextIndex`; S3 actions
 * get a client from the connection in the request plus the output's region and endpoint.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Diagnosis, RepairPlan, ReplayItem, S3Evidence } from '../../../shared/model';
import { diagnose, offlineTarget, selectTargets, type Target } from '../diagnose';
import { applyPlan, planIndexRepair, planMultipart, planProtectIndex, planRecoverVersions, planReplay, planRestoreIndex, planUndo } from '../repair';
import { createS3Client } from '../s3';
import type { RepairInput, WorkOptions } from './deps';
import { EngineError } from './errors';
import type { StoreSession } from './registry';

/** Evidence per output id: per-output imports, plus a session-wide import tied to its bucket's output. */
export function evidenceMap(s: StoreSession): Map<number, S3Evidence> {
  const map = new Map(s.evidenceByOutput);
  if (s.evidence) {
    const targets = selectTargets(s.report, s.config);
    if (targets.length) {
      const t = offlineTarget(targets, s.evidence);
      if (!map.has(t.id)) map.set(t.id, s.evidence);
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
    commands: { store: s.path },
  });
}

function pickTarget(s: StoreSession, outputId: number | undefined): { target: Target; targets: Target[] } {
  const targets = selectTargets(s.report, s.config);
  if (outputId !== undefined) {
    const target = targets.find((t) => t.id === outputId);
    if (!target)
      throw new EngineError(
        'not-found',
        `no S3 output with id ${outputId} in this store${s.config ? ' and config' : ''} (known: ${targets.map((t) => t.id).join(', ') || 'none'})`,
      );
    return { target, targets };
  }
  if (targets.length === 1) return { target: targets[0], targets };
  if (!targets.length) throw new EngineError('refused', 'no S3 output found: load the Fluent Bit config (or open a store with a seq_index file)');
  throw new EngineError('invalid-input', `several S3 outputs (${targets.map((t) => `${t.displayName} = ${t.id}`).join(', ')}): choose one with outputId`);
}

function rootOf(target: Target): { root: NonNullable<Target['root']>; rootPath: string } {
  if (!target.root)
    throw new EngineError('refused', `output ${target.displayName}: its bucket root (${target.rootPath ?? target.bucket}) is not in the opened store`);
  return { root: target.root, rootPath: target.root.path };
}

function safeFor(s: StoreSession, target: Target): { safe: number; why: string[] } {
  const d = diagnoseSession(s, { outputId: target.id });
  const o = d.outputs.find((x) => x.id === target.id);
  if (!o) throw new EngineError('failed', `the diagnosis has no result for output ${target.displayName}`);
  return { safe: o.safeNextIndex, why: o.findings.filter((f) => f.code.startsWith('INDEX_')).map((f) => f.summary) };
}

export function clientFor(target: Target | null, conn: RepairInput['connection']): S3Client | null {
  if (!conn) return null;
  return createS3Client({
    profile: conn.profile ?? target?.s3?.profile ?? undefined,
    region: conn.region ?? target?.s3?.region,
    endpoint: conn.endpoint ?? target?.s3?.endpoint ?? undefined,
    pathStyle: conn.pathStyle,
  });
}

export async function planRepair(s: StoreSession, input: RepairInput, opts: WorkOptions): Promise<RepairPlan & { replayItems?: ReplayItem[] }> {
  const archive = s.report.source.kind === 'archive';
  const common = { storePath: s.path, readOnlySource: s.report.source.readOnly, archive, force: input.force };
  if (input.action === 'undo') return planUndo(s.path, { force: input.force });
  if (input.action === 'recover-versions') {
    const { target } = pickTarget(s, input.outputId);
    const client = clientFor(target, input.connection);
    try {
      const versions = evidenceMap(s).get(target.id)?.versions ?? null;
      if (!client && !versions)
        throw new EngineError('refused', 'recovering versions needs a live connection or an imported `aws s3api list-object-versions` listing');
      return await planRecoverVersions({ storePath: s.path, bucket: target.bucket, client, versions, signal: opts.signal });
    } finally {
      client?.destroy();
    }
  }
  const { target, targets } = pickTarget(s, input.outputId);
  const { root, rootPath } = rootOf(target);
  const onRoot = targets.filter((t) => t.root?.path === rootPath);
  switch (input.action) {
    case 'repair-index': {
      const { safe, why } = safeFor(s, target);
      return planIndexRepair({ ...common, rootPath, outputId: target.id, safeNextIndex: safe, why, value: input.value });
    }
    case 'protect-index':
      return planProtectIndex({
        ...common,
        rootPath,
        method: input.method ?? 'marker',
        outputsOnRoot: s.config ? onRoot.map((t) => ({ id: t.id, displayName: t.displayName, hasIndex: t.hasIndex })) : null,
      });
    case 'restore-index':
      return planRestoreIndex({ ...common, rootPath, outputIds: onRoot.map((t) => t.id), bucketSafe: new Map([[target.id, safeFor(s, target).safe]]) });
    case 'replay': {
      if (!target.keyFormat) throw new EngineError('refused', "replay needs the output's s3_key_format: load the Fluent Bit config first");
      const { safe } = safeFor(s, target);
      return planReplay({
        ...common,
        root,
        rootPath,
        target: {
          bucket: target.bucket,
          keyFormat: target.keyFormat,
          tagDelimiters: target.tagDelimiters,
          staticFilePath: target.s3?.staticFilePath,
          compression: target.s3?.compression ?? 'none',
          outputId: target.id,
        },
        safeNextIndex: safe,
        includeActive: input.includeActive,
      });
    }
    case 'multipart': {
      const client = clientFor(target, input.connection);
      try {
        return await planMultipart({
          ...common,
          rootPath,
          root,
          bucket: target.bucket,
          client,
          decision: input.multipartDecision,
          abortOrphans: input.abortOrphans,
          signal: opts.signal,
        });
      } finally {
        client?.destroy();
      }
    }
    default:
      throw new EngineError('invalid-input', `unknown repair action ${String(input.action)}`);
  }
}

/** The bucket name(s) a user may type to confirm a write (undo: any bucket root of the store). */
export function confirmationsFor(s: StoreSession, input: RepairInput): string[] {
  if (input.action === 'undo') return s.report.roots.map((r) => r.bucket);
  return [pickTarget(s, input.outputId).target.bucket];
}

export async function applyRepair(s: StoreSession, input: RepairInput, plan: RepairPlan, opts: WorkOptions) {
  const target = input.action === 'undo' ? null : pickTarget(s, input.outputId).target;
  const needsClient = ['replay', 'multipart', 'recover-versions'].includes(input.action);
  if (needsClient && !input.connection) throw new EngineError('refused', `${input.action} writes to S3: give the connection (profile, region, endpoint)`);
  const client = needsClient ? clientFor(target, input.connection) : null;
  try {
    return await applyPlan(plan, { force: input.force, client, signal: opts.signal, onProgress: opts.onProgress });
  } finally {
    client?.destroy();
  }
}
