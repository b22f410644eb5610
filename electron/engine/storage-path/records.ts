/**
 * A page of the events of one storage.path chunk, decoded with @msgpack/msgpack for the app's
 * Inspector: `{ date, metadata?, record }` per event (`date` in seconds, Fluent Bit's EventTime;
 * `metadata` for `[[ts, metadata], record]` events when not empty), the whole object for metrics
 * and traces chunks. Bounded: the chunk is read by the one safe reader (no link followed, at most
 * MAX_ENGINE_CHUNK bytes), at most `limit` events decoded, the rest only walked to count them; a
 * torn or undecodable tail ends the page. Values JSON cannot carry are said as text.
 */
import * as path from 'node:path';
import { decode } from '@msgpack/msgpack';
import type { RecordPage } from '../../../shared/model';
import { decodeChunkHeader, HEADER_SIZE } from '../chunk';
import { parseEngineMeta } from './chunk';
import { eventCodec, readEvents } from './events';
import { skipObject } from './msgpack-walk';
import { readChunkBytes } from './scan';

/** Bytes, big integers and maps as JSON can carry them. */
function plain(v: unknown, depth = 0): unknown {
  if (depth > 64) return '(nested too deep)';
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return `<${v.length} bytes: ${Buffer.from(v.subarray(0, 64)).toString('hex')}${v.length > 64 ? '…' : ''}>`;
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  if (Array.isArray(v)) return v.map((x) => plain(x, depth + 1));
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x, depth + 1)]));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x, depth + 1)]));
  return v;
}

function asEvent(v: unknown, logs: boolean): unknown {
  if (!logs || !Array.isArray(v) || v.length !== 2) return plain(v);
  const [head, record] = v as [unknown, unknown];
  if (Array.isArray(head) && head.length === 2) {
    const meta = head[1];
    const hasMeta = meta && typeof meta === 'object' && Object.keys(meta).length > 0;
    return { date: plain(head[0]), ...(hasMeta ? { metadata: plain(meta) } : {}), record: plain(record) };
  }
  return { date: plain(head), record: plain(record) };
}

/** Events [offset, offset + limit) of `content` (complete events only); `total` counts them all. */
export function pageOfEvents(content: Uint8Array, logs: boolean, offset: number, limit: number): { records: unknown[]; total: number } {
  const records: unknown[] = [];
  let total = 0;
  let pos = 0;
  while (pos < content.length) {
    const end = skipObject(content, pos);
    if (end < 0) break;
    if (total >= offset && total < offset + limit) {
      try {
        records.push(asEvent(decode(content.subarray(pos, end), { extensionCodec: eventCodec }), logs));
      } catch (e) {
        records.push({ _undecodable: (e as Error).message });
      }
    }
    total++;
    pos = end;
  }
  return { records, total };
}

/** A page of the events of `<dir>/<stream>/<name>`. Throws a message naming the file when it cannot be read. */
export async function readEngineRecords(dir: string, stream: string, name: string, offset: number, limit: number): Promise<RecordPage> {
  const chunkPath = `${stream}/${name}`;
  const r = await readChunkBytes(path.join(dir, stream), stream, name);
  if (!r.bytes) throw new Error(`${chunkPath}: ${r.info.fateText}`);
  const h = decodeChunkHeader(r.bytes, r.bytes.length);
  if (h.contentStart === null || h.metaLength === null) throw new Error(`${chunkPath}: ${h.message}`);
  const meta = parseEngineMeta(r.bytes.subarray(HEADER_SIZE, Math.min(r.bytes.length, HEADER_SIZE + h.metaLength)));
  const content = r.bytes.subarray(h.contentStart, h.logicalEnd ?? r.bytes.length);
  const logs = meta.eventType === 'logs' || meta.eventType === null;
  // The complete events only (as the scan counts them): a torn tail, damage or legacy zero padding ends them.
  const { records, total } = pageOfEvents(content.subarray(0, readEvents(content, meta.eventType).cleanEnd), logs, offset, limit);
  return { chunkPath, offset, records, total, nextOffset: offset + records.length < total ? offset + records.length : null };
}
