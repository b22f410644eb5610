/**
 * Room `shadow/`: the shadow folder — a root's index kept outside the store (layout, `root.json`,
 * default location, reads and atomic writes). Used by protect/restore and by the guard daemon.
 */
export {
  shadowDirFor,
  defaultShadowDir,
  ensureShadowStateDir,
  readShadow,
  recordValue,
  finalValues,
  shadowRootOf,
  sameRoot,
  copyToShadow,
  type ShadowState,
  type ShadowRoot,
  type RecordResult,
} from './shadow';
