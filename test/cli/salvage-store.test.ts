/**
 * `store-doctor salvage` on an S3 bucket root (generated damaged chunks: a header longer than the
 * file with a torn last line, a wrong magic): dry run writes nothing, --apply writes valid chunks
 * keeping every complete line, --undo --apply restores the exact bytes; a store_dir with one root
 * works the same; every --json document conforms to docs/salvage.schema.json's zod schema.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeChunkHeader, encodeChunk } from '../../electron/engine/chunk';
import { salvageDocumentSchema } from '../../shared/json-schemas/storage-path';

const BIN = path.resolve(__dirname, '../../bin/store-doctor.cjs');
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
const lines = (n: number) => Array.from({ length: n }, (_, i) => `{"n":${i}}\n`).join('');
const dir = mkdtempSync(path.join(os.tmpdir(), 'sd-cli-salvage-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('store-doctor salvage <store_dir>', () => {
  it('plans, applies, undoes the chunks the S3 output rejects; every --json conforms', () => {
    const stream = path.join(dir, 'store', 'bucket', '2026-12-06T02:00:00');
    mkdirSync(stream, { recursive: true });
    const full = encodeChunk({ meta: 'app', content: lines(8), crc: false, pageSize: null });
    const files = [path.join(stream, '1-1'), path.join(stream, '1-2')];
    writeFileSync(files[0], full.subarray(0, 24 + 3 + lines(5).length + 4)); // 5 lines and a torn 6th
    const bad = encodeChunk({ meta: 'app', content: lines(2), crc: false });
    bad[1] = 7;
    writeFileSync(files[1], bad);
    const before = files.map((f) => readFileSync(f));
    const docs: unknown[] = [];

    const dry = cli('salvage', path.join(dir, 'store'), '--json');
    expect(dry.status, dry.stderr).toBe(0);
    docs.push(JSON.parse(dry.stdout));
    expect(JSON.parse(dry.stdout).plan.details).toMatchObject({
      layout: 'store-dir',
      chunks: [
        { records: 5, cutBytes: 4 },
        { records: 2, cutBytes: 0 },
      ],
    });
    expect(files.map((f, i) => readFileSync(f).equals(before[i]))).toEqual([true, true]);

    const text = cli('salvage', path.join(dir, 'store', 'bucket'));
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/Salvage 2 chunk\(s\) .*: 7 line\(s\) kept, 1 torn last line\(s\) cut/);

    const applied = cli('salvage', path.join(dir, 'store'), '--apply', '--json');
    expect(applied.status, applied.stderr).toBe(0);
    docs.push(JSON.parse(applied.stdout));
    expect(JSON.parse(applied.stdout).result).toMatchObject({ action: 'salvage', applied: true, verified: true });
    const out = readFileSync(files[0]);
    const h = decodeChunkHeader(out, out.length);
    expect(h.status).toBe('ok');
    expect(out.subarray(h.contentStart!, h.contentStart! + h.contentLength!).toString()).toBe(lines(5));

    const undo = cli('salvage', path.join(dir, 'store', 'bucket'), '--undo', '--apply', '--json');
    expect(undo.status, undo.stderr).toBe(0);
    docs.push(JSON.parse(undo.stdout));
    expect(files.map((f, i) => readFileSync(f).equals(before[i]))).toEqual([true, true]);
    for (const d of docs) expect(salvageDocumentSchema.safeParse(d).success).toBe(true);
  });
});
