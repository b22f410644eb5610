/**
 * Read one page of records from a chunk file without loading the chunk: the content is streamed
 * through {@link RecordPager}. For random-access sources, record checkpoints (every 1000 records)
 * are cached per source id, so later pages start reading near their offset.
 */
import { decodeChunkHeader, MAX_HEAD_NEEDED, type ChunkHeader } from './header';
import { RecordPager, type PagerResult } from './pager';

export interface ByteSource {
  /** Size of the whole file. */
  fileSize: number;
  /** Identity for the checkpoint cache (e.g. path + size + mtime); omit to disable caching. */
  id?: string;
  /** Random access: up to `length` bytes at `position` (fewer only at the end of the file). */
  read?(position: number, length: number): Promise<Buffer>;
  /** Sequential: the file from byte 0 (archives). Used when `read` is absent. */
  stream?(): AsyncIterable<Buffer>;
}

const BLOCK = 1024 * 1024;
const EVERY = 1000;
const CACHE_MAX = 64;
const checkpoints = new Map<string, Map<number, number>>();

function cacheFor(id: string | undefined): Map<number, number> | null {
  if (!id) return null;
  let m = checkpoints.get(id);
  if (m) {
    checkpoints.delete(id);
  } else {
    m = new Map();
    if (checkpoints.size >= CACHE_MAX) checkpoints.delete(checkpoints.keys().next().value as string);
  }
  checkpoints.set(id, m);
  return m;
}

export interface RecordPageResult extends PagerResult {
  header: ChunkHeader;
}

function usable(h: ChunkHeader): boolean {
  return h.contentStart !== null && h.logicalEnd !== null && h.status !== 'too-short' && h.status !== 'bad-magic';
}

/**
 * Records [offset, offset+limit) of a data chunk. Content of rejected files is read as far as it
 * exists (truncated) or not at all (bad magic, too short). `countTotal` (default true) reads on to
 * the end to report the total.
 */
export async function readRecordPage(
  src: ByteSource,
  offset: number,
  limit: number,
  opts: { countTotal?: boolean; signal?: AbortSignal } = {},
): Promise<RecordPageResult> {
  const cache = cacheFor(src.id);
  if (src.read) {
    const head = await src.read(0, Math.min(src.fileSize, MAX_HEAD_NEEDED));
    const h = decodeChunkHeader(head, src.fileSize);
    if (!usable(h)) return { header: h, records: [], badLines: 0, total: h.status === 'zero-byte' ? 0 : null, nextOffset: null };
    const cStart = h.contentStart as number;
    const cEnd = Math.min(h.logicalEnd as number, src.fileSize);
    let startRecord = 0;
    let startByte = 0;
    if (cache) {
      for (const [rec, byte] of cache) if (rec <= offset && rec > startRecord) [startRecord, startByte] = [rec, byte];
    }
    const pager = new RecordPager(offset, limit, {
      startRecord,
      startByte,
      countTotal: opts.countTotal,
      onCheckpoint: cache ? (r, b) => cache.set(r, b) : undefined,
      checkpointEvery: EVERY,
    });
    for (let p = cStart + startByte; p < cEnd && !pager.finished;) {
      opts.signal?.throwIfAborted();
      const buf = await src.read(p, Math.min(BLOCK, cEnd - p));
      if (buf.length === 0) break;
      pager.push(buf);
      p += buf.length;
    }
    return { header: h, ...pager.finish() };
  }
  if (!src.stream) throw new TypeError('ByteSource needs read() or stream()');
  // Sequential source: collect the head, then feed the content.
  let head = Buffer.alloc(0);
  let h: ChunkHeader | null = null;
  let pos = 0;
  const pager = new RecordPager(offset, limit, { countTotal: opts.countTotal });
  for await (const piece of src.stream()) {
    opts.signal?.throwIfAborted();
    const start = pos;
    pos += piece.length;
    if (!h) {
      head = Buffer.concat([head, piece]);
      const d = decodeChunkHeader(head, src.fileSize);
      if (d.needBytes !== null && head.length < Math.min(d.needBytes, src.fileSize)) continue;
      h = d;
      if (!usable(h)) break;
      feed(pager, h, head, 0, src.fileSize);
      continue;
    }
    if (!usable(h) || pager.finished) continue;
    feed(pager, h, piece, start, src.fileSize);
  }
  if (!h) h = decodeChunkHeader(head, head.length);
  if (!usable(h)) return { header: h, records: [], badLines: 0, total: h.status === 'zero-byte' ? 0 : null, nextOffset: null };
  return { header: h, ...pager.finish() };
}

function feed(pager: RecordPager, h: ChunkHeader, buf: Buffer, start: number, fileSize: number): void {
  const a = Math.max(h.contentStart as number, start);
  const b = Math.min(h.logicalEnd as number, fileSize, start + buf.length);
  if (b > a) pager.push(buf.subarray(a - start, b - start));
}
