/**
 * `multipart_upload_metadata` records (docs/fluent-bit-store-format.md#multipart-records item 7), parsed the way
 * `multipart_read_uploads_from_fs()` / `parse_etags()` read them, including where they stop.
 */
import type { MultipartPart, MultipartRecord } from '../../../shared/model';

const MAX_PARTS = 10000;

/** C `atoi`: skip whitespace, optional sign, digits; 0 when there are none. Clamped to int range. */
function atoi(s: string): number {
  const m = /^[ \t\n\v\f\r]*([+-]?)(\d+)/.exec(s);
  if (!m) return 0;
  const n = Number(m[2].length > 12 ? '999999999999' : m[2]);
  const v = m[1] === '-' ? -n : n;
  return Math.max(-2147483648, Math.min(2147483647, v));
}

function text(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8');
}

/** Parse a multipart record from its metadata and (resolved) content bytes. Never throws. */
export function parseMultipartRecord(meta: Uint8Array, content: Uint8Array): MultipartRecord {
  const problems: string[] = [];
  const nl = meta.indexOf(0x0a);
  let key: string;
  let uploadId: string;
  if (nl < 0) {
    key = text(meta);
    uploadId = '';
    problems.push('Metadata has no newline between key and upload id: Fluent Bit skips this record at start and leaves it on disk.');
  } else {
    key = text(meta.subarray(0, nl));
    uploadId = text(meta.subarray(nl + 1));
  }
  const s3Key = key.startsWith('/') ? key.slice(1) : key;

  // Fluent Bit works on a C string: the content ends at the first NUL byte.
  const nul = content.indexOf(0);
  const body = text(nul >= 0 ? content.subarray(0, nul) : content);
  const lines = body.split('\n');
  const parts: MultipartPart[] = [];
  const etags = new Map<number, string>();
  let last: number | null = null;
  let stoppedAt: MultipartRecord['stoppedAt'] = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length === 0) continue; // strtok skips empty tokens
    const stop = (reason: string) => {
      stoppedAt = { line: i + 1, text: line, reason };
    };
    const p = line.indexOf('part_number=');
    if (p < 0) {
      stop('line has no "part_number=": Fluent Bit stops parsing here and ignores every later line');
      break;
    }
    const numStart = p + 'part_number='.length;
    const tab = line.indexOf('\t', numStart);
    if (tab < 0) {
      stop('no TAB after the part number: Fluent Bit stops parsing here and ignores every later line');
      break;
    }
    const n = atoi(line.slice(numStart, tab));
    if (n <= 0) {
      stop(`part number ${JSON.stringify(line.slice(numStart, tab))} is not above 0: Fluent Bit stops parsing here and ignores every later line`);
      break;
    }
    const t = line.indexOf('tag=', tab + 1);
    if (t < 0) {
      stop('no "etag=" after the TAB: Fluent Bit cannot read an ETag from this line');
      break;
    }
    const etag = line.slice(t + 4);
    if (n > MAX_PARTS) problems.push(`Part number ${n} on line ${i + 1} is above 10000 and overflows Fluent Bit's ETag table.`);
    parts.push({ partNumber: n, etag });
    etags.set(n, etag);
    last = n;
  }
  if (parts.length === 0) problems.push('No part line could be parsed: Fluent Bit skips this record at start and it stays on disk forever.');
  const completeParts: MultipartPart[] = [];
  if (last !== null) {
    const upTo = Math.min(last, MAX_PARTS);
    for (const n of [...etags.keys()].sort((a, b) => a - b)) {
      if (n <= upTo) completeParts.push({ partNumber: n, etag: etags.get(n) as string });
    }
  }
  return { key, s3Key, uploadId, parts, lastPartNumber: last, completeParts, stoppedAt, problems };
}
