import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkScanner, decodeChunkHeader, encodeChunk, parseMultipartRecord, RecordPager } from '../../../electron/engine/chunk';

const STATUSES = ['ok', 'legacy-length', 'zero-byte', 'too-short', 'bad-magic', 'truncated', 'crc-mismatch'];

function scanAll(bytes: Uint8Array, step: number) {
  const s = new ChunkScanner(bytes.length, { records: true, keepContent: 1 << 20 });
  for (let i = 0; i < bytes.length && s.position < s.needUntil; i += step) s.push(Buffer.from(bytes.subarray(i, i + step)));
  return s.finish();
}

describe('codec fuzz (no throw escapes, no hang)', () => {
  it('decodes random bytes to a status, the same whether fed whole or in pieces', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.integer({ min: 1, max: 64 }), (bytes, step) => {
        const h = decodeChunkHeader(bytes, bytes.length);
        expect(STATUSES).toContain(h.status);
        const a = scanAll(bytes, bytes.length || 1);
        const b = scanAll(bytes, step);
        expect(b.header.status).toBe(a.header.status);
        expect(b.count).toEqual(a.count);
        if (a.header.logicalEnd !== null && a.header.status !== 'truncated' && a.header.status !== 'zero-byte')
          expect(a.header.logicalEnd).toBeLessThanOrEqual(bytes.length);
      }),
      { numRuns: 400 },
    );
  });

  it('survives mutated headers of real-looking chunks', () => {
    const base = encodeChunk({ meta: 'app.web', content: '{"date":"2026-01-01T00:00:00Z"}\n'.repeat(20), crc: true });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        fc.integer({ min: 0, max: base.length }),
        (edits, cut) => {
          const b = Buffer.from(base.subarray(0, cut));
          for (const [o, v] of edits) if (o < b.length) b[o] = v;
          const a = scanAll(b, 97);
          expect(STATUSES).toContain(a.header.status);
          if (a.header.status === 'ok' || a.header.status === 'legacy-length') expect(a.header.logicalEnd).toBeLessThanOrEqual(b.length);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('parses any multipart bytes and pages any content without throwing', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 300 }),
        fc.nat(5),
        fc.integer({ min: 1, max: 5 }),
        (meta, content, off, lim) => {
          const r = parseMultipartRecord(meta, content);
          for (const p of r.completeParts) expect(p.partNumber).toBeGreaterThan(0);
          const pager = new RecordPager(off, lim);
          pager.push(Buffer.from(content));
          const page = pager.finish();
          expect(page.records.length).toBeLessThanOrEqual(lim);
        },
      ),
      { numRuns: 300 },
    );
  });
});
