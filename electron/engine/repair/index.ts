/**
 * repair/ — every write Store Doctor makes goes through here: plan first (dry run), back up,
 * write atomically, verify, keep an undo entry.
 *
 * Offers:
 * - atomic writes: atomicWriteFile, fsyncDir, durableMove, durableUnlink, mkdirExact — each takes the root
 *   first and runs through its anchor (anchor.ts: folders held by descriptor, never followed)
 * - journal + undo: openAction, lastUndoable, planUndo, applyUndo, undoLast
 * - guard: checkWriteAllowed, findProcessesUsing, snapshotTree, diffSnapshots, watchStore (store changed during an action)
 * - index: planIndexRepair, applyIndexPlan, writeSeqIndex, fscanfU64, readSeqIndexState
 * - shadow folder (a root's index kept outside the store, shadow.ts): shadowDirFor, defaultShadowDir, readShadow, recordValue, finalValues
 * - protection: planProtectIndex (marker | shadow), applyProtectPlan, planRestoreIndex, applyRestorePlan
 * - replay: planReplay, applyReplay (create-only, journaled, resumable)
 * - write lock: takeWriteLock (one writer per root; applyPlan holds it across the plan check and the write)
 * - confinement: resolveWriteRoot, rootIdentity (a root is resolved once; nothing is written through a link)
 * - multipart: planMultipart, applyMultipart; versions: planRecoverVersions, applyRecoverVersions
 * - planAction(action, diagnosisContext, opts): the one planner of every action, for every door
 * - applyPlan(plan, opts): apply any of the plans above; RefusedError when refused.
 */
export { atomicWriteFile, fsyncDir, durableMove, durableUnlink, mkdirExact, sweepStaleTemps, type AtomicWriteHooks } from './atomic';
export { openAction, lastUndoable, toolDir, TOOL_DIR, type ActionEntry } from './journal';
export { planUndo, applyUndo, undoLast } from './undo';
export {
  checkWriteAllowed,
  findProcessesUsing,
  planningScope,
  findFluentBitProcesses,
  snapshotTree,
  diffSnapshots,
  watchStore,
  type GuardReport,
  type WriteTestHooks,
} from './guard';
export { takeWriteLock, WRITE_LOCK } from './write-lock';
export { resolveWriteRoot, rootIdentity } from './confine';
export { planIndexRepair, applyIndexPlan, type IndexRepairInput } from './index-repair';
export { writeSeqIndex, fscanfU64, readSeqIndexState, seqIndexPaths, encodeSeqIndex } from './seqindex';
export { planProtectIndex, applyProtectPlan, markerBytes, MARKER_NAME, type ProtectInput, type OutputOnRoot } from './protect';
export {
  shadowDirFor,
  defaultShadowDir,
  ensureShadowStateDir,
  readShadow,
  recordValue,
  finalValues,
  shadowRootOf,
  sameRoot,
  type ShadowState,
  type ShadowRoot,
  type RecordResult,
} from './shadow';
export { planRestoreIndex, applyRestorePlan, type RestoreInput } from './restore';
export { planReplay, type ReplayPlanInput, type ReplayTarget } from './replay-plan';
export { checkActiveStream, newestStreamName, type ActiveStreamCheck } from './active-stream';
export { applyReplay, type ReplayApplyOptions } from './replay-run';
export { loadReplayState, REPLAY_JOURNAL } from './replay-journal';
export { probeConditionalWrites, putCreateOnly } from './s3ops';
export { planMultipart, applyMultipart, type MultipartInput, type MultipartDecision } from './multipart';
export { planRecoverVersions, applyRecoverVersions, type RecoverInput } from './versions';
export { applyPlan, type ApplyPlanOptions } from './apply';
export { planSalvage, applySalvage } from './salvage';
export { planStoreSalvage, salvageStoreChunk, storeRootOf } from './salvage-store';
export { planAction, pickTarget, rootOf, confirmPhrase, ActionInputError, type DiagnosisContext, type ActionOptions } from './plan-action';
export { RefusedError, assertNotRefused } from './errors';
