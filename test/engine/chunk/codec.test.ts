import { describe, expect, it } from 'vitest';
import {
  ChunkScanner,
  countRecords,
  crc32,
  crc32Table,
  decodeChunkHeader,
  encodeChunk,
  epochToIso,
  MAX_HEAD_NEEDED,
  recordTime,
} from '../../../electron/engine/chunk';

/** Spec §2.2: a chunk with tag `my.tag` and two JSON lines, as chunkio wrote it. */
const SPEC_EXAMPLE = Buffer.alloc(4096);
Buffer.from(
  ['c1 00 00 00 00 00 00 00 00 00 00 00 00 10 00 00', '00 00 00 00 00 00 00 06 6d 79 2e 74 61 67 7b 22', '61 22 3a 31 7d 0a 7b 22 62 22 3a 32 7d 0a']
    .join(' ')
    .replace(/ /g, ''),
  'hex',
).copy(SPEC_EXAMPLE);

function analyse(b: Buffer, records = true) {
  const s = new ChunkScanner(b.length, { records });
  s.push(b);
  return s.finish();
}

describe('CRC-32', () => {
  it('matches the spec test vectors, natively and with the table', () => {
    for (const f of [crc32, crc32Table]) {
      expect(f(Buffer.from('123456789')).toString(16)).toBe('cbf43926');
      expect(f(Buffer.from([0, 0])).toString(16)).toBe('41d912ff');
      expect(f(Buffer.from('89'), f(Buffer.from('1234567')))).toBe(0xcbf43926);
    }
  });
});

describe('decodeChunkHeader', () => {
  it('decodes the verified example of docs/fluent-bit-store-format.md#chunk-header', () => {
    const h = decodeChunkHeader(SPEC_EXAMPLE, 4096);
    expect(h).toMatchObject({
      status: 'ok',
      crcField: '00000000',
      contentLengthField: 16,
      metaLength: 6,
      contentLength: 16,
      contentStart: 30,
      logicalEnd: 46,
      crcCheck: false,
    });
  });

  it('encodes the spec example byte for byte', () => {
    expect(encodeChunk({ meta: 'my.tag', content: '{"a":1}\n{"b":2}\n' }).equals(SPEC_EXAMPLE)).toBe(true);
    expect(encodeChunk({ meta: 'my.tag', content: '{"a":1}\n{"b":2}\n', pageSize: null })).toHaveLength(46);
  });

  it('infers the legacy length including padding when L is 0 (docs/fluent-bit-store-format.md#legacy-length example: tag "tag" → 4069)', () => {
    const b = encodeChunk({ meta: 'tag', content: '{"x":1}\n', contentLengthField: 0 });
    const h = decodeChunkHeader(b, b.length);
    expect(h.status).toBe('legacy-length');
    expect(h.contentLength).toBe(4069);
    expect(h.message).toMatch(/4069/);
  });

  it('keeps L = 0 when the first content byte is NUL or the file ends after the metadata', () => {
    expect(decodeChunkHeader(encodeChunk({ meta: 'tag', content: '' }), 4096)).toMatchObject({ status: 'ok', contentLength: 0 });
    const exact = encodeChunk({ meta: 'store-doctor-marker', content: '', pageSize: null });
    expect(exact).toHaveLength(43);
    expect(decodeChunkHeader(exact, 43)).toMatchObject({ status: 'ok', contentLength: 0, metaLength: 19 });
  });

  it('classifies zero-byte, too-short, bad magic and truncated files', () => {
    expect(decodeChunkHeader(Buffer.alloc(0), 0).status).toBe('zero-byte');
    expect(decodeChunkHeader(Buffer.alloc(5), 5).status).toBe('too-short');
    expect(decodeChunkHeader(Buffer.alloc(23), 23).status).toBe('too-short');
    const bad = Buffer.from(SPEC_EXAMPLE);
    bad[1] = 1;
    expect(decodeChunkHeader(bad, 4096)).toMatchObject({ status: 'bad-magic' });
    const full = encodeChunk({ meta: 'my.tag', content: '{"a":1}\n', pageSize: null });
    const h = decodeChunkHeader(full.subarray(0, full.length - 1), full.length - 1);
    expect(h.status).toBe('truncated');
    expect(h.message).toMatch(/truncated/i);
  });

  it('never trusts the file size: a length beyond it is truncated, slack is not content', () => {
    const b = encodeChunk({ meta: 'a', content: 'x\n' });
    expect(decodeChunkHeader(b, b.length).contentLength).toBe(2);
    b.writeUInt32BE(5000, 10);
    expect(decodeChunkHeader(b, b.length).status).toBe('truncated');
  });

  it('asks for more bytes when the head is too short, and is final with MAX_HEAD_NEEDED', () => {
    const b = encodeChunk({ meta: 'x'.repeat(5000), content: 'abc\n', contentLengthField: 0 });
    expect(decodeChunkHeader(b.subarray(0, 100), b.length).needBytes).toBe(24 + 5000 + 1);
    const h = decodeChunkHeader(b.subarray(0, MAX_HEAD_NEEDED), b.length);
    expect(h.needBytes).toBeNull();
    expect(h.status).toBe('legacy-length');
  });

  it('checks the CRC only when the field is non-zero, over [22, 24+meta+content), big-endian', () => {
    const good = encodeChunk({ meta: 'my.tag', content: '{"a":1}\n{"b":2}\n', crc: true });
    expect(good.subarray(2, 6).toString('hex')).toBe(crc32(good.subarray(22, 46)).toString(16).padStart(8, '0'));
    const h = decodeChunkHeader(good, good.length);
    expect(h).toMatchObject({ status: 'ok', crcCheck: true, crcComputed: h.crcField });
    const flipped = Buffer.from(good);
    flipped[40] ^= 1;
    expect(decodeChunkHeader(flipped, flipped.length).status).toBe('crc-mismatch');
    const slack = Buffer.from(good);
    slack[100] = 7; // slack is not covered
    expect(decodeChunkHeader(slack, slack.length).status).toBe('ok');
    const pad = Buffer.from(good);
    pad[7] = 1; // bytes 6..9 must stay zero with the 8-byte crc_t
    expect(decodeChunkHeader(pad, pad.length).status).toBe('crc-mismatch');
  });

  it('streams the CRC check when the head does not hold the whole content', () => {
    const content = 'y'.repeat(200_000) + '\n';
    const b = encodeChunk({ meta: 'big', content, crc: true });
    const pieces = [b.subarray(0, 4096), b.subarray(4096, 70_000), b.subarray(70_000)];
    const s = new ChunkScanner(b.length, { records: false });
    for (const p of pieces) if (s.position < s.needUntil) s.push(Buffer.from(p));
    const a = s.finish();
    expect(a.header.status).toBe('ok');
    expect(a.header.crcComputed).toBe(a.header.crcField);
    b[5000] ^= 4;
    expect(analyse(b, false).header.status).toBe('crc-mismatch');
  });

  it('rejects metadata above 65535 bytes when encoding', () => {
    expect(() => encodeChunk({ meta: Buffer.alloc(65536), content: '' })).toThrow(RangeError);
  });
});

