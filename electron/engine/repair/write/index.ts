/** The write room of repair/: its only entry from outside the room. */
export { Anchor } from './anchor';
export {
  atomicWriteFile,
  type AtomicWriteHooks,
  createExclusive,
  durableUnlink,
  ensureStateDir,
  fsyncDir,
  isOwnTemp,
  listDir,
  mkdirExact,
  mkdirsDurable,
  openIn,
  removeDir,
  removeTree,
  sweepOwnTemps,
  sweepStaleTemps,
} from './atomic';
export { durableMove, linkExclusive, moveUnsynced, renameOver } from './move';
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
