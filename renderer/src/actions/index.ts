/**
 * Actions: the only code that calls the client (renderer/src/client.ts) and feeds the slices.
 * store (open/rescan/close/config/live watch) · inspector (chunk header + record pages) · evidence
 * (live listing, offline import, diagnosis) · report (export + download) · run (tasks, cancel,
 * error sentences) · theme. The write flow's actions (plan/apply/undo, history) live with it in
 * features/repair/.
 */
export * from './run';
export * from './store';
export * from './inspector';
export * from './evidence';
export * from './report';
export * from './theme';
export * from './connection';
export * from './nav';
