/**
 * One-pass analysis of a chunk file fed as a byte stream (from a file descriptor or a tar entry):
 * header decode, CRC when the field is set, streaming record count, slack check, metadata bytes.
 * Memory is bounded: only the header/metadata, first/last line and (optionally, capped) the content
 * are kept.
 */
import { applyCrcResult, decodeChunkHeader, MAX_HEAD_NEEDED, type ChunkHeader } from './header';
import { crc32, crcHex } from './crc32';
import { RecordCounter, type RecordCount } from './records';

export interface ScanOptions {
  /** Count JSON-lines records (reads the whole content). Default true. */
  records?: boolean;
  /** Keep the content bytes up to this many (for multipart records); 0 = none. */
  keepContent?: number;
}

export interface ChunkAnalysis {
  header: ChunkHeader;
  meta: Buffer | null;
  count: RecordCount | null;
  /** Slack after the logical end is all zero; null when not read. */
  slackZero: boolean | null;
  /** Content bytes when asked for (null otherwise or when longer than the cap). */
  content: Buffer | null;
  /**
   * Legacy-length chunks (content length field 0): NUL bytes at the end of the content as Fluent
   * Bit reads it — the zero padding of a page-sized file that 1.x uploads with the records
   * (docs/fluent-bit-versions.md §2). Null for other chunks, or when the content was not read.
   */
  nulTail: number | null;
}

const ZEROS = Buffer.alloc(64 * 1024);

/** Index of the last non-zero byte of `b`, -1 when all are zero. */
function lastNonZero(b: Uint8Array): number {
  for (let i = b.length - 1; i >= 0; i--) if (b[i] !== 0) return i;
  return -1;
}

/** Are the bytes of `buf` from `from` on all zero? (memcmp against zeros, not a byte loop) */
function allZero(buf: Buffer, from: number): boolean {
  for (let i = from; i < buf.length; i += ZEROS.length) {
    const n = Math.min(ZEROS.length, buf.length - i);
    if (buf.compare(ZEROS, 0, n, i, i + n) !== 0) return false;
  }
  return true;
}

export class ChunkScanner {
  private head: Buffer[] = [];
  private headLen = 0;
  /** File offset of the next byte pushed. */
  private pos = 0;
  private header: ChunkHeader | null = null;
  private counter: RecordCounter | null = null;
  private crc = 0;
  private doCrc = false;
  private slackZero: boolean | null = null;
  private meta: Buffer[] = [];
  private content: Buffer[] | null = null;
  private contentLen = 0;
  /** Trailing NUL run of the content so far (legacy-length chunks only; null = not tracked). */
  private nulTail: number | null = null;
  private readonly records: boolean;
  private readonly keep: number;

  constructor(
    private readonly fileSize: number,
    opts: ScanOptions = {},
  ) {
    this.records = opts.records ?? true;
    this.keep = opts.keepContent ?? 0;
  }

  /** File offset up to which bytes are still wanted; reading may stop once `position >= needUntil`. */
  get needUntil(): number {
    const h = this.header;
    if (!h) return Math.min(this.fileSize, MAX_HEAD_NEEDED);
    if (h.contentStart === null) return 0;
    const needContent = this.records || this.doCrc || this.keep > 0;
    return needContent ? this.fileSize : Math.min(h.contentStart, this.fileSize);
  }

  /** Bytes pushed so far. */
  get position(): number {
    return this.pos;
  }

  /** Feed the next bytes of the file, in order. */
  push(buf: Buffer): void {
    if (buf.length === 0) return;
    if (this.header) {
      this.body(buf, this.pos);
      this.pos += buf.length;
      return;
    }
    const head = this.headLen === 0 ? buf : Buffer.concat([...this.head, buf]);
    this.headLen += buf.length;
    this.pos += buf.length;
    const h = decodeChunkHeader(head, this.fileSize);
    if (h.needBytes !== null && this.headLen < Math.min(h.needBytes, this.fileSize)) {
      // Keep a copy: the caller may reuse `buf` for its next read.
      this.head = [head === buf ? Buffer.from(buf) : head];
      return;
    }
    this.start(h);
    this.head = [];
    this.body(head, 0);
  }