describe('records', () => {
  it('counts JSON lines and reads the date of the first and last line', () => {
    const content = '{"date":"2026-11-29T18:37:00.168738Z","a":1}\n{"date":1795977448.205974,"a":2}\n\n{"date":"2026-11-29T18:37:09.148491Z"}\n';
    expect(countRecords(Buffer.from(content))).toEqual({
      records: 3,
      firstRecordTime: '2026-11-29T18:37:00.168738Z',
      lastRecordTime: '2026-11-29T18:37:09.148491Z',
    });
    expect(epochToIso(1795977448.205974)).toBe('2026-11-29T18:37:28.205974Z');
    expect(recordTime(Buffer.from('{"date":1795977448.5}'))).toBe('2026-11-29T18:37:28.500000Z');
    expect(recordTime(Buffer.from('{"log":"x"}'))).toBeNull();
    expect(recordTime(Buffer.from('{"date":"2026-11-29T18:37:00.1Z", broken'))).toBe('2026-11-29T18:37:00.1Z');
  });

  it('gives the same answer however the content is split', () => {
    const content = Buffer.from('{"date":"2026-01-01T00:00:00Z"}\n' + '{"x":"' + 'z'.repeat(3000) + '"}\n' + '{"date":"2026-01-02T00:00:00Z"}');
    const whole = countRecords(content);
    expect(whole.records).toBe(3);
    for (const step of [1, 7, 1000, 4096]) {
      const s = new ChunkScanner(24 + 1 + content.length, { records: true });
      const file = encodeChunk({ meta: 't', content, pageSize: null });
      for (let i = 0; i < file.length; i += step) s.push(Buffer.from(file.subarray(i, i + step)));
      expect(s.finish().count).toEqual(whole);
    }
  });

  it('does not count the NUL padding a legacy chunk includes', () => {
    const b = encodeChunk({ meta: 'tag', content: '{"a":1}\n{"a":2}\n', contentLengthField: 0 });
    const a = analyse(b);
    expect(a.header.status).toBe('legacy-length');
    expect(a.count?.records).toBe(2);
  });
});
