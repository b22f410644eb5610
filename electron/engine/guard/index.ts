/**
 * guard/ — the guard daemon: keeps every `$INDEX` through Fluent Bit's graceful stops (watch the
 * index files, keep each value in the shadow folder, restore it when a stop deletes `sequence/`).
 * Doors host it: `store-doctor guard` (flags, signals, the metrics endpoint) and the app's Guard
 * panel (guard.* requests through the session).
 */
export { shadowDirFor, readShadow, recordValue, finalValues, shadowRootOf, type ShadowState, type ShadowRoot } from '../repair';
