/**
 * Index repair: plan the next `$INDEX` — the safe value when the bucket evidence covers it, or a
 * value the operator chose (never below what is known to be used without force) — show the exact
 * bytes and path, then apply it atomically with a backup + undo entry, verify by reading the file
 * back once with the scanner's own parser, and watch `sequence/` for concurrent writers.
 */
import * as path from 'node:path';
import type { IndexPlanDetails, PlanStep, RepairAction, RepairPlan, RepairResult, SeqIndexInfo, UsedIndexEvidence } from '../../../../shared/model';
import { checkWriteAllowed, type WriteFrame, writeFrame, type WriteTestHooks } from '../preconditions';
import {
  describeSeqIndexState,
  encodeSeqIndex,
  exactValue,
  readSeqIndexState,
  seqIndexPaths,
  shownBytes,
  unsafeIndexReason,
  writeSeqIndex,
} from './index-file';
import { folderThenFileChanges, sha256 } from '../journal';
import { assertNotRefused, finishPlan, startResult, startPlan } from '../outcome';
import { pathExists } from '../write';
import { rootEvidence } from '../../store/root-evidence';

export interface IndexRepairInput {
  storePath: string;
  rootPath: string;
  outputId: number;
  /** The next index the bucket evidence calls safe; null when the evidence does not cover it. */
  safeNextIndex: number | null;
  /** The next index is at least this (listed keys, the persisted value, multipart records); default the safe value, else 0. */
  lowerBound?: number;
  /** What the bucket evidence covers, one sentence (the diagnosis' `indexEvidence.text`). */
  evidenceText?: string;
  /** Bucket evidence exists but does not cover the format (incomplete), as opposed to none at all; default: a safe value was given. */
  evidenceListed?: boolean;
  /** Where the values come from, one line each. */
  why?: string[];
  /** A value the operator asked for. */
  value?: number;
  force?: boolean;
  readOnlySource?: boolean;
  archive?: boolean;
  skipProcessCheck?: boolean;
  /** Action name to record (restore-index reuses this planner). */
  action?: RepairAction;
  /** The bucket the root is for: without signs of being its root, sequence/ is not created there (unless force). */
  bucket?: string;
  /** The bucket evidence behind the values, recorded with the action (its undo is judged against it). */
  evidence?: UsedIndexEvidence;
}

interface Proposal {
  value: number | null;
  refusals: RepairPlan['refusals'];
  warnings: string[];
}

type Resolved = IndexRepairInput & Required<Pick<IndexRepairInput, 'lowerBound' | 'evidenceText' | 'evidenceListed'>>;

function resolve(input: IndexRepairInput): Resolved {
  return {
    ...input,
    lowerBound: input.lowerBound ?? input.safeNextIndex ?? 0,
    evidenceText: input.evidenceText ?? (input.safeNextIndex !== null ? 'the bucket evidence given' : 'no bucket evidence'),
    evidenceListed: input.evidenceListed ?? input.safeNextIndex !== null,
  };
}

/** The value to write and what stands against it, from the evidence rules. */
function propose(input: Resolved): Proposal {
  const { safeNextIndex: safe, lowerBound, value } = input;
  const p: Proposal = { value: null, refusals: [], warnings: [] };
  if (value !== undefined) {
    p.value = value;
    if (safe !== null && value < safe) {
      p.refusals.push({
        reason: `${value} is lower than the safe next index ${safe}: Fluent Bit would reuse keys that exist in the bucket and overwrite them.`,
        forceable: true,
      });
    } else if (safe === null && value < lowerBound) {
      p.refusals.push({
        reason: `${value} is lower than ${lowerBound}, the lowest next index the store and the listed keys allow: it reuses used values.`,
        forceable: true,
      });
    } else if (safe === null) {
      p.warnings.push(
        `The bucket evidence does not cover the key format (${input.evidenceText}): ${value} is at least the lower bound ${lowerBound}, but a higher $INDEX may already be used.`,
      );
    }
    return p;
  }
  if (safe !== null) {
    p.value = safe;
    return p;
  }
  if (input.evidenceListed) {
    p.value = lowerBound;
    p.refusals.push({
      reason: `The bucket evidence does not cover the key format (${input.evidenceText}): ${lowerBound} is only a lower bound, a higher $INDEX may already be used. Complete the listing, or choose a value.`,
      forceable: true,
    });
    return p;
  }
  p.refusals.push({
    reason: `No bucket evidence (${input.evidenceText}): the keys already used are unknown, so no next index can be called safe. Give a bucket listing (live or offline), or choose a value.`,
    forceable: false,
  });
  return p;
}

