/**
 * Fluent Bit engine buffers (`[SERVICE] storage.path`, docs/storage-path.md): open and tell apart
 * from a store_dir, analyze every chunk (CRC, tag, msgpack events, torn tail), diagnose the backlog
 * and plan/apply the salvage of the chunks Fluent Bit would reject.
 */
export { isStoragePath, scanStoragePath, readChunkBytes, MAX_ENGINE_CHUNK, type ScanStoragePathOptions } from './scan';
export { analyzeEngineChunk, parseEngineMeta } from './chunk';
export { readEvents } from './events';
export { readEngineRecords, pageOfEvents } from './records';
export { skipObject } from './msgpack-walk';
export { storageLimits, checksumOf, configuredStoragePath } from './limits';
export { scanStoragePathArchive, archiveKind } from './archive';
