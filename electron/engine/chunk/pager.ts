/**
 * Record pager for data chunk content: feed the content from some byte position on, get the
 * records [offset, offset+limit) parsed. Records are numbered like {@link RecordCounter} counts
 * them (non-empty lines, plus a final unterminated line holding text). Lines that are not JSON
 * objects come back as `{ _raw: string }`. It reports checkpoints (record index → byte position)
 * so a caller can cache them and start the next page near its offset instead of at byte 0.
 */
import { hasText } from './records';

/** Longest line returned whole; longer lines are cut (the `_truncated` flag says so). */
const MAX_LINE = 16 * 1024 * 1024;
/**
 * Most line bytes one page holds: a page ends early (its `nextOffset` says where the next one
 * starts) rather than hold `limit` lines of up to 16 MiB each. The first record is always taken.
 */
export const MAX_PAGE_BYTES = 16 * 1024 * 1024;

export interface PagerOptions {
  /** Index of the first record at the byte position the feed starts from (a checkpoint). */
  startRecord?: number;
  /** Content byte position the feed starts from (to report checkpoints in absolute terms). */
  startByte?: number;
  /** Keep counting to the end to report `total` (default true). */
  countTotal?: boolean;
  /** Called every `checkpointEvery` records with the record index and the byte where it starts. */
  onCheckpoint?: (record: number, byte: number) => void;
  checkpointEvery?: number;
}

export interface PagerResult {
  records: unknown[];
  /** Records whose line is not a JSON object, within the page. */
  badLines: number;
  total: number | null;
  nextOffset: number | null;
}

export function parseRecordLine(line: Buffer, truncated = false): unknown {
  let text = line.toString('utf8');
  if (text.endsWith('\r')) text = text.slice(0, -1);
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v;
  } catch {
    /* not JSON: returned raw */
  }
  const nul = text.indexOf('\0');
  return truncated ? { _raw: text, _truncated: true } : { _raw: nul >= 0 ? text.slice(0, nul) : text };
}

export class RecordPager {
  private index: number;
  private byte: number;
  /** End of the page (exclusive); lowered when the page is full (MAX_PAGE_BYTES). */
  private end: number;
  private pageBytes = 0;
  private readonly countTotal: boolean;
  private readonly every: number;
  private readonly onCheckpoint?: (record: number, byte: number) => void;
  private readonly out: unknown[] = [];
  private bad = 0;
  private pend: Buffer[] = [];
  private pendLen = 0;
  private pendStart = -1;
  private done = false;
  private sawMore = false;

  constructor(
    private readonly offset: number,
    private readonly limit: number,
    opts: PagerOptions = {},
  ) {
    this.index = opts.startRecord ?? 0;
    this.byte = opts.startByte ?? 0;
    this.end = offset + limit;
    this.countTotal = opts.countTotal ?? true;
    this.every = opts.checkpointEvery ?? 1000;
    this.onCheckpoint = opts.onCheckpoint;
  }

  /** True once nothing more is needed (the caller may stop reading). */
  get finished(): boolean {
    return this.done;
  }

  private inPage(i: number): boolean {
    return i >= this.offset && i < this.end;
  }

  private record(lineStart: number, line: Buffer | null, truncated: boolean): void {
    const i = this.index;
    if (this.onCheckpoint && i % this.every === 0) this.onCheckpoint(i, lineStart);
    if (this.inPage(i) && line && i > this.offset && this.pageBytes + line.length > MAX_PAGE_BYTES) {
      // The page is full: it ends before this record, which starts the next page.
      this.end = i;
    }
    if (this.inPage(i) && line) {
      this.pageBytes += line.length;
      const r = parseRecordLine(line, truncated);
      if ((r as { _raw?: unknown })._raw !== undefined) this.bad++;
      this.out.push(r);
    } else if (i >= this.end) {
      this.sawMore = true;
      if (!this.countTotal) this.done = true;
    }
    this.index++;
  }

  push(buf: Buffer): void {
    if (this.done) return;
    let pos = 0;
    const base = this.byte;
    for (;;) {
      const nl = buf.indexOf(10, pos);
      if (nl < 0) break;
      if (this.pendLen > 0) {
        const keep = this.inPage(this.index);
        let line: Buffer | null = null;
        let truncated = false;
        if (keep) {
          this.pend.push(buf.subarray(pos, nl));
          line = Buffer.concat(this.pend);
          truncated = this.pendLen + (nl - pos) > line.length;
        }
        this.record(this.pendStart, line, truncated);
        this.pend = [];
        this.pendLen = 0;
      } else if (nl > pos) {
        const keep = this.inPage(this.index);
        const len = Math.min(nl - pos, MAX_LINE);
        this.record(base + pos, keep ? buf.subarray(pos, pos + len) : null, keep && len < nl - pos);
      }
      pos = nl + 1;
      if (this.done) return;
    }
    if (pos < buf.length) {
      if (this.pendLen === 0) this.pendStart = base + pos;
      const room = MAX_LINE - this.pend.reduce((a, b) => a + b.length, 0);
      // Keep the bytes of a pending line only while it may be in the page or may turn out to be text.
      if (room > 0) this.pend.push(Buffer.from(buf.subarray(pos, pos + Math.min(room, buf.length - pos))));
      this.pendLen += buf.length - pos;
    }
    this.byte = base + buf.length;
  }

  finish(): PagerResult {
    if (!this.done && this.pendLen > 0) {
      const line = Buffer.concat(this.pend);
      if (hasText(line)) this.record(this.pendStart, line, this.pendLen > line.length);
    }
    this.pend = [];
    const total = this.done ? null : this.index;
    const more = this.sawMore || (total !== null && total > this.end);
    return { records: this.out, badLines: this.bad, total, nextOffset: more ? this.end : null };
  }
}
