/**
 * The engine buffers the five real binaries left (test/fixtures/storage-path, made by
 * test/fluent-bit/storage-path-harness.ts): Store Doctor's prediction for each chunk (load or
 * reject, with checksum on and off, and how many records) must equal what that binary measurably
 * did at its next start (measurements.json).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanStoragePath, scanStoragePathArchive } from '../../../electron/engine/storage-path';

const FIX = path.resolve(__dirname, '../../fixtures/storage-path');
interface Run {
  delivered: number;
  formatCheckFailed: string[];
}
const measured = JSON.parse(readFileSync(path.join(FIX, 'measurements.json'), 'utf8')) as Record<string, Record<string, Record<string, Run>>>;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sd-sp-fx-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('storage.path fixtures from the real binaries', () => {
  for (const v of readdirSync(FIX).filter((d) => d.startsWith('v')))
    for (const kind of readdirSync(path.join(FIX, v)))
      it(`${v} ${kind}: predicted fates equal the measured next start`, async () => {
        const dest = path.join(tmp, v, kind);
        execFileSync('mkdir', ['-p', dest]);
        execFileSync('tar', ['-xzf', path.join(FIX, v, kind, 'store.tar.gz'), '-C', dest]);
        const r = await scanStoragePath(path.join(dest, 'store'));
        const m = measured[v.slice(1)][kind];
        const chunks = r.streams.flatMap((s) => s.chunks);
        const on = chunks.filter((c) => c.fateChecksumOn === 'reject');
        expect(on.map((c) => c.path).sort()).toEqual([...m['checksum-on'].formatCheckFailed].sort());
        expect(chunks.filter((c) => c.fateChecksumOn === 'load').reduce((n, c) => n + c.records, 0)).toBe(m['checksum-on'].delivered);
        expect(chunks.filter((c) => c.fateChecksumOff === 'reject')).toEqual([]);
        expect(r.totals.records).toBe(m['checksum-off'].delivered);
        expect(r.totals.torn).toBe(kind === 'torn-last-record' ? 1 : 0);
        expect(new Set(chunks.map((c) => c.tag))).toEqual(new Set(['app.a', 'app.b']));
        expect(new Set(chunks.map((c) => c.format))).toEqual(new Set([v === 'v1.9.10' ? 'v1' : 'v2']));
        // read in place from the tar: the same report
        const inTar = await scanStoragePathArchive(path.join(FIX, v, kind, 'store.tar.gz'));
        expect(inTar?.path).toBe(`${path.join(FIX, v, kind, 'store.tar.gz')}/store`);
        expect(inTar?.totals).toEqual(r.totals);
        expect(inTar?.streams.map((s) => s.chunks.map((c) => [c.path, c.crc, c.records, c.tornBytes]))).toEqual(
          r.streams.map((s) => s.chunks.map((c) => [c.path, c.crc, c.records, c.tornBytes])),
        );
      });
});
