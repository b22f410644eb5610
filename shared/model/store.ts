/**
 * Chunks, streams, seq index files and the scan report of a store (docs/fluent-bit-store-format.md#layout). Part of the domain model (see ../model.ts).
 *
 * A report is never changed in place: its types are deep-readonly, and a refresh or an apply builds
 * new objects for what changed. Caches keyed by report objects (stream facts, stream digests, the
 * guard's sums) rely on it; test/shared/readonly-report.test.ts keeps the types that way.
 */

/** A part of a report while its one builder (the scanner, a refresh) is still filling it in; published as the readonly type. */
export type Draft<T> = { -readonly [K in keyof T]: T[K] };

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
  readonly partNumber: number;
  readonly etag: string;
}

/** A chunk of `multipart_upload_metadata/` (docs/fluent-bit-store-format.md#multipart-records). */
export interface MultipartRecord {
  /** Key as stored, with its leading `/`. */
  readonly key: string;
  /** S3 object key (without the leading `/`). */
  readonly s3Key: string;
  readonly uploadId: string;
  /** Parts in file order, as Fluent Bit would read them (parsing stops at the first bad line). */
  readonly parts: readonly MultipartPart[];
  /** N of the last parsed line (Fluent Bit's `part_number - 1`); parts above it are left out of Complete. */
  readonly lastPartNumber: number | null;
  /** Parts Fluent Bit would list in CompleteMultipartUpload (1..last, ETag set, ascending). */
  readonly completeParts: readonly MultipartPart[];
  /** Where and why Fluent Bit would stop parsing, when it would. */
  readonly stoppedAt: { readonly line: number; readonly text: string; readonly reason: string } | null;
  /** Problems that make Fluent Bit skip the record (no `\n` in meta, no parsed line). */
  readonly problems: readonly string[];
}

export interface ChunkInfo {
  /** File name inside its stream. */
  readonly name: string;
  /** Path relative to the root (`<stream>/<name>`), `/`-separated. */
  readonly path: string;
  readonly stream: string;
  readonly fileSize: number;
  readonly mtime: string | null;
  readonly status: ChunkStatus;
  /** Human sentence for the status. */
  readonly message: string;
  /** Bytes 2..5 as 8 hex digits. Null when the file is shorter than 24 bytes. */
  readonly crcField: string | null;
  /** CRC-32 computed over [22, 24+meta+content), only when the CRC field is non-zero. */
  readonly crcComputed: string | null;
  /** Raw uint32 at offset 10. */
  readonly contentLengthField: number | null;
  readonly metaLength: number | null;
  /** Resolved content length exactly as Fluent Bit resolves it (fluent-bit-store-format.md#legacy-length). */
  readonly contentLength: number | null;
  /** Metadata as text (tag for data chunks; `<key>\n<uploadId>` for multipart). */
  readonly tag: string | null;
  /** Metadata bytes that are not valid UTF-8 are shown escaped; this is the exact hex. */
  readonly metaHex: string | null;
  /** JSON-lines record count of the content (data chunks). */
  readonly records: number | null;
  /** Lines that are not JSON objects (counted in `records` only if non-empty). */
  readonly badLines?: number;
  readonly firstRecordTime: string | null;
  readonly lastRecordTime: string | null;
  /** Is the slack after the logical end all zero (fluent-bit-store-format.md#chunk-header)? */
  readonly slackZero?: boolean | null;
  /** What Fluent Bit would do with this file on its next start/stop, in one sentence. */
  readonly fluentBitAction: string;
  readonly multipart?: MultipartRecord;
  /**
   * `legacy-length` chunks whose content was read: NUL bytes at the end of the content as Fluent
   * Bit reads it (the zero padding of a page-sized file after a crash, which Fluent Bit 1.x uploads
   * with the records; docs/fluent-bit-versions.md §2). 0 for an exact-size file. Absent otherwise.
   */
  readonly nulTail?: number;
}

/** Something in the root Fluent Bit does not register, with why (fluent-bit-store-format.md#layout, fluent-bit-store-format.md#layout). */
export interface IgnoredEntry {
  readonly path: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  readonly reason: string;
}

