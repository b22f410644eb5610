/**
 * repair/ — every write Store Doctor makes goes through here: plan first (dry run), back up,
 * write atomically, verify, keep an undo entry.
 *
 * Offers:
 * - atomic writes: atomicWriteFile, fsyncDir, durableMove, durableUnlink, mkdirExact — each takes the root
 *   first and runs through its anchor (anchor.ts: folders held by descriptor, never followed)
 * - journal + undo: openAction, lastUndoable, planUndo, applyUndo, undoLast
 * - guard: checkWriteAllowed, findProcessesUsing, snapshotTree, diffSnapshots, snapshotStore (store changed during an action)
 * - index: planIndexRepair, applyIndexPlan, writeSeqIndex, fscanfU64, readSeqIndexState
 * - shadow folder (a root's index kept outside the store, shadow/): shadowDirFor, defaultShadowDir, readShadow, recordValue, finalValues
 * - protection: planProtectIndex (marker | shadow), applyProtectPlan, planRestoreIndex, applyRestorePlan
 * - replay: planReplay, applyReplay (create-only, journaled, resumable)
 * - write lock: takeWriteLock (one writer per root; applyPlan holds it across the plan check and the write)
 * - confinement: resolveWriteRoot, rootIdentity (a root is resolved once; nothing is written through a link)
 * - multipart: planMultipart, applyMultipart; versions: planRecoverVersions, applyRecoverVersions
 * - planAction(action, diagnosisContext, opts): the one planner of every action, for every door
 * - ACTIONS / actionDef(name): the registry — per action its planner, applier, write root, where it
 *   writes, journal, bucket needs and request refusals (actions/, one module per action)
 * - applyPlan(plan, opts): apply any of the plans above; RefusedError when refused.
 */
export { atomicWriteFile, fsyncDir, durableMove, durableUnlink, mkdirExact, sweepStaleTemps, type AtomicWriteHooks } from './write';
export { openAction, lastUndoable, toolDir, TOOL_DIR, type ActionEntry } from './journal';
export { planUndo, applyUndo, undoLast } from './undo';
export {
  checkWriteAllowed,
  findProcessesUsing,
  planningScope,
  findFluentBitProcesses,
  snapshotTree,
  diffSnapshots,
  snapshotStore,
  type WriteCheckReport,
  type WriteTestHooks,
} from './preconditions';
export { takeWriteLock, WRITE_LOCK } from './preconditions';
export { resolveWriteRoot, rootIdentity } from './write';
export { planIndexRepair, applyIndexPlan, type IndexRepairInput } from './index-actions';
export { writeSeqIndex, fscanfU64, readSeqIndexState, seqIndexPaths, encodeSeqIndex } from './index-actions';
export { planProtectIndex, applyProtectPlan, markerBytes, MARKER_NAME, type ProtectInput, type OutputOnRoot } from './index-actions';
export * from './shadow';
export { planRestoreIndex, applyRestorePlan, type RestoreInput } from './index-actions';
export { planReplay, type ReplayPlanInput, type ReplayTarget } from './bucket';
export { checkActiveStream, newestStreamName, type ActiveStreamCheck } from './preconditions';
export { applyReplay, type ReplayApplyOptions } from './bucket';
export { loadReplayState, REPLAY_JOURNAL } from './bucket';
export { probeConditionalWrites, putCreateOnly } from './bucket';
export { planMultipart, applyMultipart, type MultipartInput, type MultipartDecision } from './bucket';
export { planRecoverVersions, applyRecoverVersions, type RecoverInput } from './bucket';
export { applyPlan, type ApplyPlanOptions } from './apply';
export { planSalvage, applySalvage } from './salvage';
export { planStoreSalvage, salvageStoreChunk, storeRootOf } from './salvage';
export { planAction } from './plan-action';
export { ACTIONS, actionDef, pickTarget, rootOf, confirmPhrase, ActionInputError, type DiagnosisContext, type ActionOptions, type ActionDef } from './actions';
export { RefusedError, assertNotRefused } from './outcome';
