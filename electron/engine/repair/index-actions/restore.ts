/**
 * `restore-index` (option B): for a pre-start hook (`ExecStartPre`, init container).
 * For every `$INDEX` output of the root, put back the highest of: the shadow copy, the file on
 * disk, and the bucket evidence (diagnosis `safeNextIndex`). Never lowers anything.
 */
import * as path from 'node:path';
import type { RepairPlan, RepairResult } from '../../../../shared/model';
import { applyIndexPlan, planIndexRepair, type ApplyOptions } from './index-repair';
import { assertNotRefused, startPlan } from '../outcome';
import { checkWriteAllowed } from '../preconditions';
import { pruneJournal } from '../journal';
import { defaultShadowDir, finalValues, readShadow } from '../shadow';
import { readSeqIndexState, seqIndexPaths } from './index-file';
import { startResult } from '../outcome';

export interface RestoreInput {
  storePath: string;
  rootPath: string;
  /** `$INDEX` output ids of this root (from the config); when empty, the ids found in the shadow. */
  outputIds: number[];
  shadowDir?: string;
  /** Bucket evidence per output id: the diagnosis' safe next index, when the evidence covers it. */
  bucketSafe?: Map<number, number>;
  /** What the bucket evidence covers, per output id (for the plan text). */
  evidenceText?: Map<number, string>;
  /**
   * The shadow values are final (taken after Fluent Bit's exit flush). Without it, a value is
   * final only when the shadow folder itself records it so for this root (`store-doctor guard`
   * writes `final.json`, see ./shadow.ts).
   */
  shadowFinal?: boolean;
  readOnlySource?: boolean;
  archive?: boolean;
  skipProcessCheck?: boolean;
  force?: boolean;
}

export async function planRestoreIndex(input: RestoreInput): Promise<RepairPlan> {
  const rootPath = path.resolve(input.rootPath);
  const shadow = input.shadowDir ? path.resolve(input.shadowDir) : await defaultShadowDir(rootPath);
  const state = await readShadow(shadow);
  const shadowValues = state.values;
  const finals = await finalValues(state, rootPath);
  const ids = input.outputIds.length ? input.outputIds : [...shadowValues.keys()];
  const plan = startPlan('restore-index', path.resolve(input.storePath), rootPath);
  const subplans: RepairPlan[] = [];
  const unresolved: number[] = [];
  for (const p of state.problems) plan.warnings.push(`Shadow folder: ${p}`);
  // Refused up front for an archive or a read-only source, whatever there is to restore.
  const src = await checkWriteAllowed(rootPath, { readOnlySource: input.readOnlySource, archive: input.archive, skipProcessCheck: true });
  plan.refusals.push(...src.refusals);
  if (!ids.length) {
    plan.summary = `Nothing to restore: no $INDEX output known and no shadow copy in ${shadow}.`;
    plan.details = { kind: 'restore', subplans, unresolved };
    return plan;
  }
  for (const id of ids) {
    const disk = await readSeqIndexState(seqIndexPaths(rootPath, id).file);
    const sh = shadowValues.get(id) ?? null;
    const bucket = input.bucketSafe?.get(id) ?? null;
    const candidates = [sh, disk.state === 'value' ? disk.value : null, bucket].filter((v): v is number => v !== null);
    const target = candidates.length ? Math.max(...candidates) : null;
    const final = sh !== null && (!!input.shadowFinal || finals.get(id) === sh);
    plan.why.push(
      `seq_index_${id}: shadow ${sh === null ? '—' : `${sh}${final ? ' (final)' : ' (not known to be final)'}`}, disk ${disk.state === 'value' ? disk.valueText : disk.state}, bucket evidence ${bucket ?? '—'} → ${target ?? 'unknown'}.`,
    );
    if (target === null) {
      plan.warnings.push(`seq_index_${id}: no value anywhere (no shadow, no file, no bucket evidence): left alone.`);
      unresolved.push(id);
      continue;
    }
    if (sh !== null && !final && bucket !== null)
      plan.warnings.push(
        `seq_index_${id}: the shadow copy (${sh}) is not known to be final (Fluent Bit uses more values in its exit flush after a copy taken while it runs); the bucket evidence (${bucket}) was taken into account.`,
      );
    if (bucket === null && sh !== null && sh === target && !final) {
      plan.refusals.push({
        reason:
          `seq_index_${id}: the shadow copy (${sh}) is not known to be final — Fluent Bit uses more values in its exit flush after any copy taken while it runs — ` +
          "and there is no bucket evidence to check it against: restoring it can reuse keys. Give bucket evidence (the higher value wins), restore from the guard's final value, or force.",
        forceable: true,
      });
    }
    const sub = await planIndexRepair({
      storePath: input.storePath,
      rootPath,
      outputId: id,
      safeNextIndex: bucket,
      lowerBound: target,
      value: target,
      evidenceText: input.evidenceText?.get(id) ?? 'no bucket evidence',
      evidenceListed: bucket !== null,
      action: 'restore-index',
      readOnlySource: input.readOnlySource,
      archive: input.archive,
      skipProcessCheck: input.skipProcessCheck,
      force: input.force,
    });
    subplans.push(sub);
    plan.steps.push(...sub.steps);
    for (const r of sub.refusals) if (!plan.refusals.some((x) => x.reason === r.reason)) plan.refusals.push(r);
    for (const w of sub.warnings) if (!plan.warnings.includes(w)) plan.warnings.push(w);
  }
  const changing = subplans.filter((s) => s.details?.kind === 'index' && !s.details.noChange).length;
  plan.summary = changing
    ? `Restore ${changing} index file(s) in ${path.basename(rootPath)} to the highest known value.`
    : unresolved.length
      ? `Nothing to restore from: no value known for ${unresolved.map((i) => `seq_index_${i}`).join(', ')}.`
      : 'Nothing to restore: every index file is at or above the shadow and bucket values.';
  plan.details = { kind: 'restore', subplans, unresolved };
  return plan;
}

export async function applyRestorePlan(plan: RepairPlan, opts: ApplyOptions = {}): Promise<RepairResult> {
  assertNotRefused(plan.refusals, opts.force);
  if (plan.details?.kind !== 'restore') throw new Error('not a restore-index plan');
  const subplans = plan.details.subplans;
  const result = startResult(plan);
  result.verified = true; // as verified as every subplan's read-back
  for (const sub of subplans) {
    const r = await applyIndexPlan(sub, opts);
    result.applied ||= r.applied;
    result.verified &&= r.verified;
    result.steps.push(...r.steps);
    result.undoId = r.undoId ?? result.undoId;
    for (const w of r.warnings) if (!result.warnings.includes(w)) result.warnings.push(w);
  }
  if (result.applied) {
    result.summary = `${plan.summary} Done${result.verified ? ' (verified)' : ' (NOT verified)'}.`;
    // Restores run again and again (the guard, a pre-start hook): keep the store's journal bounded.
    const pruned = await pruneJournal(plan.rootPath!).catch((err: Error) => ({ removedActions: 0, warning: `Journal not pruned: ${err.message}` }));
    if ('warning' in pruned && pruned.warning) result.warnings.push(pruned.warning);
  }
  return result;
}