export async function planIndexRepair(given: IndexRepairInput): Promise<RepairPlan> {
  const input = resolve(given);
  const rootPath = path.resolve(input.rootPath);
  const { sequenceDir, indexDir, file } = seqIndexPaths(rootPath, input.outputId);
  const current = await readSeqIndexState(file);
  const name = `seq_index_${input.outputId}`;
  const plan = startPlan(input.action ?? 'repair-index', path.resolve(input.storePath), rootPath);
  plan.why.push(`Current ${name}: ${describeSeqIndexState(current)}.`);
  plan.why.push(
    input.safeNextIndex !== null
      ? `Safe next index: ${input.safeNextIndex} (${input.evidenceText}).`
      : `No next index can be called safe: ${input.evidenceText}; it must be at least ${input.lowerBound}.`,
    ...(input.why ?? []),
  );
  if (current.state === 'unreadable' && current.notRegular) {
    plan.refusals.push({
      reason: `${file} ${current.problem}: it is not a regular file, so Store Doctor will not replace it. Look at it, remove it by hand, then plan again.`,
      forceable: false,
    });
  }
  const p = propose(input);
  plan.refusals.push(...p.refusals);
  plan.warnings.push(...p.warnings);
  if (input.value !== undefined) plan.why.push(`You asked for ${input.value}.`);
  if (p.value === null) {
    plan.summary = `No next index for ${name} can be planned without bucket evidence.`;
    return withWriteCheck(plan, input);
  }
  const proposed = p.value;
  const unsafe = unsafeIndexReason(proposed, input.value !== undefined ? 'The value' : 'The next index');
  if (unsafe) {
    plan.refusals.push({ reason: unsafe, forceable: false });
    plan.summary = `Cannot set ${name} to ${proposed}.`;
    return withWriteCheck(plan, input);
  }
  // Compare exactly: the file is a uint64 and can hold values a JavaScript number cannot.
  const cur = exactValue(current);
  const prop = BigInt(proposed);
  if (cur !== null && cur > BigInt(Number.MAX_SAFE_INTEGER)) {
    plan.warnings.push(
      `${name} holds ${current.state === 'value' ? current.valueText : ''}: Fluent Bit counts in uint64 and wraps to 0 after 18446744073709551615, then reuses keys from 0. If this value is not intended, choose a sane one.`,
    );
  }
  if (current.state === 'value' && cur !== null && (cur === prop || (input.value === undefined && cur > prop))) {
    plan.summary =
      cur === prop
        ? `No change needed: ${name} already holds ${current.valueText}.`
        : `No change needed: ${name} holds ${current.valueText}, above the next index ${proposed} the evidence asks for (a gap never overwrites).`;
    plan.details = details(rootPath, input.outputId, current.value, file, current.bytes, true, input.evidence);
    return withWriteCheck(plan, input);
  }
  if (current.state === 'value' && cur !== null && cur > prop) plan.warnings.push(`This lowers the index from ${current.valueText} to ${proposed}.`);
  const steps: PlanStep[] = [];
  if (!(await pathExists(sequenceDir))) {
    steps.push({ kind: 'mkdir', target: sequenceDir, description: 'create sequence/ with mode 0755 (as Fluent Bit does)' });
    if (input.bucket !== undefined) {
      const ev = await rootEvidence(rootPath, input.bucket);
      if (!ev.signs.length)
        plan.refusals.push({
          reason: `${rootPath} shows no sign of being the root of bucket ${input.bucket} (${ev.against.join('; ') || 'nothing Fluent Bit makes is in it'}): an index written there would protect nothing. Check the store path, or force.`,
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
  plan.summary = `Set ${name} from ${describeSeqIndexState(current)} to ${proposed}: Fluent Bit continues at ${proposed} after its next start.`;
  plan.warnings.push(
    'A graceful stop (SIGTERM, pod restart, hot reload) deletes sequence/ again on unpatched Fluent Bit (fluent/fluent-bit#11987): protect the index afterwards.',
  );
  plan.details = details(rootPath, input.outputId, proposed, file, current.bytes, false, input.evidence);
  return withWriteCheck(plan, input);
}

function details(
  rootPath: string,
  outputId: number,
  value: number,
  file: string,
  before: Buffer | null,
  noChange: boolean,
  evidence?: UsedIndexEvidence,
): IndexPlanDetails {
  return {
    kind: 'index',
    rootPath,
    outputId,
    value,
    file,
    expectedBeforeHex: before === null ? null : before.toString('hex'),
    noChange,
    ...(evidence ? { evidence } : {}),
  };
}

async function withWriteCheck(plan: RepairPlan, input: IndexRepairInput): Promise<RepairPlan> {
  const g = await checkWriteAllowed(plan.rootPath!, { readOnlySource: input.readOnlySource, archive: input.archive, skipProcessCheck: input.skipProcessCheck });
  plan.refusals.push(...g.refusals);
  plan.warnings.push(...g.warnings);
  return finishPlan(plan, input.force);
}

export interface ApplyOptions {
  force?: boolean;
  skipProcessCheck?: boolean;
  hooks?: WriteTestHooks;
  /** The write frame applyPlan made (preconditions/write-frame.ts); absent: made from these options. */
  frame?: WriteFrame;
}

export interface IndexApplyResult extends RepairResult {
  /** The file as the scanner reads it now (read back once after the write). */
  written?: SeqIndexInfo;
}

export async function applyIndexPlan(plan: RepairPlan, opts: ApplyOptions = {}): Promise<IndexApplyResult> {
  const d = plan.details;
  if (d?.kind !== 'index') throw new Error(`not an index plan (${plan.action})`);
  const result: IndexApplyResult = startResult(plan);
  assertNotRefused(plan.refusals, opts.force);
  if (d.noChange) {
    result.verified = true;
    return result;
  }
  const frame = writeFrame(opts);
  const { sequenceDir, indexDir, file } = seqIndexPaths(d.rootPath, d.outputId);
  const made: string[] = [];
  const { verified, written } = await frame.journaled(
    plan,
    result,
    {
      root: d.rootPath,
      scope: ['sequence'],
      what: 'the repair',
      changes: () => folderThenFileChanges([sequenceDir, indexDir], file, made),
      evidence: d.evidence ? [d.evidence] : undefined,
      // The backup read is also the check that the file still holds what the plan was made on.
      expect: { path: file, sha256: d.expectedBeforeHex === null ? null : sha256(Buffer.from(d.expectedBeforeHex, 'hex')) },
    },
    async () => {
      let written: SeqIndexInfo;
      try {
        const w = await writeSeqIndex(d.rootPath, d.outputId, d.value);
        result.warnings.push(...w.warnings);
        written = w.info;
        for (const s of plan.steps) result.steps.push({ step: s, ok: true, message: s.kind === 'mkdir' ? 'created' : 'written, fsynced, renamed, read back' });
      } catch (err) {
        result.steps.push({ step: plan.steps[plan.steps.length - 1], ok: false, message: (err as Error).message });
        throw err;
      }
      const verified = written.valueText === String(d.value) && written.status === 'ok';
      if (!verified)
        result.warnings.push(`Read back: Fluent Bit would read ${written.valueText ?? 'nothing'} from seq_index_${d.outputId}, expected ${d.value}.`);
      const bytes = encodeSeqIndex(d.value);
      return { verified, written, expected: [file, ...made], after: { [file]: { exists: true, sha256: sha256(bytes), size: bytes.length } } };
    },
  );
  result.verified = verified;
  result.written = written;
  result.summary = `seq_index_${d.outputId} now holds ${d.value}${verified ? ' (verified)' : ' (NOT verified)'}; the undo journal has entry ${result.undoId}.`;
  return result;
}
