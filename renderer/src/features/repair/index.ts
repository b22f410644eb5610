/**
 * The write flow as one feature: choose an action → plan (dry run) → review the diff and type the
 * bucket name → apply with progress → the verified result → undo; and the history of applied
 * changes. Views, their parts, their slices and their actions live here together (GitHub Desktop's
 * `app/src/ui/branches/` layout). Code outside imports this index, or `./state` for the slices
 * alone (test/structure/features.test.ts).
 */
export { RepairView } from './RepairView';
export { ReplayView } from './ReplayView';
export { MultipartView } from './MultipartView';
export { HistoryView } from './HistoryView';
export { PlanReview, type PlanOps } from './PlanReview';
export { applyReviewedPlan, cancelApply, makePlan, restartTime, reviewUndo, usesShadowDir } from './actions';
export { loadHistory } from './history-actions';
export * from './state';
