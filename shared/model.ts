/**
 * The domain model: plain data that crosses every boundary (engine → contract → CLI/host/IPC →
 * renderer). Isomorphic: no Node, DOM or Electron imports. Names follow Fluent Bit's own words
 * (stream, chunk, tag, output id, seq index, key format, multipart record, quarantine).
 *
 * Times are ISO-8601 strings (UTC, `Z`) unless the name says `Ms`. Sizes are bytes.
 * `$INDEX` values are JS numbers when ≤ Number.MAX_SAFE_INTEGER; the exact decimal text is kept
 * next to them where Fluent Bit can hold larger values (uint64).
 */

// ───────────────────────────── progress ─────────────────────────────

export interface Progress {
  /** What is running, e.g. "scan", "list", "replay". */
  task: string;
  done: number;
  total: number | null;
  bytes?: number;
  totalBytes?: number | null;
  /** Current item (a relative path or an S3 prefix). */
  current?: string;
}

// ───────────────────────────── chunks ─────────────────────────────

/** Spec §2.6: what the Chunk I/O loader makes of one file. */
export type ChunkStatus =
  | 'ok'
  | 'legacy-length' // content length field 0 with content: Fluent Bit infers the length from the file size (§2.5)
  | 'zero-byte' // re-initialised as an empty chunk by Fluent Bit, uploaded as an empty object (§2.6, §3.6)
  | 'too-short' // 1..23 bytes: rejected
  | 'bad-magic' // not C1 00: rejected
  | 'truncated' // 24 + meta + content > file size: rejected
  | 'crc-mismatch'; // CRC field non-zero and not the CRC-32 of [22, 24+meta+content)

export const DAMAGED_CHUNK_STATUSES: readonly ChunkStatus[] = ['too-short', 'bad-magic', 'truncated', 'crc-mismatch'];

export type StreamKind = 'data' | 'multipart' | 'quarantine' | 'sequence';

/** One parsed `part_number=N\tetag=…` line (spec §4.1). */
export interface MultipartPart {
  partNumber: number;
  etag: string;
}

/** A chunk of `multipart_upload_metadata/` (spec §4). */
export interface MultipartRecord {
  /** Key as stored, with its leading `/`. */
  key: string;
  /** S3 object key (without the leading `/`). */
  s3Key: string;
  uploadId: string;
  /** Parts in file order, as Fluent Bit would read them (parsing stops at the first bad line). */
  parts: MultipartPart[];
  /** N of the last parsed line (Fluent Bit's `part_number - 1`); parts above it are left out of Complete. */
  lastPartNumber: number | null;
  /** Parts Fluent Bit would list in CompleteMultipartUpload (1..last, ETag set, ascending). */
  completeParts: MultipartPart[];
  /** Where and why Fluent Bit would stop parsing, when it would. */
  stoppedAt: { line: number; text: string; reason: string } | null;
  /** Problems that make Fluent Bit skip the record (no `\n` in meta, no parsed line). */
  problems: string[];
}

export interface ChunkInfo {
  /** File name inside its stream. */
  name: string;
  /** Path relative to the root (`<stream>/<name>`), `/`-separated. */
  path: string;
  stream: string;
  fileSize: number;
  mtime: string | null;
  status: ChunkStatus;
  /** Human sentence for the status. */
  message: string;
  /** Bytes 2..5 as 8 hex digits. Null when the file is shorter than 24 bytes. */
  crcField: string | null;
  /** CRC-32 computed over [22, 24+meta+content), only when the CRC field is non-zero. */
  crcComputed: string | null;
  /** Raw uint32 at offset 10. */
  contentLengthField: number | null;
  metaLength: number | null;
  /** Resolved content length exactly as Fluent Bit resolves it (§2.5). */
  contentLength: number | null;
  /** Metadata as text (tag for data chunks; `<key>\n<uploadId>` for multipart). */
  tag: string | null;
  /** Metadata bytes that are not valid UTF-8 are shown escaped; this is the exact hex. */
  metaHex: string | null;
  /** JSON-lines record count of the content (data chunks). */
  records: number | null;
  /** Lines that are not JSON objects (counted in `records` only if non-empty). */
  badLines?: number;
  firstRecordTime: string | null;
  lastRecordTime: string | null;
  /** Is the slack after the logical end all zero (§8.1 item 5)? */
  slackZero?: boolean | null;
  /** What Fluent Bit would do with this file on its next start/stop, in one sentence. */
  fluentBitAction: string;
  multipart?: MultipartRecord;
}

/** Something in the root Fluent Bit does not register, with why (§1.2, §1.3). */
export interface IgnoredEntry {
  path: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  reason: string;
}

