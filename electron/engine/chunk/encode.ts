/**
 * Chunk I/O encoder (docs/fluent-bit-store-format.md#chunk-header, fluent-bit-store-format.md#chunk-header): the bytes chunkio writes for a chunk, for
 * marker chunks and test generators. Page-padded with zeros like current writers, CRC field 0.
 */
import { crc32 } from './crc32';
import { HEADER_SIZE, MAGIC_0, MAGIC_1, MAX_META_LENGTH } from './header';

export interface EncodeChunkInput {
  /** Metadata bytes (the tag for data chunks, `<key>\n<uploadId>` for multipart records). */
  meta: Uint8Array | string;
  content: Uint8Array | string;
  /** Pad the file with zeros to a multiple of this size (default 4096); null = exact logical size. */
  pageSize?: number | null;
  /** Fill the CRC field (bytes 2..5, big-endian) like chunkio with CIO_CHECKSUM. Default false (out_s3). */
  crc?: boolean;
  /** Override the content-length field (e.g. 0 to write a legacy file). Default: the content length. */
  contentLengthField?: number;
}

function bytes(v: Uint8Array | string): Uint8Array {
  return typeof v === 'string' ? Buffer.from(v, 'utf8') : v;
}

/** Encode one chunk file. Throws RangeError for metadata above 65535 bytes or a bad page size. */
export function encodeChunk(input: EncodeChunkInput): Buffer {
  const meta = bytes(input.meta);
  const content = bytes(input.content);
  if (meta.length > MAX_META_LENGTH) throw new RangeError(`metadata is ${meta.length} bytes; chunkio allows at most ${MAX_META_LENGTH}`);
  if (content.length > 0xffffffff) throw new RangeError('content longer than 4 GiB - 1 cannot be described by the header');
  const pageSize = input.pageSize === undefined ? 4096 : input.pageSize;
  if (pageSize !== null && (!Number.isInteger(pageSize) || pageSize <= 0)) throw new RangeError(`bad page size ${pageSize}`);
  const logical = HEADER_SIZE + meta.length + content.length;
  const size = pageSize === null ? logical : Math.max(pageSize, Math.ceil(logical / pageSize) * pageSize);
  const buf = Buffer.alloc(size);
  buf[0] = MAGIC_0;
  buf[1] = MAGIC_1;
  const lengthField = input.contentLengthField ?? content.length;
  buf.writeUInt32BE(lengthField >>> 0, 10);
  buf.writeUInt16BE(meta.length, 22);
  buf.set(meta, HEADER_SIZE);
  buf.set(content, HEADER_SIZE + meta.length);
  if (input.crc) {
    // Coverage uses the length Fluent Bit resolves; with a 0 field and content that is the legacy length.
    let end = HEADER_SIZE + meta.length + lengthField;
    if (lengthField === 0 && size > HEADER_SIZE + meta.length && buf[HEADER_SIZE + meta.length] !== 0) end = size;
    buf.writeUInt32BE(crc32(buf.subarray(22, Math.min(end, size))), 2);
  }
  return buf;
}
