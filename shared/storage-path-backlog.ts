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
