/** The journal room of repair/: its only entry from outside the room. */
export { pruneJournal } from './journal-prune';
export { findJournals, journalTrustProblems, type JournalView, readJournal, readJsonLines, readUndoState } from './journal-read';
export {
  type ActionEntry,
  type JournalEntry,
  journalEntrySchema,
  lockHolderSchema,
  type ReplayLine,
  replayLineSchema,
  type UndoChange,
} from './journal-schema';
export {
  type AfterState,
  appendLine,
  type ChangeSpec,
  currentAfter,
  ensureToolDir,
  folderThenFileChanges,
  lastUndoable,
  MAX_BACKUP,
  openAction,
  openJournalAppender,
  sha256,
  TOOL_DIR,
  toolDir,
} from './journal';
