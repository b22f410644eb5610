/**
 * Store reading (docs/fluent-bit-store-format.md#layout): open a store_dir, one root, or a .tar/.tar.gz snapshot of either
 * (read in place), scan it into a StoreReport exactly as Fluent Bit classifies it (big directory
 * stores are read by worker threads as well as this one; the report is the same), read one chunk
 * or a page of its records, parse seq_index files, and watch a live store. Never writes.
 */
export { scanStore, type ScanStoreOptions } from './scan';
export { readChunk, readRecords } from './read';
export { liveWatch, type StoreWatcher } from './watch';
export { StoreError } from './errors';
export { parseSeqIndex, seqIndexInfo, type ParsedSeqIndex } from './seq-index';
export { streamKind, streamStartTime } from './classify';
