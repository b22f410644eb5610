/**
 * Salvage of a store_dir bucket root: the chunks the S3 output rejects at start (header longer than
 * the file, wrong magic) get a valid chunk in their place keeping every complete line (a torn last
 * line cut), through applyPlan (journal, backup, atomic write, verify) and undo to the exact bytes;
 * loaded chunks (valid, CRC mismatch) and too-short files are left alone.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeChunkHeader, encodeChunk } from '../../../electron/engine/chunk';
import { applyPlan, planStoreSalvage, salvageStoreChunk, undoLast } from '../../../electron/engine/repair';

const lines = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `{"n":${from + i},"log":"line ${from + i}"}\n`).join('');
const STREAM = '2026-12-06T02:00:00';
let root: string;
const f = (name: string) => path.join(root, STREAM, name);

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'sd-salvage-store-'));
  mkdirSync(path.join(root, STREAM));
  mkdirSync(path.join(root, 'multipart_upload_metadata'));
  // Header says 10 lines; the file holds 6 lines and half of the 7th (a crash before the data reached disk).
  const full = encodeChunk({ meta: 'app.a', content: lines(10), crc: false, pageSize: null });
  const cut = HEAD(full, 24 + 5 + lines(6).length + 7);
  writeFileSync(f('1000-1'), cut);
  // Wrong magic, the rest intact.
  const bad = encodeChunk({ meta: 'app.b', content: lines(3, 20), crc: false });
  bad[0] = 0;
  writeFileSync(f('1000-2'), bad);
  writeFileSync(f('1000-3'), encodeChunk({ meta: 'app.c', content: lines(2, 30), crc: false })); // valid
  const crc = encodeChunk({ meta: 'app.d', content: lines(2, 40), crc: true });
  crc.writeUInt32BE(0x1234, 2); // loaded anyway: the S3 store opens without checksums
  writeFileSync(f('1000-4'), crc);
  writeFileSync(f('1000-5'), Buffer.from([0xc1, 0, 1])); // too short: nothing to keep
  writeFileSync(path.join(root, 'multipart_upload_metadata', '1000-6'), HEAD(full, 40)); // not a data stream
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function HEAD(b: Buffer, n: number): Buffer {
  return Buffer.from(b.subarray(0, n));
}

describe('store_dir salvage', () => {
  it('salvageStoreChunk keeps complete lines and cuts a torn last line', () => {
    const r = salvageStoreChunk(readFileSync(f('1000-1')));
    expect(r).toMatchObject({ rejected: true, records: 6, cutBytes: 7 });
    const h = decodeChunkHeader(r.salvage!, r.salvage!.length);
    expect(h.status).toBe('ok');
    expect(h.crcField).toBe('00000000');
    expect(r.salvage!.subarray(h.contentStart!, h.contentStart! + h.contentLength!).toString()).toBe(lines(6));
    expect(r.salvage!.subarray(24, 29).toString()).toBe('app.a');
    expect(salvageStoreChunk(readFileSync(f('1000-3')))).toMatchObject({ rejected: false, salvage: null });
    expect(salvageStoreChunk(readFileSync(f('1000-4')))).toMatchObject({ rejected: false, salvage: null });
    expect(salvageStoreChunk(readFileSync(f('1000-5')))).toMatchObject({ rejected: true, salvage: null });
  });

  it('plans only the rejected chunks, applies, verifies, and undo restores the bytes', async () => {
    const before = readdirSync(path.join(root, STREAM)).map((n) => readFileSync(f(n)));
    const plan = await planStoreSalvage(root, { skipProcessCheck: true });
    expect(plan.steps.map((s) => path.relative(root, s.target))).toEqual([`${STREAM}/1000-1`, `${STREAM}/1000-2`]);
    expect(plan.details).toMatchObject({
      kind: 'salvage',
      layout: 'store-dir',
      chunks: [
        { records: 6, cutBytes: 7 },
        { records: 3, cutBytes: 0 },
      ],
    });
    expect(plan.why.join('\n')).toMatch(/1000-5: Only 3 bytes/);
    expect(readdirSync(path.join(root, STREAM)).map((n) => readFileSync(f(n)))).toEqual(before); // plan writes nothing

    const result = await applyPlan(plan, { skipProcessCheck: true });
    expect(result).toMatchObject({ applied: true, verified: true });
    for (const [name, text] of [
      ['1000-1', lines(6)],
      ['1000-2', lines(3, 20)],
    ]) {
      const b = readFileSync(f(name));
      const h = decodeChunkHeader(b, b.length);
      expect(h.status).toBe('ok');
      expect(b.subarray(h.contentStart!, h.contentStart! + h.contentLength!).toString()).toBe(text);
    }
    expect(readdirSync(path.join(root, STREAM)).sort()).toEqual(['1000-1', '1000-2', '1000-3', '1000-4', '1000-5']);
    expect((await planStoreSalvage(root, { skipProcessCheck: true })).steps).toEqual([]);

    expect((await undoLast(root, { skipProcessCheck: true })).applied).toBe(true);
    expect(
      readdirSync(path.join(root, STREAM))
        .sort()
        .map((n) => readFileSync(f(n))),
    ).toEqual(before);
  });

  it('refuses a chunk that changed after the plan, writing nothing', async () => {
    const plan = await planStoreSalvage(root, { skipProcessCheck: true });
    const other = readFileSync(f('1000-1'));
    writeFileSync(f('1000-2'), Buffer.concat([readFileSync(f('1000-2')), Buffer.from('x')]));
    await expect(applyPlan(plan, { skipProcessCheck: true })).rejects.toThrow(/changed since the plan was made/);
    expect(readFileSync(f('1000-1')).equals(other)).toBe(true);
  });

  it('never follows a symlinked stream or chunk out of the root', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'sd-salvage-outside-'));
    try {
      const damaged = readFileSync(f('1000-1'));
      writeFileSync(path.join(outside, '2000-1'), damaged);
      symlinkSync(outside, path.join(root, '2026-12-06T03:00:00'));
      symlinkSync(path.join(outside, '2000-1'), f('2000-2'));
      const plan = await planStoreSalvage(root, { skipProcessCheck: true });
      expect(plan.steps.map((s) => path.relative(root, s.target))).toEqual([`${STREAM}/1000-1`, `${STREAM}/1000-2`]);
      await applyPlan(plan, { skipProcessCheck: true });
      expect(readFileSync(path.join(outside, '2000-1')).equals(damaged)).toBe(true);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
