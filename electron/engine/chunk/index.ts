/**
 * Chunk I/O codec (docs/fluent-bit-store-format.md#chunk-header): decode a chunk header and resolve its lengths exactly as Fluent
 * Bit does, verify the CRC when one is set, encode chunks (markers, test generators), count and
 * page JSON-lines records, and parse multipart records.
 */
export { crc32, crc32Table, crcHex } from './crc32';
export { decodeChunkHeader, applyCrcResult, HEADER_SIZE, MAX_HEAD_NEEDED, MAX_META_LENGTH, type ChunkHeader } from './header';
export { encodeChunk, type EncodeChunkInput } from './encode';
export { RecordCounter, countRecords, recordTime, dateValueToIso, epochToIso, hasText, type RecordCount } from './records';
export { RecordPager, parseRecordLine, type PagerOptions, type PagerResult } from './pager';
export { parseMultipartRecord } from './multipart';
export { ChunkScanner, type ChunkAnalysis, type ScanOptions } from './scanner';
export { readRecordPage, type ByteSource } from './page-reader';
