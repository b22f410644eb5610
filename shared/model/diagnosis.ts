/** Findings and per-output index diagnosis. Part of the domain model (see ../model.ts). */
import type { CollisionAnalysis } from './keyformat';

export type Severity = 'critical' | 'error' | 'warning' | 'info';

export const FINDING_CODES = [
  'INDEX_FILE_MISSING',
  'INDEX_FILE_UNREADABLE',
  'INDEX_BEHIND_BUCKET',
  'INDEX_REUSED',
  'OVERWRITE_RISK',
  'OBJECTS_OVERWRITTEN',
  'SEQUENCE_UNPROTECTED',
  'SHARED_STORE_ROOT',
  'OUTPUT_ID_MISMATCH',
  'BUFFERED_BACKLOG',
  'QUARANTINED_DATA',
  'MULTIPART_PENDING',
  'MULTIPART_ORPHANED',
  'CHUNK_DAMAGED',
  'ROOT_NOT_FOUND',
  'NO_EVIDENCE',
  'INDEX_BEYOND_EXACT_RANGE',
  /** Store Doctor could not read a seq_index file (permission denied): its value is unknown. */
  'INDEX_FILE_NOT_READ',
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];

export interface Finding {
  code: FindingCode;
  severity: Severity;
  summary: string;
  /** Facts that prove the finding, one per line (keys, indices, paths, times). */
  evidence: string[];
  action: string;
  outputId?: number | null;
  /** Structured details for the UI (keys at risk, time window, …). */
  data?: Record<string, unknown>;
}

export interface IndexPoint {
  /** When the index was used (object LastModified, or the time in the key). */
  time: string;
  index: number;
  key: string;
  tag?: string;
}

export interface OutputDiagnosis {
  id: number;
  displayName: string;
  bucket: string;
  keyFormat: string;
  rootPath: string | null;
  persistedNextIndex: number | null;
  highestIndexInBucket: number | null;
  safeNextIndex: number;
  /**
   * Set only when the bucket holds an `$INDEX` above 2^53 - 1: the exact decimal values. The
   * numbers above are then rounded up (never below the exact value) and are not safe integers.
   */
  highestIndexInBucketText?: string;
  safeNextIndexText?: string;
  timeline: IndexPoint[];
  /** Detected resets: where the index went down over time. */
  resets: { time: string; from: number; to: number }[];
  collision: CollisionAnalysis;
  findings: Finding[];
}

export interface Diagnosis {
  at: string;
  outputs: OutputDiagnosis[];
  /** Findings not tied to one output (damaged chunks, roots no output uses, …). */
  storeFindings: Finding[];
}
