/** Chunks, streams, seq index files and the scan report of a store (docs/fluent-bit-store-format.md#layout). Part of the domain model (see ../model.ts). */

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

/** fluent-bit-store-format.md#what-a-start-does-with-each-file: what the Chunk I/O loader makes of one file. */
export type ChunkStatus =
  | 'ok'
  | 'legacy-length' // content length field 0 with content: Fluent Bit infers the length from the file size (fluent-bit-store-format.md#legacy-length)
  | 'zero-byte' // re-initialised as an empty chunk by Fluent Bit, uploaded as an empty object (fluent-bit-store-format.md#what-a-start-does-with-each-file, fluent-bit-store-format.md#what-a-start-does-with-each-file)
  | 'too-short' // 1..23 bytes: rejected
  | 'bad-magic' // not C1 00: rejected
  | 'truncated' // 24 + meta + content > file size: rejected
  | 'crc-mismatch' // CRC field non-zero and not the CRC-32 of [22, 24+meta+content)
  | 'unreadable'; // Store Doctor could not read the file (permission denied, I/O error): what Fluent Bit does is unknown

export const DAMAGED_CHUNK_STATUSES: readonly ChunkStatus[] = ['too-short', 'bad-magic', 'truncated', 'crc-mismatch'];

export type StreamKind = 'data' | 'multipart' | 'quarantine' | 'sequence';

/** One parsed `part_number=N\tetag=…` line (docs/fluent-bit-store-format.md#multipart-records). */
export interface MultipartPart {
  partNumber: number;
  etag: string;
}

/** A chunk of `multipart_upload_metadata/` (docs/fluent-bit-store-format.md#multipart-records). */
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
  /** Resolved content length exactly as Fluent Bit resolves it (fluent-bit-store-format.md#legacy-length). */
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
  /** Is the slack after the logical end all zero (fluent-bit-store-format.md#chunk-header)? */
  slackZero?: boolean | null;
  /** What Fluent Bit would do with this file on its next start/stop, in one sentence. */
  fluentBitAction: string;
  multipart?: MultipartRecord;
  /**
   * `legacy-length` chunks whose content was read: NUL bytes at the end of the content as Fluent
   * Bit reads it (the zero padding of a page-sized file after a crash, which Fluent Bit 1.x uploads
   * with the records; docs/fluent-bit-versions.md §2). 0 for an exact-size file. Absent otherwise.
   */
  nulTail?: number;
}

/** Something in the root Fluent Bit does not register, with why (fluent-bit-store-format.md#layout, fluent-bit-store-format.md#layout). */
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
  /**
   * Stream folder not writable (a read-only file system): Fluent Bit skips it silently. Null when
   * unknown, e.g. when only the user running Store Doctor cannot write it.
   */
  writable?: boolean | null;
}

export type SeqIndexStatus =
  | 'ok'
  | 'empty'
  | 'not-a-number'
  | 'trailing-bytes'
  // Not read by Store Doctor (the value is unknown; `message` says why):
  | 'unreadable' // permission denied (EACCES) or an I/O error: run as Fluent Bit's user or root
  | 'not-regular' // a symlink, FIFO, socket, device or folder: never opened or followed
  | 'too-large'; // larger than 64 KiB: not a file Fluent Bit writes (only the first bytes are read)

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
  /** index_metadata/ (or sequence/) could not be listed (permission denied): its seq_index files are unknown, not missing. */
  indexMetadataError?: string | null;
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
  /** The root is a symlink, followed for reading (Fluent Bit follows it): its target. */
  linkTarget?: string;
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
  /** The store was found inside the given folder or archive (a support bundle): its path from there, e.g. "store". */
  foundAt?: string;
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
