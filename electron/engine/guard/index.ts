/**
 * guard/ — the guard daemon: keeps every `$INDEX` through Fluent Bit's graceful stops (watch the
 * index files, keep each value in the shadow folder, restore it when a stop deletes `sequence/`).
 * Doors host it: `store-doctor guard` (flags, signals, the metrics endpoint) and the app's Guard
 * panel (guard.* requests through the session, session/handlers-guard.ts).
 *
 * Offers: Guard (./daemon.ts) and its host types; each root's state (./root-state.ts); the one
 * restore loop (./restore-loop.ts); the node report and metrics; the storage.path backlog watch;
 * the shadow folder's reads, re-exported from repair/shadow.ts.
 */
export { Guard, type GuardOptions } from './daemon';
export type { GuardCall } from './call';
export { step, stepUsers, guardStateOf, type RootPhase, type RootEvent } from './root-state';
export { restoreLoop, retryDelay, type AttemptOutcome } from './restore-loop';
export { buildNodeReport } from './node-report';
export { createGuardMetrics } from './metrics';
export { watchStoragePath, type StoragePathWatch } from './storage-path-watch';
export { shadowDirFor, readShadow, recordValue, shadowRootOf } from '../repair';
