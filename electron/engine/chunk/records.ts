/**
 * JSON-lines record counting for data chunk content (docs/fluent-bit-store-format.md#chunk-header), streaming: feed the content in
 * pieces of any size, memory stays bounded. Counts non-empty lines with Buffer.indexOf and parses
 * only the first and last line for their `date` key. A final line without `\n` counts when it
 * holds something besides NUL padding and whitespace (legacy chunks include their padding).
 */

/** Longest prefix of a line kept for time parsing. */
const LINE_CAP = 64 * 1024;

export interface RecordCount {
  records: number;
  /** Time of the `date` key of the first / last line, ISO-8601 UTC; null when absent. */
  firstRecordTime: string | null;
  lastRecordTime: string | null;
}

function appendCapped(a: Buffer, b: Buffer): Buffer {
  if (a.length >= LINE_CAP) return a;
  const take = b.subarray(0, LINE_CAP - a.length);
  return Buffer.concat([a, take]);
}

/** True when the bytes hold something other than NUL, space, TAB, CR or LF. */
export function hasText(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c !== 0 && c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return true;
  }
  return false;
}

export class RecordCounter {
  private records = 0;
  private first: Buffer | null = null;
  private last: Buffer | null = null;
  /** Copy (capped) of the current unterminated line, and its full length. */
  private pend: Buffer | null = null;
  private pendLen = 0;

  push(buf: Buffer): void {
    let pos = 0;
    let lastS = -1;
    let lastE = -1;
    const n = buf.length;
    for (;;) {
      const nl = buf.indexOf(10, pos);
      if (nl < 0) break;
      if (this.pendLen > 0) {
        const line = appendCapped(this.pend as Buffer, buf.subarray(pos, nl));
        this.records++;
        if (!this.first) this.first = line;
        this.last = line;
        this.pend = null;
        this.pendLen = 0;
        lastS = -1;
      } else if (nl > pos) {
        this.records++;
        if (!this.first) this.first = Buffer.from(buf.subarray(pos, Math.min(nl, pos + LINE_CAP)));
        lastS = pos;
        lastE = nl;
      }
      pos = nl + 1;
    }
    if (lastS >= 0) this.last = Buffer.from(buf.subarray(lastS, Math.min(lastE, lastS + LINE_CAP)));
    if (pos < n) {
      const tail = buf.subarray(pos, n);
      this.pend = this.pendLen > 0 ? appendCapped(this.pend as Buffer, tail) : Buffer.from(tail.subarray(0, LINE_CAP));
      this.pendLen += n - pos;
    }
  }

  finish(): RecordCount {
    if (this.pendLen > 0 && this.pend && hasText(this.pend)) {
      this.records++;
      if (!this.first) this.first = this.pend;
      this.last = this.pend;
    }
    this.pend = null;
    this.pendLen = 0;
    return {
      records: this.records,
      firstRecordTime: this.first ? recordTime(this.first) : null,
      lastRecordTime: this.last ? recordTime(this.last) : null,
    };
  }
}

/** Count the records of a whole content buffer. */
export function countRecords(content: Buffer): RecordCount {
  const c = new RecordCounter();
  c.push(content);
  return c.finish();
}

const DATE_RE = /"date"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/;

/** The time in the `date` key of one JSON line, as ISO-8601 UTC; null when there is none. */
export function recordTime(line: Uint8Array): string | null {
  let text = Buffer.from(line.buffer, line.byteOffset, line.length).toString('utf8');
  const nul = text.indexOf('\0');
  if (nul >= 0) text = text.slice(0, nul);
  text = text.trim();
  let value: unknown;
  try {
    const obj: unknown = JSON.parse(text);
    if (obj && typeof obj === 'object' && !Array.isArray(obj)) value = (obj as Record<string, unknown>).date;
  } catch {
    const m = DATE_RE.exec(text);
    if (m) {
      try {
        value = JSON.parse(m[1]);
      } catch {
        value = undefined;
      }
    }
  }
  return dateValueToIso(value);
}

const ISO_RE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Convert a `date` value (float epoch seconds, epoch ms, or a date string) to ISO-8601 UTC. */
export function dateValueToIso(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return epochToIso(Math.abs(value) >= 1e12 ? value / 1000 : value);
  if (typeof value !== 'string' || value.length === 0) return null;
  const m = ISO_RE.exec(value.trim());
  if (m && (m[4] === undefined || m[4] === 'Z')) {
    // Fluent Bit formats with gmtime: a zone-less value is UTC. Keep the fraction digits exactly.
    const check = Date.parse(`${m[1]}T${m[2]}Z`);
    if (Number.isNaN(check)) return null;
    return [m[1], 'T', m[2], m[3] ?? '', 'Z'].join(''); // one flat string (kept per chunk in reports)
  }
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** Epoch seconds (with fraction) to ISO-8601 with microseconds, without float noise. */
export function epochToIso(seconds: number): string | null {
  if (!Number.isFinite(seconds) || Math.abs(seconds) > 8.64e12) return null;
  if (seconds < 0) return new Date(Math.round(seconds * 1000)).toISOString();
  const fixed = seconds.toFixed(6);
  const [intPart, frac] = fixed.split('.');
  const whole = new Date(Number(intPart) * 1000).toISOString();
  return [whole.slice(0, 19), '.', frac, 'Z'].join(''); // one flat string, not a rope of slices
}
