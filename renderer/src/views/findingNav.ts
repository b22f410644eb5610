/** Which view helps with a finding (navigation only; the finding itself comes from the engine). */
import type { FindingCode, RepairAction } from '../../../shared/model';
import type { ViewName } from '../state/session';

export const FINDING_VIEW: Partial<Record<FindingCode, { view: ViewName; label: string; action?: RepairAction }>> = {
  INDEX_FILE_MISSING: { view: 'repair', label: 'Repair the index', action: 'repair-index' },
  INDEX_FILE_UNREADABLE: { view: 'repair', label: 'Repair the index', action: 'repair-index' },
  INDEX_BEHIND_BUCKET: { view: 'repair', label: 'Repair the index', action: 'repair-index' },
  INDEX_REUSED: { view: 'index', label: 'See the index chart' },
  OVERWRITE_RISK: { view: 'repair', label: 'Repair the index', action: 'repair-index' },
  OBJECTS_OVERWRITTEN: { view: 'repair', label: 'Recover earlier versions', action: 'recover-versions' },
  SEQUENCE_UNPROTECTED: { view: 'repair', label: 'Protect the index', action: 'protect-index' },
  OUTPUT_ID_MISMATCH: { view: 'index', label: 'Check outputs' },
  BUFFERED_BACKLOG: { view: 'replay', label: 'Replay the backlog' },
  QUARANTINED_DATA: { view: 'chunks', label: 'Show chunks' },
  MULTIPART_PENDING: { view: 'multipart', label: 'Resolve multipart uploads' },
  MULTIPART_ORPHANED: { view: 'multipart', label: 'Resolve multipart uploads' },
  CHUNK_DAMAGED: { view: 'chunks', label: 'Show damaged chunks' },
  NO_EVIDENCE: { view: 'index', label: 'Add S3 evidence' },
};