export interface StreamInfo {
  readonly name: string;
  readonly kind: StreamKind;
  /** For data streams named `%Y-%m-%dT%H:%M:%S` (local time of the Fluent Bit process start). */
  readonly startTime: string | null;
  readonly chunks: readonly ChunkInfo[];
  /** Non-chunk entries inside the stream (dot files, nested folders, symlinks). */
  readonly ignored: readonly IgnoredEntry[];
  readonly totalBytes: number;
  /** What a graceful stop does to this folder, e.g. "deleted (no registered chunk)". */
  readonly fateOnGracefulStop: string;
  /**
   * Stream folder not writable (a read-only file system): Fluent Bit skips it silently. Null when
   * unknown, e.g. when only the user running Store Doctor cannot write it.
   */
  readonly writable?: boolean | null;
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
  readonly outputId: number | null;
  readonly fileName: string;
  /** Path relative to the root. */
  readonly path: string;
  /** File content as text (control bytes escaped as \xNN). */
  readonly raw: string;
  readonly rawHex: string;
  readonly fileSize: number;
  /** The next index as Fluent Bit's fscanf("%" PRIu64) reads it; null when Fluent Bit fails. */
  readonly value: number | null;
  /** Exact uint64 decimal of `value` (wraps as strtoull does, e.g. "-1" → 18446744073709551615). */
  readonly valueText: string | null;
  readonly status: SeqIndexStatus;
  readonly message: string;
  readonly mtime: string | null;
}

export interface SequenceInfo {
  readonly present: boolean;
  readonly indexMetadataPresent: boolean;
  /** Regular non-dot files directly in `sequence/` (Fluent Bit registers them as chunks). */
  readonly markerChunks: readonly string[];
  /** True when nothing keeps the folder: the next graceful stop deletes it with every seq index. */
  readonly deletedOnGracefulStop: boolean;
  readonly message: string;
  /** index_metadata/ (or sequence/) could not be listed (permission denied): its seq_index files are unknown, not missing. */
  readonly indexMetadataError?: string | null;
}

export interface RootReport {
  /** Folder name of the root = the bucket Fluent Bit used. */
  readonly bucket: string;
  /** Path of the root as given/resolved (inside an archive: `archive.tar.gz!/store/bucket`). */
  readonly path: string;
  readonly streams: readonly StreamInfo[];
  readonly seqIndex: readonly SeqIndexInfo[];
  readonly sequence: SequenceInfo;
  /** Entries directly in the root that are not streams. */
  readonly ignored: readonly IgnoredEntry[];
  readonly totals: {
    readonly chunks: number;
    readonly bytes: number;
    readonly records: number;
    readonly damaged: number;
    readonly quarantined: number;
    readonly pending: number;
  };
  /** The root is a symlink, followed for reading (Fluent Bit follows it): its target. */
  readonly linkTarget?: string;
}

export type StoreSourceKind = 'store_dir' | 'root' | 'archive';

export interface StoreSourceInfo {
  readonly kind: StoreSourceKind;
  /** What the user gave. */
  readonly path: string;
  /** For archives: whether roots inside are store_dirs or roots, and the gzip flag. */
  readonly archive?: { readonly gzip: boolean; readonly entries: number; readonly layout: 'store_dir' | 'root' };
  readonly readOnly: boolean;
  /** One sentence: what was found, e.g. "a store_dir with 2 bucket roots". */
  readonly description: string;
  /** The store was found inside the given folder or archive (a support bundle): its path from there, e.g. "store". */
  readonly foundAt?: string;
}

export interface StoreProblem {
  readonly severity: 'error' | 'warning' | 'info';
  readonly path: string;
  readonly message: string;
}

export interface StoreReport {
  readonly source: StoreSourceInfo;
  readonly roots: readonly RootReport[];
  readonly scannedAt: string;
  /** Problems reading the source (permission denied, loop, corrupt archive…). */
  readonly problems: readonly StoreProblem[];
}

export interface RecordPage {
  chunkPath: string;
  offset: number;
  /** Parsed records (or `{ _raw: string }` for lines that are not JSON). */
  records: unknown[];
  total: number | null;
  nextOffset: number | null;
}
