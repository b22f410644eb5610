/**
 * Read one chunk file for replay: header resolved exactly as Fluent Bit does (chunk codec), then
 * the metadata (tag) and content bytes. Damaged files are reported, never replayed.
 */
import { constants as bufferConstants } from 'node:buffer';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { decodeChunkHeader, type ChunkHeader } from '../../chunk';
import { DAMAGED_CHUNK_STATUSES } from '../../../../shared/model';
import { safeReadFile, safeReadFileSync } from '../../store/safe-read';

export interface ChunkFile {
  header: ChunkHeader;
  meta: Buffer;
  content: Buffer;
}

export async function readChunkFile(file: string): Promise<ChunkFile> {
  // The one safe reader: a FIFO or symlink swapped in for a chunk is never opened or followed.
  return chunkOf(file, (await safeReadFile(file, { maxBytes: bufferConstants.MAX_LENGTH })).bytes);
}

/**
 * {@link readChunkFile} with synchronous calls (the same safe reader's checks): for small chunks
 * read in a row (a replay's batches), where a thread-pool round trip per step costs more than the read.
 */
export function readChunkFileSync(file: string): ChunkFile {
  return chunkOf(file, safeReadFileSync(file, { maxBytes: bufferConstants.MAX_LENGTH }).bytes);
}

function chunkOf(file: string, bytes: Buffer): ChunkFile {
  const header = decodeChunkHeader(bytes, bytes.length);
  if (DAMAGED_CHUNK_STATUSES.includes(header.status) || header.contentStart === null || header.contentLength === null) {
    throw new Error(`${file}: damaged chunk (${header.status}: ${header.message}); it is never replayed`);
  }
  const metaLen = header.metaLength ?? 0;
  return {
    header,
    meta: bytes.subarray(24, 24 + metaLen),
    content: bytes.subarray(header.contentStart, header.contentStart + header.contentLength),
  };
}

/**
 * What replay sends of a chunk: its content — without the zero padding that a legacy-length chunk
 * (content-length field 0, a page-sized file after a crash of Fluent Bit 1.x) reads as content.
 * Fluent Bit uploads those NUL bytes (docs/fluent-bit-versions.md §2); the records end before them.
 */
export function replayContent(cf: ChunkFile): Buffer {
  if (cf.header.status !== 'legacy-length') return cf.content;
  let end = cf.content.length;
  while (end > 0 && cf.content[end - 1] === 0) end--;
  return cf.content.subarray(0, end);
}

export type { ReplayCompression } from '../../../../shared/model';
import type { ReplayCompression } from '../../../../shared/model';

/** The object body Fluent Bit would send for this content (only none and gzip are supported). */
export function objectBody(content: Buffer, compression: ReplayCompression): { body: Buffer; contentEncoding: string | undefined } {
  if (compression === 'gzip') return { body: gzipSync(content), contentEncoding: 'gzip' };
  return { body: content, contentEncoding: undefined };
}

export function md5Hex(b: Buffer): string {
  return createHash('md5').update(b).digest('hex');
}