  private start(h: ChunkHeader): void {
    this.header = h;
    const usable = h.status === 'ok' || h.status === 'legacy-length' || h.status === 'truncated' || h.status === 'crc-mismatch';
    if (this.records && usable) this.counter = new RecordCounter();
    this.doCrc = h.crcCheck && h.crcComputed === null && (h.status === 'ok' || h.status === 'legacy-length');
    if (this.keep > 0 && usable) this.content = [];
    if (h.status === 'legacy-length' && (this.records || this.doCrc || this.keep > 0)) this.nulTail = 0;
  }

  /** Process `buf`, which starts at file offset `start`. */
  private body(buf: Buffer, start: number): void {
    const h = this.header as ChunkHeader;
    if (h.contentStart === null) return;
    const end = start + buf.length;
    const mEnd = Math.min(h.contentStart, this.fileSize);
    if (start < mEnd && end > 24) {
      // A copy: the caller may reuse `buf` for its next read.
      const a = Math.max(24, start) - start;
      const b = Math.min(mEnd, end) - start;
      const m = Buffer.allocUnsafe(b - a);
      buf.copy(m, 0, a, b);
      this.meta.push(m);
    }
    if (h.logicalEnd === null) return;
    if (this.doCrc) {
      const a = Math.max(22, start);
      const b = Math.min(h.logicalEnd, end);
      if (b > a) this.crc = crc32(buf.subarray(a - start, b - start), this.crc);
    }
    // Content region; for a truncated file, the part that is present.
    const a = Math.max(h.contentStart, start);
    const b = Math.min(h.logicalEnd, this.fileSize, end);
    if (b > a && this.nulTail !== null) {
      const piece = buf.subarray(a - start, b - start);
      const last = lastNonZero(piece);
      this.nulTail = last < 0 ? this.nulTail + piece.length : piece.length - 1 - last;
    }
    if (b > a && (this.counter || this.content)) {
      const piece = buf.subarray(a - start, b - start);
      this.counter?.push(piece);
      if (this.content) {
        if (this.contentLen + piece.length > this.keep) this.content = null;
        else {
          this.content.push(Buffer.from(piece));
          this.contentLen += piece.length;
        }
      }
    }
    if (end > h.logicalEnd && h.status !== 'truncated' && h.status !== 'zero-byte') {
      if (this.slackZero === null) this.slackZero = true;
      if (this.slackZero) this.slackZero = allZero(buf, Math.max(h.logicalEnd, start) - start);
    }
  }

  /** End of input (or enough of it): the analysis. */
  finish(): ChunkAnalysis {
    let h = this.header;
    if (!h) {
      // The input ended before the header could be decided (file shrank while read).
      const head = this.head.length ? Buffer.concat(this.head) : Buffer.alloc(0);
      h = decodeChunkHeader(head, head.length);
      this.start(h);
      this.body(head, 0);
    }
    if (this.doCrc && this.pos >= (h.logicalEnd ?? Infinity)) applyCrcResult(h, crcHex(this.crc));
    this.doCrc = false;
    if (h.logicalEnd === this.fileSize && (h.status === 'ok' || h.status === 'legacy-length' || h.status === 'crc-mismatch')) this.slackZero = true;
    else if (this.pos < this.fileSize) this.slackZero = null;
    let count: RecordCount | null = this.counter ? this.counter.finish() : null;
    if (!count && this.records && h.status === 'zero-byte') count = { records: 0, firstRecordTime: null, lastRecordTime: null };
    const metaLen = this.meta.reduce((n, b) => n + b.length, 0);
    const meta =
      h.status === 'zero-byte'
        ? Buffer.alloc(0)
        : h.metaLength !== null && metaLen === h.metaLength
          ? this.meta.length === 1
            ? this.meta[0]
            : Buffer.concat(this.meta)
          : null;
    const content = this.content ? Buffer.concat(this.content) : null;
    // Known only when every content byte was seen.
    const nulTail = this.nulTail !== null && h.logicalEnd !== null && this.pos >= h.logicalEnd ? this.nulTail : null;
    return { header: h, meta, count, slackZero: this.slackZero, content, nulTail };
  }
}
