/**
 * Reads a store the way a person with a hex dump would, independently of the engine's scanner:
 * the chunk header fields as stored (content-length field, meta length, CRC), the file size, what
 * follows the logical content (zero padding), the JSON lines, the seq_index files. Used to derive
 * the facts of `expected.json` and the suite's record counts, so they are evidence against the
 * engine, not a copy of it.
 */
import { lstatSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { parseJsonLines, type JsonLines } from './records';

export interface ChunkFacts {
  /** Relative to the root: `<stream>/<file>`. */
  path: string;
  stream: string;
  fileSize: number;
  mode: string;
  magicOk: boolean;
  crcField: string;
  /** uint32 BE at offset 10, as stored. */
  contentLengthField: number;
  metaLength: number;
  meta: string;
  /**
   * The content Fluent Bit will read: `contentLengthField` bytes, or — when the field is 0 and the
   * first content byte is not NUL — everything to the end of the file (chunkio's legacy rule).
   */
  contentBytes: number;
  legacyLength: boolean;
  /** Bytes after the logical end (24 + meta + content) up to the file size. */
  slackBytes: number;
  /** NUL bytes inside `contentBytes` (non-zero only for legacy-length files with padding). */
  nulInContent: number;
  /** File size is a multiple of 4096. */
  pagePadded: boolean;
  /** JSON lines of data chunks; parts of multipart records. */
  lines: JsonLines | null;
  multipartParts: { partNumber: number; etag: string }[] | null;
}

export interface StoreFacts {
  root: string;
  bucket: string;
  streams: { name: string; files: number }[];
  chunks: ChunkFacts[];
  seqIndex: { file: string; raw: string; size: number; mode: string }[];
  sequenceEntries: string[];
  quarantinePresent: boolean;
  dotEntries: string[];
}

const RESERVED = new Set(['multipart_upload_metadata', 'quarantine', 'sequence']);

function mode(p: string): string {
  return (lstatSync(p).mode & 0o777).toString(8).padStart(4, '0');
}

export function readChunk(file: string, rel: string, stream: string): ChunkFacts {
  const buf = readFileSync(file);
  const fileSize = buf.length;
  const base = { path: rel, stream, fileSize, mode: mode(file), pagePadded: fileSize > 0 && fileSize % 4096 === 0 };
  if (fileSize < 24)
    return {
      ...base,
      magicOk: false,
      crcField: '',
      contentLengthField: 0,
      metaLength: 0,
      meta: '',
      contentBytes: 0,
      legacyLength: false,
      slackBytes: 0,
      nulInContent: 0,
      lines: null,
      multipartParts: null,
    };
  const magicOk = buf[0] === 0xc1 && buf[1] === 0x00;
  const crcField = buf.subarray(2, 6).toString('hex');
  const lenField = buf.readUInt32BE(10);
  const metaLength = buf.readUInt16BE(22);
  const meta = buf.subarray(24, 24 + metaLength).toString('utf8');
  const start = 24 + metaLength;
  let len = lenField;
  let legacy = false;
  if (lenField === 0 && fileSize > start && buf[start] !== 0) {
    len = fileSize - start;
    legacy = true;
  }
  const content = buf.subarray(start, Math.min(fileSize, start + len));
  let nul = 0;
  for (const b of content) if (b === 0) nul++;
  const isMultipart = stream === 'multipart_upload_metadata';
  return {
    ...base,
    magicOk,
    crcField,
    contentLengthField: lenField,
    metaLength,
    meta,
    contentBytes: content.length,
    legacyLength: legacy,
    slackBytes: Math.max(0, fileSize - start - len),
    nulInContent: nul,
    lines: isMultipart || stream === 'sequence' ? null : parseJsonLines(content),
    multipartParts: isMultipart ? parseParts(content.toString('latin1')) : null,
  };
}

/** `part_number=N\tetag=E` lines, as Fluent Bit's parse_etags reads them (stops at a bad line). */
export function parseParts(text: string): { partNumber: number; etag: string }[] {
  const parts: { partNumber: number; etag: string }[] = [];
  for (const l of text.replace(/\0+$/, '').split('\n')) {
    if (!l) continue;
    const m = /^part_number=(\d+)\tetag=(.*)$/.exec(l);
    if (!m) break;
    parts.push({ partNumber: Number(m[1]), etag: m[2] });
  }
  return parts;
}

/** Facts of `<storeDir>/<bucket>` (the root). A missing root gives an empty store. */
export function readStore(root: string): StoreFacts {
  const facts: StoreFacts = {
    root,
    bucket: path.basename(root),
    streams: [],
    chunks: [],
    seqIndex: [],
    sequenceEntries: [],
    quarantinePresent: false,
    dotEntries: [],
  };
  if (!existsSync(root)) return facts;
  for (const name of readdirSync(root).sort()) {
    const p = path.join(root, name);
    if (name.startsWith('.')) {
      facts.dotEntries.push(name);
      continue;
    }
    if (!lstatSync(p).isDirectory()) continue;
    if (name === 'quarantine') facts.quarantinePresent = true;
    const files = readdirSync(p)
      .sort()
      .filter((f) => !f.startsWith('.') && lstatSync(path.join(p, f)).isFile());
    facts.streams.push({ name, files: files.length });
    if (name === 'sequence') facts.sequenceEntries = readdirSync(p).sort();
    for (const f of files) facts.chunks.push(readChunk(path.join(p, f), `${name}/${f}`, name));
    if (name === 'sequence') {
      const im = path.join(p, 'index_metadata');
      if (existsSync(im))
        for (const f of readdirSync(im).sort()) {
          const fp = path.join(im, f);
          const raw = readFileSync(fp, 'latin1');
          facts.seqIndex.push({ file: `sequence/index_metadata/${f}`, raw, size: raw.length, mode: mode(fp) });
        }
    }
  }
  return facts;
}

/** Data chunks (old and active streams and quarantine: everything Fluent Bit or replay may upload). */
export function dataChunks(s: StoreFacts): ChunkFacts[] {
  return s.chunks.filter((c) => c.stream === 'quarantine' || !RESERVED.has(c.stream));
}

export function seqIndexValue(s: StoreFacts, outputId = 0): number | null {
  const f = s.seqIndex.find((x) => x.file.endsWith(`seq_index_${outputId}`));
  return f && /^\d+/.test(f.raw) ? Number(/^\d+/.exec(f.raw)![0]) : null;
}
