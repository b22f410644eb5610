/**
 * The storage picture's rows for a Fluent Bit engine buffer (`storage.path`, not an S3
 * `store_dir`): the backlog per input folder, and the chunks Fluent Bit will reject at its next
 * start under the checksum setting the report was read with (unknown counts as on, as salvage does).
 * One function for the engine (`store.storage` of a store whose config sets a storage.path) and
 * the app (a storage.path opened alone).
 */
import type { EngineChunkInfo, StoragePathReport } from './model/storage-path';
import type { StoragePathBacklogSummary } from './model/console';

/** What the next start does with a chunk under the report's checksum setting (unknown = on). */
export const nextStartFate = (c: EngineChunkInfo, checksum: boolean | null) => (checksum === false ? c.fateChecksumOff : c.fateChecksumOn);

export function storagePathBacklog(report: StoragePathReport): StoragePathBacklogSummary {
  const checksum = report.limits.checksum;
  return {
    path: report.path,
    checksum,
    inputs: report.streams.map((s) => {
      const rejected = s.chunks.filter((c) => nextStartFate(c, checksum) === 'reject');
      return {
        input: s.name,
        chunks: s.chunks.length,
        bytes: s.bytes,
        records: s.records,
        rejected: rejected.length,
        rejectedRecords: rejected.reduce((n, c) => n + c.records, 0),
        oldestTime: s.oldestTime,
      };
    }),
    error: null,
  };
}

/**
 * Why a storage.path chunk is not salvaged, or null when it is (the one rule: the planner and the
 * app's Chunks view): a torn last record always; a CRC that does not match unless storage.checksum
 * is known to be off (unknown counts as on: a CRC never hurts with it off).
 */
export function engineSalvageRefusal(c: EngineChunkInfo, checksum: boolean | null): string | null {
  if (c.salvageable) {
    if (c.tornBytes > 0) return null;
    if (c.crc === 'valid') return 'its CRC is valid and it ends with a complete record: Fluent Bit loads it';
    return checksum === false ? 'storage.checksum is off: Fluent Bit does not check the CRC and loads it' : null;
  }
  if (c.fateChecksumOn === 'load') return 'its CRC is valid and it ends with a complete record: Fluent Bit loads it';
  return `nothing Store Doctor can keep in it (${c.fateText || c.headerMessage})`;
}

/** The Fluent Bit versions whose next start was measured on real buffers (docs/storage-path.md). */
export const MEASURED_ENGINE_VERSIONS = ['1.9.10', '3.2.10', '4.2.8', '5.0.9', '5.1.1'] as const;

/**
 * What each measured version does with the chunk at its next start, with storage.checksum on and
 * off: the same on all five (docs/storage-path.md); none deleted a chunk (a rejected one stays on
 * disk and is rejected again at every start).
 */
export function versionFates(c: EngineChunkInfo): { version: string; checksumOn: string; checksumOff: string; deletes: boolean }[] {
  return MEASURED_ENGINE_VERSIONS.map((version) => ({ version, checksumOn: c.fateChecksumOn, checksumOff: c.fateChecksumOff, deletes: false }));
}