export interface StreamInfo {
  name: string;
  kind: StreamKind;
  /** For data streams named `%Y-%m-%dT%H:%M:%S` (local time of the Fluent Bit process start). */
  startTime: string | null;
  chunks: ChunkInfo[];
  /** Non-chunk entries inside the stream (dot files, nested folders, symlinks). */
  ignored: IgnoredEntry[];
  totalBytes: number;
  /** What a graceful stop does to this folder, e.g. "deleted (no registered chunk)". */
  fateOnGracefulStop: string;
  /** Stream folder not writable: Fluent Bit skips it silently. */
  writable?: boolean | null;
}

export type SeqIndexStatus = 'ok' | 'empty' | 'not-a-number' | 'trailing-bytes';

export interface SeqIndexInfo {
  /** `<id>` of `seq_index_<id>` (the output instance id). Null when the suffix is not a number. */
  outputId: number | null;
  fileName: string;
  /** Path relative to the root. */
  path: string;
  /** File content as text (control bytes escaped as \xNN). */
  raw: string;
  rawHex: string;
  fileSize: number;
  /** The next index as Fluent Bit's fscanf("%" PRIu64) reads it; null when Fluent Bit fails. */
  value: number | null;
  /** Exact uint64 decimal of `value` (wraps as strtoull does, e.g. "-1" → 18446744073709551615). */
  valueText: string | null;
  status: SeqIndexStatus;
  message: string;
  mtime: string | null;
}

export interface SequenceInfo {
  present: boolean;
  indexMetadataPresent: boolean;
  /** Regular non-dot files directly in `sequence/` (Fluent Bit registers them as chunks). */
  markerChunks: string[];
  /** True when nothing keeps the folder: the next graceful stop deletes it with every seq index. */
  deletedOnGracefulStop: boolean;
  message: string;
}

export interface RootReport {
  /** Folder name of the root = the bucket Fluent Bit used. */
  bucket: string;
  /** Path of the root as given/resolved (inside an archive: `archive.tar.gz!/store/bucket`). */
  path: string;
  streams: StreamInfo[];
  seqIndex: SeqIndexInfo[];
  sequence: SequenceInfo;
  /** Entries directly in the root that are not streams. */
  ignored: IgnoredEntry[];
  totals: { chunks: number; bytes: number; records: number; damaged: number; quarantined: number; pending: number };
}

export type StoreSourceKind = 'store_dir' | 'root' | 'archive';

export interface StoreSourceInfo {
  kind: StoreSourceKind;
  /** What the user gave. */
  path: string;
  /** For archives: whether roots inside are store_dirs or roots, and the gzip flag. */
  archive?: { gzip: boolean; entries: number; layout: 'store_dir' | 'root' };
  readOnly: boolean;
  /** One sentence: what was found, e.g. "a store_dir with 2 bucket roots". */
  description: string;
}

export interface StoreProblem {
  severity: 'error' | 'warning' | 'info';
  path: string;
  message: string;
}

export interface StoreReport {
  source: StoreSourceInfo;
  roots: RootReport[];
  scannedAt: string;
  /** Problems reading the source (permission denied, loop, corrupt archive…). */
  problems: StoreProblem[];
}

export interface RecordPage {
  chunkPath: string;
  offset: number;
  /** Parsed records (or `{ _raw: string }` for lines that are not JSON). */
  records: unknown[];
  total: number | null;
  nextOffset: number | null;
}

// ───────────────────────────── Fluent Bit config ─────────────────────────────

export interface ConfigSource {
  file: string;
  line: number;
}

export interface FluentBitOutput {
  /** Instance id: 0-based position among ALL outputs (spec §1.4). */
  id: number;
  /** Plugin name (`s3`, `stdout`, …). */
  plugin: string;
  alias: string | null;
  /** `s3.<id>` or the alias. */
  displayName: string;
  match: string | null;
  source: ConfigSource;
  /** Every key as written (lower-cased names), after @SET/${ENV} expansion. */
  properties: Record<string, string>;
  /** Present for S3 outputs, with defaults filled in per the spec. */
  s3?: S3OutputSettings;
}

export interface S3OutputSettings {
  bucket: string;
  region: string;
  endpoint: string | null;
  storeDir: string;
  /** `<store_dir>/<bucket>` exactly as Fluent Bit concatenates it. */
  rootPath: string;
  s3KeyFormat: string;
  keyFormatIsDefault: boolean;
  tagDelimiters: string;
  usePutObject: boolean;
  /** Effective: forced on below 10 MiB total_file_size (spec §7). */
  usePutObjectEffective: boolean;
  compression: 'none' | 'gzip' | 'zstd' | 'snappy' | 'arrow' | 'parquet';
  staticFilePath: boolean;
  profile: string | null;
  roleArn: string | null;
  totalFileSize: number;
  uploadChunkSize: number;
  retryLimit: number | null;
  hasIndex: boolean;
}

