import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { ChunkScanner } from '../../../electron/engine/chunk';
import { scanStore } from '../../../electron/engine/store';

const DIR = path.join(__dirname, '../../fixtures/fluent-bit-real/crc-reference');
const expected = JSON.parse(fs.readFileSync(path.join(DIR, 'expected.json'), 'utf8')) as {
  files: { path: string; fileSize: number; storedCrcHex_bytes2to5_bigEndian: string; contentLengthField: number; metaLen: number }[];
};

async function entries(): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const ex = tar.extract();
  fs.createReadStream(path.join(DIR, 'flb-storage.tar.gz')).pipe(zlib.createGunzip()).pipe(ex);
  for await (const e of ex) {
    const bufs: Buffer[] = [];
    for await (const b of e as AsyncIterable<Buffer>) bufs.push(b);
    if (e.header.type === 'file') out.set(e.header.name.replace(/^\.\//, ''), Buffer.concat(bufs));
  }
  return out;
}

describe('CRC path against Fluent Bit engine chunks written with storage.checksum on', () => {
  it('verifies every stored CRC (bytes 2..5, BE, over [22, 24+meta+content)) and catches a flipped byte', async () => {
    const files = await entries();
    expect(expected.files.length).toBeGreaterThan(0);
    for (const f of expected.files) {
      const b = files.get(f.path);
      expect(b, f.path).toBeDefined();
      const s = new ChunkScanner(b!.length, { records: false });
      s.push(b!);
      const a = s.finish();
      expect(a.header).toMatchObject({
        status: 'ok',
        crcCheck: true,
        crcField: f.storedCrcHex_bytes2to5_bigEndian,
        crcComputed: f.storedCrcHex_bytes2to5_bigEndian,
        metaLength: f.metaLen,
        contentLength: f.contentLengthField,
      });
      const bad = Buffer.from(b!);
      bad[24 + f.metaLen + 1] ^= 0x20;
      const s2 = new ChunkScanner(bad.length, { records: false });
      s2.push(bad);
      expect(s2.finish().header.status).toBe('crc-mismatch');
    }
  });

  it('scans the archive in place and reports every chunk CRC as verified', async () => {
    const r = await scanStore(path.join(DIR, 'flb-storage.tar.gz'), { records: false });
    const chunks = r.roots.flatMap((x) => x.streams.flatMap((s) => s.chunks));
    expect(chunks).toHaveLength(expected.files.length);
    for (const c of chunks) expect(c.crcComputed).toBe(c.crcField);
    expect(chunks.every((c) => c.status === 'ok')).toBe(true);
  });
});
