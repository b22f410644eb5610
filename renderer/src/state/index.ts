/**
 * zustand slices: view state and engine results only, no I/O (actions/ does the calls).
 * session (opened store, navigation, live-watch flag) · chunks (table filters/sort + row selectors)
 * · inspector · evidence (S3 evidence, diagnosis, connection form) · tasks (progress + cancel) ·
 * theme. The write flow's slices (repair wizard, replay, multipart, history) are in
 * features/repair/state.ts.
 */
export * from './session';
export * from './chunks';
export * from './inspector';
export * from './evidence';
export * from './tasks';
export * from './theme';
