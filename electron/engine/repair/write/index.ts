/** The write room of repair/: its only entry from outside the room. */
export { Anchor } from './anchor';
export {
  atomicWriteFile,
  type AtomicWriteHooks,
  createExclusive,
  durableMove,
  durableUnlink,
  ensureStateDir,
  fsyncDir,
  isOwnTemp,
  linkExclusive,
  listDir,
  mkdirExact,
  mkdirsDurable,
  moveUnsynced,
  openIn,
  removeDir,
  removeTree,
  renameOver,
  sweepOwnTemps,
  sweepStaleTemps,
} from './atomic';
export {
  assertInside,
  assertInsideRoot,
  confine,
  isNormalAbsolute,
  isPlannedRoot,
  rebase,
  relativeInside,
  resolveWriteRoot,
  rootIdentity,
  type WriteRoot,
} from './confine';
export { pathExists } from './fsutil';
export {
  APPEND_FLAGS,
  ensureToolDir,
  ensureToolSubdir,
  JOURNAL_FILE,
  lstatOrNull,
  ownerOf,
  TOOL_DIR,
  toolDir,
  toolDirProblems,
  trustedOwners,
  untrustedReason,
} from './tool-dir';