export interface FluentBitConfig {
  /** Every file read (main file first, then includes). */
  files: string[];
  format: 'classic' | 'yaml';
  outputs: FluentBitOutput[];
  warnings: { file: string; line: number; message: string }[];
}

// ───────────────────────────── key format ─────────────────────────────

export interface KeyParts {
  tag?: string;
  tagParts?: Record<number, string>;
  index?: number;
  uuid?: string;
  /** UTC time fields present in the key. */
  time?: { year?: number; month?: number; day?: number; hour?: number; minute?: number; second?: number; epoch?: number };
  /** The `-object<8>` PutObject suffix when present. */
  suffix?: string;
}

export interface CollisionAnalysis {
  format: string;
  hasIndex: boolean;
  hasUuid: boolean;
  hasTag: boolean;
  /** Finest strftime resolution in the key, in seconds (null: no time in the key). */
  timeResolutionSeconds: number | null;
  /** `always` | `same-window` (same tag + same time window) | `practically-never` | `never`. */
  risk: 'always' | 'same-window' | 'practically-never' | 'never';
  /** One sentence on what distinguishes two keys besides `$INDEX`. */
  explanation: string;
  /** Literal text before the first variable (the listing prefix). */
  literalPrefix: string;
}

// ───────────────────────────── S3 evidence ─────────────────────────────

export interface S3ObjectEntry {
  key: string;
  size: number;
  etag: string | null;
  lastModified: string | null;
}

export interface S3VersionEntry extends S3ObjectEntry {
  versionId: string;
  isLatest: boolean;
  isDeleteMarker: boolean;
}

export interface S3UploadEntry {
  key: string;
  uploadId: string;
  initiated: string | null;
  parts?: { partNumber: number; etag: string; size: number }[] | null;
}

export interface S3Evidence {
  source: 'live' | 'offline';
  bucket: string | null;
  /** Prefixes listed (live) or files read (offline). */
  scope: string[];
  objects: S3ObjectEntry[];
  /** Null when not known (no versions listed / permission denied). */
  versions: S3VersionEntry[] | null;
  multipartUploads: S3UploadEntry[] | null;
  /** Degradations, e.g. "ListMultipartUploads denied: multipart checks skipped". */
  notes: string[];
  requests: number;
  /** False when the listing was cut (cancel, error) — conclusions may be incomplete. */
  complete: boolean;
  /**
   * Live planner listings: `full` = every key the key format can reach; `focused` = only what a
   * restart at a given time needs (keys from a time on + the newest partition per tag; see notes).
   * Absent for offline evidence (whatever the files hold).
   */
  coverage?: 'full' | 'focused';
}

export interface S3ConnectionOptions {
  profile?: string;
  region?: string;
  endpoint?: string;
  pathStyle?: boolean;
}

// ───────────────────────────── diagnosis ─────────────────────────────

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

// ───────────────────────────── repair ─────────────────────────────

export type RepairAction =
  | 'repair-index'
  | 'protect-index'
  | 'restore-index'
  | 'undo'
  | 'replay'
  | 'multipart'
  | 'recover-versions';

export interface PlanStep {
  /** `write-file`, `mkdir`, `move`, `put-object`, `complete-upload`, `abort-upload`, `copy-object`, … */
  kind: string;
  /** Local path (absolute) or `s3://bucket/key`. */
  target: string;
  description: string;
  /** For writes: previous and new content (text; bytes as hex when not text). */
  before?: string | null;
  after?: string | null;
}

export interface RepairPlan {
  action: RepairAction;
  storePath: string;
  rootPath: string | null;
  summary: string;
  why: string[];
  steps: PlanStep[];
  warnings: string[];
  /** Reasons the plan cannot be applied (without --force where `forceable`). */
  refusals: { reason: string; forceable: boolean }[];
  /** Data the apply step needs (opaque to UIs). */
  details?: Record<string, unknown>;
}

export interface RepairResult {
  action: RepairAction;
  applied: boolean;
  summary: string;
  steps: { step: PlanStep; ok: boolean; message: string }[];
  /** Id of the undo-journal entry written. */
  undoId: string | null;
  verified: boolean;
  warnings: string[];
}

export interface ReplayItem {
  chunkPath: string;
  stream: string;
  tag: string;
  key: string;
  index: number | null;
  bytes: number;
  records: number | null;
  compression: string;
  state: 'planned' | 'uploaded' | 'skipped' | 'failed' | 'done';
  message?: string;
}
