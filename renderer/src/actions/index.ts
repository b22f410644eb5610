/**
 * Actions: the only code that calls the client (renderer/src/client.ts) and feeds the slices.
 * store (open/rescan/close/config/live watch) · inspector (chunk header + record pages) · evidence
 * (live listing, offline import, diagnosis) · repair (plan/apply/undo for wizard, replay,
 * multipart) · report (export + download) · run (tasks, cancel, error sentences) · theme.
 */
export * from './run';
export * from './store';
export * from './inspector';
export * from './evidence';
export * from '../features/repair/actions';
export * from './report';
export * from './theme';
export * from './connection';
export * from '../features/repair/history-actions';
export * from './nav';
