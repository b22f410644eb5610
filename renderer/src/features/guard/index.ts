/**
 * The Guard view (issue 19 item 1) as a feature: a guard on the opened live store, started and
 * stopped through `guard.start` / `guard.stop` / `guard.status`. Outside this folder, import it
 * here (or `state.ts` for the slice alone).
 */
export { GuardView } from './GuardView';
export { refreshGuard, startGuard, stopGuard } from './actions';
export * from './state';
