/**
 * The write flow's zustand slices, for code outside the feature that resets or reads them (store
 * open/close, next-step buttons). No I/O and no views: importing it never pulls the feature's
 * actions or components in.
 */
export { canApply, createPlanFlow, expectedBucket, useMultipart, useRepair, useReplay } from './planFlow';
export type { Phase, Plan, PlanFlowState, PlanParams } from './planFlow';
export { useHistory, type HistoryState } from './history-state';
