/** The undo room of repair/: its only entry from outside the room. */
export { evidenceNotCovering, usedEvidenceOf } from './undo-index';
export { applyUndo, journalRoot, planUndo, undoLast } from './undo';
