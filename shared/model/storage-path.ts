/**
 * A Fluent Bit engine buffer (`[SERVICE] storage.path`): one stream folder per input instance
 * (`dummy.0`, `tail.1`, …), chunk files `<pid>-<sec>.<nsec>.flb` holding msgpack events
 * (docs/storage-path.md). Not an S3 `store_dir`.
 */

/** What a chunk holds, from byte 2 of its metadata (`F1 77 <type> 00 <tag>`). */
export type EngineEventType = 'logs' | 'metrics' | 'traces' | 'profiles' | 'blobs' | 'unknown';

/** `[ts, record]` (v1) or `[[ts, metadata], record]` (v2, Fluent Bit 2.1 and later). */
export type EventFormat = 'v1' | 'v2' | 'mixed' | 'none';

export type EngineCrc = 'valid' | 'invalid' | 'absent';

/** What a Fluent Bit start does with the chunk (measured, docs/storage-path.md). */
export type EngineFate = 'load' | 'reject' | 'unknown';

export interface EngineChunkInfo {
  /** Path relative to the storage.path (`dummy.0/123-1700000000.1.flb`). */
  path: string;
  stream: string;
  name: string;
  fileSize: number;
  mtime: string | null;
  /** Header status as chunkio's format check sees it (without the CRC): ok, truncated, bad-magic, too-short, zero-byte… */
  headerStatus: string;
  headerMessage: string;
  /** `valid`: the CRC field matches; `invalid`: set and wrong (stale after SIGKILL, or damaged); `absent`: zero (written with storage.checksum off). */
  crc: EngineCrc;
  tag: string | null;
  eventType: EngineEventType | null;
  format: EventFormat;
  /** Complete events decoded with msgpack. */
  records: number;
  /** Bytes after the last complete event (a torn last record); 0 when the content ends cleanly. */
  tornBytes: number;
  /** Content that is not msgpack events at all (offset of the first bad byte), or null. */
  badAt: number | null;
  firstTime: string | null;
  lastTime: string | null;
  /** With storage.checksum on, and off. */
  fateChecksumOn: EngineFate;
  fateChecksumOff: EngineFate;
  /** Why (one sentence). */
  fateText: string;
  /** Store Doctor can write a valid chunk in its place (salvage). */
  salvageable: boolean;
}

export interface EngineStreamInfo {
  name: string;
  /** Input plugin name and instance number from the folder name (`tail.1` → tail, 1). */
  plugin: string | null;
  instance: number | null;
  chunks: EngineChunkInfo[];
  records: number;
  bytes: number;
  oldestTime: string | null;
  newestTime: string | null;
}

export interface StorageLimits {
  checksum: boolean | null;
  totalLimitSize: number | null;
  maxChunksUp: number | null;
  backlogMemLimit: number | null;
  /** One sentence per setting: what it will do with this backlog. */
  effects: string[];
}

export interface StoragePathReport {
  kind: 'storage-path';
  path: string;
  streams: EngineStreamInfo[];
  /** Entries Fluent Bit ignores (files in the root, dot entries, folders inside streams). */
  ignored: { path: string; reason: string }[];
  totals: { chunks: number; bytes: number; records: number; rejected: number; rejectedRecords: number; torn: number };
  limits: StorageLimits;
  /** Which checksum setting the fates use: from the config, or null (both are shown). */
  findings: string[];
}
