/**
 * Chunk I/O header decoding exactly as chunkio 1.5.4 loads a file (docs/fluent-bit-store-format.md#chunk-header).
 * Works on the first bytes of a file plus its size; never trusts the size for the content length.
 */
import type { ChunkStatus } from '../../../shared/model';
import { crc32, crcHex } from './crc32';

export const HEADER_SIZE = 24;
export const MAGIC_0 = 0xc1;
export const MAGIC_1 = 0x00;
export const MAX_META_LENGTH = 0xffff;
/** Bytes of head that always suffice for {@link decodeChunkHeader}: header + max meta + 1 probe byte. */
export const MAX_HEAD_NEEDED = HEADER_SIZE + MAX_META_LENGTH + 1;

export interface ChunkHeader {
  status: ChunkStatus;
  /** Human sentence for the status. */
  message: string;
  fileSize: number;
  /** Bytes 2..5 as 8 hex digits; null when the file is shorter than 24 bytes. */
  crcField: string | null;
  /** Bytes 6..9 are zero (chunkio's 8-byte crc_t leaves them zero). Null when < 24 bytes. */
  crcPaddingZero: boolean | null;
  /** Raw uint32 BE at offset 10. */
  contentLengthField: number | null;
  /** uint16 BE at offset 22. */
  metaLength: number | null;
  /** Content length as Fluent Bit resolves it (fluent-bit-store-format.md#legacy-length); null when the file is rejected before that. */
  contentLength: number | null;
  /** Offset of the first content byte (24 + metaLength). */
  contentStart: number | null;
  /** 24 + metaLength + contentLength: end of the logical chunk. */
  logicalEnd: number | null;
  /** The CRC field is non-zero, so the CRC-32 of [22, logicalEnd) must be checked. */
  crcCheck: boolean;
  /** CRC-32 over [22, logicalEnd) as hex, when it was computable from `head`. */
  crcComputed: string | null;
  /**
   * When `head` was too short to decide: call again with at least this many bytes.
   * Null when the result is final (except a pending CRC, see `crcCheck` / `crcComputed`).
   */
  needBytes: number | null;
}

function u32(b: Uint8Array, o: number): number {
  return ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
}

function base(fileSize: number): ChunkHeader {
  return {
    status: 'ok',
    message: '',
    fileSize,
    crcField: null,
    crcPaddingZero: null,
    contentLengthField: null,
    metaLength: null,
    contentLength: null,
    contentStart: null,
    logicalEnd: null,
    crcCheck: false,
    crcComputed: null,
    needBytes: null,
  };
}

/**
 * Decode the header of a chunk file. `head` holds the first bytes of the file (at least
 * min(fileSize, 24 + metaLength + 1) for a final answer; {@link MAX_HEAD_NEEDED} always suffices).
 * `fileSize` is the size of the whole file. Never throws.
 */
