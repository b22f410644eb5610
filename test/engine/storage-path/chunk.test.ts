/**
 * Engine chunks (storage.path): the header, CRC, metadata and msgpack events of generated chunks
 * in the layouts the real binaries write (measured in test/fixtures/storage-path/measurements.json).
 */
import { encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { crc32, encodeChunk } from '../../../electron/engine/chunk';
import { analyzeEngineChunk, parseEngineMeta, readEvents, skipObject } from '../../../electron/engine/storage-path';

const eventTime = (sec: number, nsec = 0) => {
  const b = Buffer.alloc(10);
  b[0] = 0xd7; // fixext 8
  b[1] = 0x00; // type 0: Fluent Bit EventTime
  b.writeUInt32BE(sec, 2);
  b.writeUInt32BE(nsec, 6);
  return b;
};

/** `[[EventTime, {}], record]` (Fluent Bit 2.1+) or `[EventTime, record]` (older). */
function event(sec: number, record: Record<string, unknown>, v2 = true): Buffer {
  const body = Buffer.from(encode(record));
  if (v2) return Buffer.concat([Buffer.from([0x92, 0x92]), eventTime(sec), Buffer.from([0x80]), body]);
  return Buffer.concat([Buffer.from([0x92]), eventTime(sec), body]);
}

const meta = (tag: string, type = 0) => Buffer.concat([Buffer.from([0xf1, 0x77, type, 0]), Buffer.from(tag)]);

describe('skipObject', () => {
  it('finds the end of every msgpack object and -1 inside a torn one', () => {
    const values = [0, -1, 300, 70000, 2 ** 40, 1.5, 'x'.repeat(40), 'y'.repeat(300), [1, [2, 3]], { a: { b: [1] } }, null, true, new Uint8Array(300)];
    for (const v of values) {
      const b = encode(v);
      expect(skipObject(b, 0)).toBe(b.length);
      for (let cut = 0; cut < b.length; cut++) expect(skipObject(b.subarray(0, cut), 0)).toBe(-1);
    }
    expect(skipObject(Uint8Array.from([0xc1]), 0)).toBe(-2);
    // A container claiming more elements than bytes left is torn, not a long walk.
    expect(skipObject(Uint8Array.from([0xdd, 0xff, 0xff, 0xff, 0xff, 1]), 0)).toBe(-1);
  });
});

describe('readEvents', () => {
  it('counts [[ts, meta], record] and [ts, record] events, first and last time', () => {
    const v2 = Buffer.concat([event(1700000000, { a: 1 }), event(1700000005, { a: 2 })]);
    expect(readEvents(v2, 'logs')).toMatchObject({ records: 2, tornBytes: 0, format: 'v2', firstSec: 1700000000, lastSec: 1700000005, badAt: null });
    const v1 = Buffer.concat([event(1600000000, { a: 1 }, false), event(1600000001, { b: 'x' }, false)]);
    expect(readEvents(v1, 'logs')).toMatchObject({ records: 2, format: 'v1', firstSec: 1600000000 });
    // integer and float timestamps (older inputs)
    expect(readEvents(Buffer.from(encode([1600000002, { c: 1 }])), 'logs')).toMatchObject({ records: 1, firstSec: 1600000002 });
  });

  it('cuts a torn last event exactly and treats trailing zero padding as padding', () => {
    const full = Buffer.concat([event(1700000000, { a: 1 }), event(1700000001, { msg: 'hello world' })]);
    const first = event(1700000000, { a: 1 }).length;
    const torn = full.subarray(0, full.length - 5);
    expect(readEvents(torn, 'logs')).toMatchObject({ records: 1, cleanEnd: first, tornBytes: torn.length - first });
    expect(readEvents(Buffer.concat([full, Buffer.alloc(100)]), 'logs')).toMatchObject({ records: 2, tornBytes: 0 });
  });
});

describe('analyzeEngineChunk', () => {
  const content = Buffer.concat([event(1700000000, { a: 1 }), event(1700000001, { a: 2 }), event(1700000002, { a: 3 })]);

  it('reads tag and type from the metadata; older chunks hold the bare tag', () => {
    expect(parseEngineMeta(meta('app.a'))).toEqual({ tag: 'app.a', eventType: 'logs' });
    expect(parseEngineMeta(meta('m', 1))).toEqual({ tag: 'm', eventType: 'metrics' });
    expect(parseEngineMeta(meta('t', 2)).eventType).toBe('traces');
    expect(parseEngineMeta(Buffer.from('plain.tag'))).toEqual({ tag: 'plain.tag', eventType: null });
  });

  it('valid CRC loads with checksum on and off; nothing to salvage', () => {
    const a = analyzeEngineChunk('dummy.0', '1-2.3.flb', encodeChunk({ meta: meta('app.a'), content, crc: true }), null);
    expect(a.info).toMatchObject({
      crc: 'valid',
      tag: 'app.a',
      eventType: 'logs',
      format: 'v2',
      records: 3,
      fateChecksumOn: 'load',
      fateChecksumOff: 'load',
      salvageable: false,
    });
    expect(a.salvage).toBeNull();
  });

  it('a stale CRC (SIGKILL) is rejected with checksum on; the salvage keeps every record with a valid CRC', () => {
    const buf = encodeChunk({ meta: meta('app.a'), content, crc: true });
    buf.writeUInt32BE(0xdeadbeef, 2);
    const a = analyzeEngineChunk('dummy.0', 'x.flb', buf, null);
    expect(a.info).toMatchObject({ crc: 'invalid', fateChecksumOn: 'reject', fateChecksumOff: 'load', records: 3, salvageable: true });
    const s = analyzeEngineChunk('dummy.0', 'x.flb', a.salvage!, null).info;
    expect(s).toMatchObject({ crc: 'valid', records: 3, tornBytes: 0, tag: 'app.a' });
    expect(a.salvage!.readUInt32BE(2)).toBe(crc32(a.salvage!.subarray(22, 24 + 9 + content.length)));
    expect(a.salvage!.length).toBe(buf.length);
  });

  it('a zero CRC field (written with checksum off) is rejected with checksum on', () => {
    const a = analyzeEngineChunk('dummy.0', 'x.flb', encodeChunk({ meta: meta('app.a'), content }), null);
    expect(a.info).toMatchObject({ crc: 'absent', fateChecksumOn: 'reject', fateChecksumOff: 'load', salvageable: true });
  });

  it('a torn last record is cut and reported', () => {
    const torn = content.subarray(0, content.length - 4);
    const a = analyzeEngineChunk('tail.1', 'x.flb', encodeChunk({ meta: meta('app.b'), content: torn }), null);
    expect(a.info.records).toBe(2);
    expect(a.info.tornBytes).toBe(torn.length - 2 * event(1700000000, { a: 1 }).length);
    const s = analyzeEngineChunk('tail.1', 'x.flb', a.salvage!, null).info;
    expect(s).toMatchObject({ records: 2, tornBytes: 0, crc: 'valid' });
  });

  it('a truncated file is rejected either way and not salvaged', () => {
    const buf = encodeChunk({ meta: meta('app.a'), content, pageSize: null });
    const a = analyzeEngineChunk('dummy.0', 'x.flb', buf.subarray(0, buf.length - 3), null);
    expect(a.info).toMatchObject({ headerStatus: 'truncated', fateChecksumOn: 'reject', fateChecksumOff: 'reject', salvageable: false });
  });
});
