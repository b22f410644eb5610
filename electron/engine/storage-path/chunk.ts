/**
 * One engine chunk (`storage.path`): the chunkio header (the same decoder as store_dir chunks), the
 * CRC, the metadata (`F1 77 <event type> 00 <tag>`), the events, and what a Fluent Bit start does
 * with it — measured with the real binaries (docs/storage-path.md):
 * - storage.checksum on: a CRC that does not match (stale after SIGKILL, or absent) → rejected,
 *   `[storage] format check failed`, the file stays on disk and its records are never delivered;
 * - storage.checksum off: the CRC is not checked; a header that fails chunkio's format check
 *   (truncated, bad magic, too short) is rejected either way.
 */
import type { Draft, EngineChunkInfo, EngineCrc, EngineEventType } from '../../../shared/model';
import { crc32, crcHex, decodeChunkHeader, encodeChunk, HEADER_SIZE } from '../chunk';
import { readEvents } from './events';

const EVENT_TYPES: EngineEventType[] = ['logs', 'metrics', 'traces', 'profiles', 'blobs'];
const HEADER_REJECTS = new Set(['too-short', 'bad-magic', 'truncated']);

export interface EngineMeta {
  tag: string;
  eventType: EngineEventType | null;
}

/** Engine metadata: `F1 77 <type> <flags>` then the tag (Fluent Bit 1.8+); older chunks hold the bare tag. */
export function parseEngineMeta(meta: Uint8Array): EngineMeta {
  if (meta.length >= 4 && meta[0] === 0xf1 && meta[1] === 0x77)
    return { tag: Buffer.from(meta.subarray(4)).toString('utf8'), eventType: EVENT_TYPES[meta[2]] ?? 'unknown' };
  return { tag: Buffer.from(meta).toString('utf8'), eventType: null };
}

function iso(sec: number | null): string | null {
  if (sec === null || !Number.isFinite(sec) || sec < 0 || sec > 253402300799) return null;
  return new Date(Math.round(sec * 1000)).toISOString();
}

export interface AnalyzedChunk {
  info: EngineChunkInfo;
  /** The bytes of a valid chunk to write in its place (CRC recomputed, torn tail cut); null when nothing to salvage. */
  salvage: Buffer | null;
}

/** Analyze the whole file `buf` of `stream/name`. Never throws. */
export function analyzeEngineChunk(stream: string, name: string, buf: Buffer, mtime: Date | null): AnalyzedChunk {
  const h = decodeChunkHeader(buf, buf.length);
  const info: Draft<EngineChunkInfo> = {
    path: `${stream}/${name}`,
    stream,
    name,
    fileSize: buf.length,
    mtime: mtime ? mtime.toISOString() : null,
    headerStatus: h.status === 'crc-mismatch' ? 'ok' : h.status,
    headerMessage: h.message,
    crc: 'absent',
    tag: null,
    eventType: null,
    format: 'none',
    records: 0,
    tornBytes: 0,
    badAt: null,
    firstTime: null,
    lastTime: null,
    fateChecksumOn: 'unknown',
    fateChecksumOff: 'unknown',
    fateText: '',
    salvageable: false,
  };
  if (h.metaLength === null || HEADER_REJECTS.has(h.status) || h.contentStart === null) {
    info.fateChecksumOn = info.fateChecksumOff = h.status === 'zero-byte' ? 'unknown' : 'reject';
    info.fateText = h.status === 'zero-byte' ? 'Empty file: no chunk header and no records.' : `${h.message}`;
    return { info, salvage: null };
  }
  const metaEnd = Math.min(buf.length, HEADER_SIZE + h.metaLength);
  const meta = parseEngineMeta(buf.subarray(HEADER_SIZE, metaEnd));
  info.tag = meta.tag;
  info.eventType = meta.eventType;
  const end = h.logicalEnd ?? buf.length;
  const field = buf.readUInt32BE(2);
  const computed = crc32(buf.subarray(22, end));
  const pad = buf[6] | buf[7] | buf[8] | buf[9];
  info.crc = field === 0 && pad === 0 ? 'absent' : field === computed && pad === 0 ? 'valid' : 'invalid';
  const ev = readEvents(buf.subarray(h.contentStart, end), meta.eventType);
  info.format = ev.format;
  info.records = ev.records;
  info.tornBytes = ev.tornBytes;
  info.badAt = ev.badAt;
  info.firstTime = iso(ev.firstSec);
  info.lastTime = iso(ev.lastSec);
  info.fateChecksumOff = 'load';
  info.fateChecksumOn = info.crc === 'valid' ? 'load' : 'reject';
  const crcWord: Record<EngineCrc, string> = {
    valid: `CRC ${crcHex(computed)} valid`,
    invalid: `CRC field ${crcHex(field)} is not the CRC-32 ${crcHex(computed)} of its bytes (stale after a crash, or damaged)`,
    absent: 'no CRC (written with storage.checksum off)',
  };
  const torn = ev.tornBytes ? `; the last ${ev.tornBytes} byte(s) are not a complete event (torn last record)` : '';
  info.fateText =
    info.fateChecksumOn === 'reject'
      ? `${crcWord[info.crc]}: with storage.checksum on, Fluent Bit rejects it ("format check failed") and its ${ev.records} record(s) are never delivered; with it off, they load${torn}.`
      : `${crcWord[info.crc]}: loads at the next start (${ev.records} record(s))${torn}.`;
  const needsSalvage = info.crc !== 'valid' || ev.tornBytes > 0; // measured: a zero CRC is rejected with checksum on too
  if (needsSalvage) {
    const content = buf.subarray(h.contentStart, h.contentStart + ev.cleanEnd);
    info.salvageable = true;
    // A legacy header (content length 0: Fluent Bit < 2.1.10, chunkio < 1.5) is read by its writer
    // as "content up to the end of the file", and its CRC covers that: cut the file at the logical end.
    const page = h.contentLengthField !== 0 && buf.length % 4096 === 0 ? 4096 : null;
    return { info, salvage: encodeChunk({ meta: buf.subarray(HEADER_SIZE, metaEnd), content, crc: true, pageSize: page }) };
  }
  return { info, salvage: null };
}