export function decodeChunkHeader(head: Uint8Array, fileSize: number): ChunkHeader {
  const h = base(fileSize);
  if (!Number.isFinite(fileSize) || fileSize < 0) fileSize = h.fileSize = head.length;
  if (fileSize === 0) {
    h.status = 'zero-byte';
    h.message = 'Empty (0-byte) file: Fluent Bit re-initialises it as an empty chunk (one page, empty tag) and uploads it as a 0-byte object.';
    h.metaLength = 0;
    h.contentLength = 0;
    h.contentStart = HEADER_SIZE;
    h.logicalEnd = HEADER_SIZE;
    return h;
  }
  if (fileSize < HEADER_SIZE) {
    h.status = 'too-short';
    h.message = `Only ${fileSize} byte${fileSize === 1 ? '' : 's'}, shorter than the 24-byte header: rejected at load ("invalid content size").`;
    return h;
  }
  if (head.length < HEADER_SIZE) {
    h.needBytes = HEADER_SIZE;
    h.message = 'need more bytes';
    return h;
  }
  h.crcField = crcHex(u32(head, 2));
  h.crcPaddingZero = head[6] === 0 && head[7] === 0 && head[8] === 0 && head[9] === 0;
  h.contentLengthField = u32(head, 10);
  const meta = (head[22] << 8) | head[23];
  h.metaLength = meta;
  h.contentStart = HEADER_SIZE + meta;
  if (head[0] !== MAGIC_0 || head[1] !== MAGIC_1) {
    h.status = 'bad-magic';
    h.message = `Header starts with ${hex2(head[0])} ${hex2(head[1])}, not C1 00: rejected at load ("invalid header").`;
    return h;
  }
  let length = h.contentLengthField;
  let legacy = false;
  if (length === 0 && fileSize > HEADER_SIZE + meta) {
    const probe = HEADER_SIZE + meta;
    if (head.length <= probe) {
      h.needBytes = probe + 1;
      h.message = 'need more bytes';
      return h;
    }
    if (head[probe] !== 0) {
      length = fileSize - HEADER_SIZE - meta;
      legacy = true;
    }
  }
  h.contentLength = length;
  h.logicalEnd = HEADER_SIZE + meta + length;
  if (h.logicalEnd > fileSize) {
    h.status = 'truncated';
    h.message = `Truncated: header says 24 + ${meta} (metadata) + ${length} (content) = ${h.logicalEnd} bytes but the file has ${fileSize}: rejected at load ("truncated file").`;
    return h;
  }
  if (legacy) {
    h.status = 'legacy-length';
    h.message = `Content length field is 0 but content follows (written before chunkio 1.5.0): Fluent Bit infers ${length} bytes including all trailing padding and rewrites the header at load.`;
  } else {
    h.status = 'ok';
    h.message = length === 0 ? 'Valid empty chunk (no content).' : validMessage(meta, length);
  }
  if (h.crcField !== '00000000') {
    h.crcCheck = true;
    if (head.length >= h.logicalEnd) {
      const computed = crcHex(crc32(head.subarray(22, h.logicalEnd)));
      applyCrcResult(h, computed);
    }
  }
  return h;
}

/**
 * Record the CRC-32 computed over [22, logicalEnd) in a decoded header and downgrade the status
 * to `crc-mismatch` when it differs from the non-zero CRC field (or bytes 6..9 are not zero).
 */
export function applyCrcResult(h: ChunkHeader, computedHex: string): void {
  if (!h.crcCheck) return;
  h.crcComputed = computedHex;
  if (h.status !== 'ok' && h.status !== 'legacy-length') return;
  if (computedHex !== h.crcField) {
    h.status = 'crc-mismatch';
    h.message = `CRC field ${h.crcField} does not match the CRC-32 ${computedHex} of bytes [22, ${h.logicalEnd}). Fluent Bit does not verify CRCs in store_dir and loads it anyway; the content may be damaged.`;
  } else if (!h.crcPaddingZero) {
    h.status = 'crc-mismatch';
    h.message = `CRC ${computedHex} matches, but bytes 6..9 are not zero: chunkio's 8-byte CRC check would fail. Fluent Bit does not verify CRCs in store_dir.`;
  } else {
    h.message += ` CRC-32 ${computedHex} verified.`;
  }
}

/** The sentence of a valid chunk, one shared string per (metadata, content) length pair. */
const validMessages = new Map<number, string>();
function validMessage(meta: number, length: number): string {
  const key = length * 65536 + meta; // meta < 2^16, length < 2^32: exact below 2^53
  let m = validMessages.get(key);
  if (m === undefined) {
    if (validMessages.size >= 4096) validMessages.clear();
    m = `Valid chunk: ${meta} bytes of metadata, ${length} bytes of content.`;
    validMessages.set(key, m);
  }
  return m;
}

function hex2(b: number | undefined): string {
  return (b ?? 0).toString(16).toUpperCase().padStart(2, '0');
}
