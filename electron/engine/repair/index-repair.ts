/**
 * Index repair (issue §2): plan the next `$INDEX` (diagnosis `safeNextIndex`, or a user value
 * that is never lower than safe without force), show the exact bytes and path, then apply it
 * atomically with a backup + undo entry, verify by reading back with the fscanf rule, and watch
 * the tree for concurrent writers.
 */
import * as path from 'node:path';
import type { PlanStep, RepairAction, RepairPlan, RepairResult } from '../../../shared/model';
import { checkWriteAllowed, watchStore, type WriteTestHooks } from './guard';
import { describeSeqIndexState, encodeSeqIndex, exactValue, readSeqIndexState, seqIndexPaths, shownBytes, unsafeIndexReason, writeSeqIndex } from './seqindex';
import { openAction, type ChangeSpec } from './journal';
import { assertNotRefused, RefusedError } from './errors';
import { pathExists } from './fsutil';
import { rootEvidence } from '../store/root-evidence';

export interface IndexRepairInput {
  storePath: string;
  rootPath: string;
  outputId: number;
  /** Lowest next index that cannot reuse a key in the bucket (diagnosis). */
  safeNextIndex: number;
  /** Where `safeNextIndex` comes from, one line each. */
  why?: string[];
  /** A value the user asked for instead of `safeNextIndex`. */
  value?: number;
  force?: boolean;
  readOnlySource?: boolean;
  archive?: boolean;
  skipProcessCheck?: boolean;
  /** Action name to record (restore-index reuses this planner). */
  action?: RepairAction;
  /** The bucket the root is for: without signs of being its root, sequence/ is not created there (unless force). */
  bucket?: string;
}

export interface IndexPlanDetails {
  kind: 'index';
  rootPath: string;
  outputId: number;
  value: number;
  file: string;
  /** Hex of the bytes at plan time (null = missing); apply refuses when they changed. */
  expectedBeforeHex: string | null;
  noChange: boolean;
}

export async function planIndexRepair(input: IndexRepairInput): Promise<RepairPlan> {
  const rootPath = path.resolve(input.rootPath);
  const { sequenceDir, indexDir, file } = seqIndexPaths(rootPath, input.outputId);
  const current = await readSeqIndexState(file);
  const safe = input.safeNextIndex;
  const proposed = input.value ?? safe;
  const plan: RepairPlan = {
    action: input.action ?? 'repair-index',
    storePath: path.resolve(input.storePath),
    rootPath,
    summary: '',
    why: [...(input.why ?? [])],
    steps: [],
    warnings: [],
    refusals: [],
  };
  plan.why.unshift(
    `Current seq_index_${input.outputId}: ${describeSeqIndexState(current)}.`,
    `Safe next index (nothing in the bucket uses it or anything above): ${safe}.`,
  );
  if (current.state === 'unreadable' && current.notRegular) {
    plan.refusals.push({
      reason: `${file} ${current.problem}: it is not a regular file, so Store Doctor will not replace it. Look at it, remove it by hand, then plan again.`,
      forceable: false,
    });
  }
  if (input.value !== undefined) {
    plan.why.push(`You asked for ${input.value}.`);
    if (input.value < safe) {
      plan.refusals.push({
        reason: `${input.value} is lower than the safe next index ${safe}: Fluent Bit would reuse keys that exist in the bucket and overwrite them.`,
        forceable: true,
      });
    }
  }
  const unsafe = unsafeIndexReason(proposed, input.value !== undefined ? 'The value' : 'The safe next index');
  if (unsafe) {
    plan.refusals.push({ reason: unsafe, forceable: false });
    plan.summary = `Cannot set seq_index_${input.outputId} to ${proposed}.`;
    plan.details = details(rootPath, input.outputId, proposed, file, current.bytes, true);
    return withGuard(plan, input);
  }
  // Compare exactly: the file is a uint64 and can hold values a JavaScript number cannot.
  const cur = exactValue(current);
  const prop = BigInt(proposed);
  if (cur !== null && cur > BigInt(Number.MAX_SAFE_INTEGER)) {
    plan.warnings.push(
      `seq_index_${input.outputId} holds ${current.state === 'value' ? current.valueText : ''}: Fluent Bit counts in uint64 and wraps to 0 after 18446744073709551615, then reuses keys from 0. If this value is not intended, set a sane one with --value.`,
    );
  }
  if (current.state === 'value' && cur !== null && (cur === prop || (input.value === undefined && cur > prop))) {
    plan.summary =
      cur === prop
        ? `No change needed: seq_index_${input.outputId} already holds ${current.valueText}${proposed >= safe ? ' (safe)' : ''}.`
        : `No change needed: seq_index_${input.outputId} holds ${current.valueText}, above the safe next index ${safe} (a gap never overwrites).`;
    plan.details = details(rootPath, input.outputId, current.value, file, current.bytes, true);
    return withGuard(plan, input);
  }
  if (current.state === 'value' && cur !== null && cur > prop) plan.warnings.push(`This lowers the index from ${current.valueText} to ${proposed}.`);
  const steps: PlanStep[] = [];
  if (!(await pathExists(sequenceDir))) {
    steps.push({ kind: 'mkdir', target: sequenceDir, description: 'create sequence/ with mode 0755 (as Fluent Bit does)' });
    if (input.bucket !== undefined) {
      const ev = await rootEvidence(rootPath, input.bucket);
      if (!ev.signs.length)
        plan.refusals.push({
          reason: `${rootPath} shows no sign of being the root of bucket ${input.bucket} (${ev.against.join('; ') || 'nothing Fluent Bit makes is in it'}): an index written there would protect nothing. Check the store path, or --force.`,
          forceable: true,
        });
    }
  }
  if (!(await pathExists(indexDir))) steps.push({ kind: 'mkdir', target: indexDir, description: 'create index_metadata/ with mode 0700 (as Fluent Bit does)' });
  const after = encodeSeqIndex(proposed);
  steps.push({
    kind: 'write-file',
    target: file,
    description: `write ${JSON.stringify(after.toString('ascii'))} (${after.length} bytes, ASCII decimal, no newline) atomically: temp file, fsync, rename, fsync directory; back up the old file for undo`,
    before: shownBytes(current),
    after: after.toString('ascii'),
  });
  plan.steps = steps;
  plan.summary = `Set seq_index_${input.outputId} from ${describeSeqIndexState(current)} to ${proposed}: Fluent Bit continues at ${proposed} after its next start.`;
  plan.warnings.push(
    'A graceful stop (SIGTERM, pod restart, hot reload) deletes sequence/ again on unpatched Fluent Bit (issue #11987): protect the index afterwards (protect-index).',
  );
  plan.details = details(rootPath, input.outputId, proposed, file, current.bytes, false);
  return withGuard(plan, input);
}

