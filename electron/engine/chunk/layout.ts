/**
 * The first bytes of a chunk file field by field (docs/fluent-bit-store-format.md#chunk-header):
 * magic, CRC, zero padding, content length, reserved bytes, metadata length, then the metadata
 * (the tag) and where the content starts — each with what Fluent Bit makes of it, for an
 * annotated hex dump. Pure: reads the header hex and metadata the scan already read.
 */
import type { ChunkInfo, ChunkLayoutField } from '../../../shared/model';
import { HEADER_SIZE } from './header';

/** Metadata bytes shown in the dump (a tag is short; a multipart record's metadata is key + upload id). */
export const LAYOUT_META_MAX = 256;

function slice(hex: string, offset: number, length: number): string {
  return hex.slice(offset * 2, (offset + length) * 2);
}

const allZero = (hex: string) => /^0*$/.test(hex);

export function chunkLayout(info: ChunkInfo, headerHex: string, meta: Buffer): ChunkLayoutField[] {
  const hex = headerHex.replace(/[^0-9a-f]/gi, '').toLowerCase();
  const have = Math.floor(hex.length / 2);
  const out: ChunkLayoutField[] = [];
  const field = (name: string, offset: number, size: number, value: (h: string) => string, note: (h: string) => string, ok: (h: string) => boolean | null) => {
    if (offset >= have) return;
    const length = Math.min(size, have - offset);
    const h = slice(hex, offset, length);
    const whole = length === size;
    out.push({
      name,
      offset,
      length,
      hex: h,
      value: whole ? value(h) : `${length} of ${size} bytes`,
      note: whole ? note(h) : 'the file ends inside this field: Fluent Bit rejects it (shorter than the 24-byte header)',
      ok: whole ? ok(h) : false,
    });
  };
  field(
    'magic',
    0,
    2,
    (h) => h.toUpperCase().replace(/(..)(..)/, '$1 $2'),
    (h) => (h === 'c100' ? 'Chunk I/O magic' : 'not C1 00: Fluent Bit rejects the file (bad magic)'),
    (h) => h === 'c100',
  );
  field(
    'CRC-32',
    2,
    4,
    (h) => h,
    (h) => {
      if (allZero(h)) return 'zero: no checksum (Fluent Bit opens store_dir chunks without checksums)';
      if (!info.crcComputed) return 'set; the checksum of bytes 22 to the end of the content could not be computed';
      return info.crcComputed === h ? 'matches the CRC-32 of bytes 22 to the end of the content' : `the content's CRC-32 is ${info.crcComputed}: mismatch`;
    },
    (h) => allZero(h) || info.crcComputed === null || info.crcComputed === h,
  );
  field(
    'padding',
    6,
    4,
    (h) => h,
    (h) => (allZero(h) ? 'zero, as chunkio writes it' : 'not zero (chunkio writes zeros here; Fluent Bit ignores it)'),
    (h) => allZero(h),
  );
  field(
    'content length L',
    10,
    4,
    (h) => `${parseInt(h, 16)} bytes`,
    (h) => {
      const l = parseInt(h, 16);
      if (info.status === 'truncated') return `24 + M + L is beyond the ${info.fileSize}-byte file: Fluent Bit rejects it (truncated)`;
      if (l === 0 && info.status === 'legacy-length')
        return `0 (written before chunkio 1.5.0): Fluent Bit infers L = ${info.contentLength} from the file size and writes it back`;
      return `${info.contentLength ?? l} bytes of content follow the metadata`;
    },
    () => info.status !== 'truncated',
  );
  field(
    'reserved',
    14,
    8,
    (h) => h,
    (h) => (allZero(h) ? 'zero' : 'not zero (Fluent Bit ignores it)'),
    (h) => allZero(h),
  );
  field(
    'metadata length M',
    22,
    2,
    (h) => `${parseInt(h, 16)} bytes`,
    (h) => `the metadata (${info.stream === 'multipart_upload_metadata' ? 'object key and upload id' : 'the tag'}) takes the next ${parseInt(h, 16)} bytes`,
    () => null,
  );
  const m = info.metaLength ?? 0;
  if (have >= HEADER_SIZE && m > 0 && meta.length > 0) {
    const shown = meta.subarray(0, LAYOUT_META_MAX);
    out.push({
      name: 'metadata',
      offset: HEADER_SIZE,
      length: shown.length,
      hex: shown.toString('hex'),
      value: info.tag ?? '',
      note:
        shown.length < m
          ? `first ${shown.length} of ${m} bytes`
          : info.stream === 'multipart_upload_metadata'
            ? 'object key, a newline, the upload id'
            : 'the tag',
      ok: null,
    });
  }
  if (have >= HEADER_SIZE && info.contentLength !== null) {
    out.push({
      name: 'content',
      offset: HEADER_SIZE + m,
      length: 0,
      hex: '',
      value: `${info.contentLength} bytes`,
      note: `the records start at byte ${HEADER_SIZE + m}; zero slack follows them up to the file size (${info.fileSize} bytes)`,
      ok: null,
    });
  }
  return out;
}
