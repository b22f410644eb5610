/** A chunk's mtime in the report is the file's time as Node's fs.Stats gives it, to the millisecond (sub-millisecond times included). */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanStore } from '../../../electron/engine/store';
import { generateStore, jsonLines } from '../../fixtures/generate';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-mtime-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('chunk file times', () => {
  it.each([false, true])('records %s: each chunk’s mtime is its stat mtime, with fractions of a millisecond rounded as Node does', async (records) => {
    const chunks = Array.from({ length: 6 }, (_, i) => ({ name: `${100 + i}-${i}.flb`, meta: 'app', content: jsonLines(2) }));
    const g = await generateStore(path.join(tmp, `s-${records}`), { roots: [{ bucket: 'b', streams: [{ name: '2026-01-01T00:00:00', chunks }] }] });
    const dir = path.join(g.roots.b, '2026-01-01T00:00:00');
    const times = [1796521673.1542974, 1796521673.1547, 1796521673.9995, 1796521673.0004, 1700000000, 1796521674.4449999];
    chunks.forEach((c, i) => fs.utimesSync(path.join(dir, c.name), times[i], times[i]));
    const report = await scanStore(g.storeDir, { records });
    const got = new Map(report.roots[0].streams.flatMap((s) => s.chunks.map((c) => [c.name, c.mtime])));
    for (const c of chunks) expect(got.get(c.name), c.name).toBe(fs.statSync(path.join(dir, c.name)).mtime.toISOString());
  });
});
