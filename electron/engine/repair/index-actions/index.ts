/** The index-actions room of repair/: its only entry from outside the room. */
export { encodeSeqIndex, exactValue, fscanfU64, readSeqIndexState, seqIndexPaths, unsafeIndexReason, writeSeqIndex } from './index-file';
export { applyIndexPlan, type IndexRepairInput, planIndexRepair } from './index-repair';
export { applyProtectPlan, MARKER_NAME, markerBytes, type OutputOnRoot, planProtectIndex, type ProtectInput } from './protect';
export { applyRestorePlan, planRestoreIndex, type RestoreInput } from './restore';
