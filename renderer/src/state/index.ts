/**
 * zustand slices: view state and engine results only, no I/O (actions/ does the calls).
 * session (opened store, navigation, live-watch flag) · chunks (table filters/sort + row selectors)
 * · inspector · evidence (S3 evidence, diagnosis, connection form) · planFlow (repair wizard,
 * replay, multipart) · tasks (progress + cancel) · theme.
 */
export * from './session';
export * from './chunks';
export * from './inspector';
export * from './evidence';
export * from '../features/repair/planFlow';
export * from './tasks';
export * from './theme';
export * from '../features/repair/history-state';
