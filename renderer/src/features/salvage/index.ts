/**
 * Salvage (issue 21) as a feature: the chunks Fluent Bit would reject, planned, reviewed in the
 * write flow's PlanReview, applied and undone through `storagePath.salvagePlan` / `salvageApply` /
 * `undoPlan`. Outside this folder, import it here (or `state.ts` for the slices alone).
 */
export { SalvageReview } from './SalvageReview';
export { StoreSalvageBar } from './StoreSalvageBar';
export { applySalvage, planSalvage, planSalvageUndo, startSalvage, storeSalvageRefusal } from './actions';
export * from './state';
