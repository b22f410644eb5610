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
  readonly path: string;
  readonly stream: string;
  readonly name: string;
  readonly fileSize: number;
  readonly mtime: string | null;
  /** Header status as chunkio's format check sees it (without the CRC): ok, truncated, bad-magic, too-short, zero-byte… */
  readonly headerStatus: string;
  readonly headerMessage: string;
  /** `valid`: the CRC field matches; `invalid`: set and wrong (stale after SIGKILL, or damaged); `absent`: zero (written with storage.checksum off). */
  readonly crc: EngineCrc;
  readonly tag: string | null;
  readonly eventType: EngineEventType | null;
  readonly format: EventFormat;
  /** Complete events decoded with msgpack. */
  readonly records: number;
  /** Bytes after the last complete event (a torn last record); 0 when the content ends cleanly. */
  readonly tornBytes: number;
  /** Content that is not msgpack events at all (offset of the first bad byte), or null. */
  readonly badAt: number | null;
  readonly firstTime: string | null;
  readonly lastTime: string | null;
  /** With storage.checksum on, and off. */
  readonly fateChecksumOn: EngineFate;
  readonly fateChecksumOff: EngineFate;
  /** Why (one sentence). */
  readonly fateText: string;
  /** Store Doctor can write a valid chunk in its place (salvage). */
  readonly salvageable: boolean;
}

export interface EngineStreamInfo {
  readonly name: string;
  /** Input plugin name and instance number from the folder name (`tail.1` → tail, 1). */
  readonly plugin: string | null;
  readonly instance: number | null;
  readonly chunks: readonly EngineChunkInfo[];
  readonly records: number;
  readonly bytes: number;
  readonly oldestTime: string | null;
  readonly newestTime: string | null;
}

export interface StorageLimits {
  readonly checksum: boolean | null;
  readonly totalLimitSize: number | null;
  readonly maxChunksUp: number | null;
  readonly backlogMemLimit: number | null;
  /** One sentence per setting: what it will do with this backlog. */
  readonly effects: readonly string[];
}

export interface StoragePathReport {
  readonly kind: 'storage-path';
  readonly path: string;
  readonly streams: readonly EngineStreamInfo[];
  /** Entries Fluent Bit ignores (files in the root, dot entries, folders inside streams). */
  readonly ignored: readonly { readonly path: string; readonly reason: string }[];
  readonly totals: {
    readonly chunks: number;
    readonly bytes: number;
    readonly records: number;
    readonly rejected: number;
    readonly rejectedRecords: number;
    readonly torn: number;
  };
  readonly limits: StorageLimits;
  /** Which checksum setting the fates use: from the config, or null (both are shown). */
  readonly findings: readonly string[];
}
