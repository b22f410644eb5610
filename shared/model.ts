/**
 * The domain model: plain data that crosses every boundary (engine → contract → CLI/host/IPC →
 * renderer). Isomorphic: no Node, DOM or Electron imports. Names follow Fluent Bit's own words
 * (stream, chunk, tag, output id, seq index, key format, multipart record, quarantine).
 *
 * Times are ISO-8601 strings (UTC, `Z`) unless the name says `Ms`. Sizes are bytes.
 * `$INDEX` values are JS numbers when ≤ Number.MAX_SAFE_INTEGER; the exact decimal text is kept
 * next to them where Fluent Bit can hold larger values (uint64).
 */

export * from './model/store';
export * from './model/config';
export * from './model/keyformat';
export * from './model/s3';
export * from './model/diagnosis';
export * from './model/repair';
export * from './model/plan-details';
export * from './model/console';
export * from './model/storage-path';