function details(
  rootPath: string,
  outputId: number,
  value: number,
  file: string,
  before: Buffer | null,
  noChange: boolean,
): IndexPlanDetails & Record<string, unknown> {
  return { kind: 'index', rootPath, outputId, value, file, expectedBeforeHex: before === null ? null : before.toString('hex'), noChange };
}

async function withGuard(plan: RepairPlan, input: IndexRepairInput): Promise<RepairPlan> {
  const g = await checkWriteAllowed(plan.rootPath!, { readOnlySource: input.readOnlySource, archive: input.archive, skipProcessCheck: input.skipProcessCheck });
  plan.refusals.push(...g.refusals);
  plan.warnings.push(...g.warnings);
  if (input.force && plan.refusals.some((r) => r.forceable))
    plan.warnings.unshift('--force: overriding refusals (running process / below the safe index). You take responsibility for the result.');
  return plan;
}

export interface ApplyOptions {
  force?: boolean;
  skipProcessCheck?: boolean;
  /** Extra independent check after writing (e.g. re-scan the store): returns the value Fluent Bit would read. */
  verifyRead?: (rootPath: string, outputId: number) => Promise<number | null>;
  hooks?: WriteTestHooks;
}

export async function applyIndexPlan(plan: RepairPlan, opts: ApplyOptions = {}): Promise<RepairResult> {
  const d = plan.details as unknown as IndexPlanDetails;
  const result: RepairResult = {
    action: plan.action,
    applied: false,
    summary: plan.summary,
    steps: [],
    undoId: null,
    verified: false,
    warnings: [...plan.warnings],
  };
  assertNotRefused(plan.refusals, opts.force);
  if (d.noChange) {
    result.verified = true;
    return result;
  }
  const guard = await checkWriteAllowed(d.rootPath, { skipProcessCheck: opts.skipProcessCheck });
  assertNotRefused(guard.refusals, opts.force);
  const now = await readSeqIndexState(d.file);
  const nowHex = now.bytes === null ? null : now.bytes.toString('hex');
  if (nowHex !== d.expectedBeforeHex) throw new RefusedError([`${d.file} changed since the plan was made (Fluent Bit running?); plan again.`]);

  const watch = await watchStore(d.rootPath, opts.hooks);
  const { sequenceDir, indexDir, file } = seqIndexPaths(d.rootPath, d.outputId);
  const changes: ChangeSpec[] = [];
  if (!(await pathExists(sequenceDir))) changes.push({ kind: 'mkdir', path: sequenceDir });
  if (!(await pathExists(indexDir))) changes.push({ kind: 'mkdir', path: indexDir });
  changes.push({ kind: 'file', path: file });
  const action = await openAction({ rootPath: d.rootPath, storePath: plan.storePath, action: plan.action, summary: plan.summary, changes });
  result.undoId = action.id;
  try {
    const w = await writeSeqIndex(d.rootPath, d.outputId, d.value);
    result.warnings.push(...w.warnings);
    for (const s of plan.steps) result.steps.push({ step: s, ok: true, message: s.kind === 'mkdir' ? 'created' : 'written, fsynced, renamed, read back' });
  } catch (err) {
    await action.failed((err as Error).message);
    result.steps.push({ step: plan.steps[plan.steps.length - 1], ok: false, message: (err as Error).message });
    throw err;
  }
  const back = await readSeqIndexState(file);
  let verified = back.state === 'value' && back.value === d.value;
  if (opts.verifyRead) {
    const scanned = await opts.verifyRead(d.rootPath, d.outputId);
    if (scanned !== d.value) {
      verified = false;
      result.warnings.push(`Re-scan reads ${scanned} from seq_index_${d.outputId}, expected ${d.value}.`);
    }
  }
  const changed = await watch.warning([file, ...changes.filter((c) => c.kind === 'mkdir').map((c) => c.path)], 'the repair');
  if (changed) result.warnings.push(changed);
  await action.applied(verified);
  result.applied = true;
  result.verified = verified;
  result.summary = `seq_index_${d.outputId} now holds ${d.value}${verified ? ' (verified)' : ' (NOT verified)'}. Undo with: store-doctor undo ${plan.storePath} --apply`;
  return result;
}
