/** The preconditions room of repair/: its only entry from outside the room. */
export { type ActiveStreamCheck, checkActiveStream, newestStreamName } from './active-stream';
export { fluentBitsConfiguredFor } from './storage-users';
export {
  checkWriteAllowed,
  diffSnapshots,
  findFluentBitProcesses,
  findProcessesUsing,
  type WriteCheckReport,
  planningScope,
  snapshotTree,
  snapshotStore,
  type WriteTestHooks,
} from './write-check';
export { takeWriteLock, WRITE_LOCK } from './write-lock';
export {
  type FrameSnapshot,
  type JournaledOutcome,
  type JournaledSpec,
  type WriteFrame,
  type WriteFrameOptions,
  noteCheck,
  type WriteCheckOutcome,
  writeFrame,
} from './write-frame';
