/**
 * The events of an engine chunk's content (msgpack, decoded with @msgpack/msgpack): how many are
 * complete, where the last complete one ends (a torn tail is cut there), the event format
 * (`[ts, record]` or `[[ts, metadata], record]`) and the first and last event time.
 */
import { decode, ExtensionCodec } from '@msgpack/msgpack';
import type { EngineEventType, EventFormat } from '../../../shared/model';
import { skipObject } from './msgpack-walk';

/** Fluent Bit's EventTime: msgpack ext type 0, 8 bytes (uint32 BE seconds, uint32 BE nanoseconds). */
export const eventCodec = new ExtensionCodec();
const codec = eventCodec;
codec.register({
  type: 0,
  encode: () => null,
  decode: (d: Uint8Array) =>
    d.length === 8 ? new DataView(d.buffer, d.byteOffset, 8).getUint32(0) + new DataView(d.buffer, d.byteOffset, 8).getUint32(4) / 1e9 : NaN,
});

export interface ContentEvents {
  records: number;
  /** Offset (in the content) just after the last complete event. */
  cleanEnd: number;
  /** Bytes after `cleanEnd` that are not a complete event (torn tail or damage). */
  tornBytes: number;
  /** Offset of a byte no event can start with, or of an object that is not an event; null if none. */
  badAt: number | null;
  format: EventFormat;
  firstSec: number | null;
  lastSec: number | null;
}

function timeOf(v: unknown): { sec: number | null; v2: boolean } | null {
  if (!Array.isArray(v) || v.length !== 2) return null;
  const [head, body] = v as [unknown, unknown];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  if (Array.isArray(head)) {
    if (head.length !== 2 || typeof head[0] !== 'number') return null;
    return { sec: head[0], v2: true };
  }
  if (typeof head !== 'number') return null;
  return { sec: head, v2: false };
}

/** Walk `content`; logs chunks are checked event by event, metrics/traces chunks count objects. */
export function readEvents(content: Uint8Array, type: EngineEventType | null): ContentEvents {
  const out: ContentEvents = { records: 0, cleanEnd: 0, tornBytes: 0, badAt: null, format: 'none', firstSec: null, lastSec: null };
  let v1 = false;
  let v2 = false;
  let pos = 0;
  while (pos < content.length) {
    const end = skipObject(content, pos);
    if (end === -1) break; // torn: the content ends inside this object
    if (end === -2) {
      out.badAt = pos;
      break;
    }
    if (type === 'logs' || type === null) {
      let t: ReturnType<typeof timeOf> = null;
      try {
        t = timeOf(decode(content.subarray(pos, end), { extensionCodec: codec }));
      } catch {
        t = null;
      }
      if (!t) {
        out.badAt = pos;
        break;
      }
      if (t.v2) v2 = true;
      else v1 = true;
      if (t.sec !== null && Number.isFinite(t.sec)) {
        out.firstSec ??= t.sec;
        out.lastSec = t.sec;
      }
    }
    out.records++;
    pos = end;
  }
  out.cleanEnd = pos;
  out.tornBytes = content.length - pos;
  // A legacy header (content length 0, chunkio < 1.5) makes Fluent Bit count the zero page padding
  // as content: zeros after the last event are padding, not a torn record.
  if (out.tornBytes && isZero(content, pos)) {
    out.tornBytes = 0;
    out.badAt = null;
  }
  out.format = v1 && v2 ? 'mixed' : v2 ? 'v2' : v1 ? 'v1' : 'none';
  return out;
}

function isZero(b: Uint8Array, from: number): boolean {
  for (let i = from; i < b.length; i++) if (b[i] !== 0) return false;
  return true;
}
