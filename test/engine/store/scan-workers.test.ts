/**
 * The directory scan with worker threads gives exactly the report of the in-thread scan (every
 * status, multipart record, read error and ignored entry of the edge-case store, header-only and
 * with records), workers really run, progress and cancellation still work, and the helpers the
 * fast path relies on (wire format, string pool, ISO times) are exact.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Progress, StoreReport } from '../../../shared/model';
import { encodeChunk } from '../../../electron/engine/chunk';
import { scanStore } from '../../../electron/engine/store';
import { StringPool, smallInt } from '../../../electron/engine/store/chunk-info';
import { describeFsError } from '../../../electron/engine/store/errors';
import { isoFromMs } from '../../../electron/engine/store/io';
import { runJob } from '../../../electron/engine/store/scan-worker';
import { ScanPool, scanPool } from '../../../electron/engine/store/scan-pool';
import { generateEdgeCaseStore, jsonLines, type EdgeCaseStore } from '../../fixtures/generate';

let tmp: string;
let edge: EdgeCaseStore;
let big: string;

const strip = (r: StoreReport): string => JSON.stringify({ ...r, scannedAt: '' });

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-workers-'));
  edge = await generateEdgeCaseStore(path.join(tmp, 'edge'));
  // A root with 3 streams of 700 chunks (several batches each), one unreadable chunk and a dot file.
  big = path.join(tmp, 'big', 'bucket');
  for (let s = 0; s < 3; s++) {
    const dir = path.join(big, `2026-01-0${s + 1}T00:00:00`);
    fs.mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 700; i++)
      fs.writeFileSync(
        path.join(dir, `${1000 + i}-${s}`),
        encodeChunk({ meta: `app.${i % 3}`, content: jsonLines(1 + (i % 5), { start: 1_700_000_000 + i }) }),
      );
  }
  fs.writeFileSync(path.join(big, '2026-01-01T00:00:00', '.hidden'), 'x');
  const locked = path.join(big, '2026-01-02T00:00:00', '1000-1');
  fs.chmodSync(locked, 0);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('scan with worker threads', () => {
  it('reports exactly what the in-thread scan reports, and the workers did read', async () => {
    const pool = scanPool(1);
    const before = pool.batches;
    for (const p of [edge.storeDir, edge.root, big]) {
      for (const records of [true, false]) {
        const here = await scanStore(p, { records, workers: 0 });
        const there = await scanStore(p, { records, workers: 1, workerThreshold: 0 });
        expect(strip(there), `${p} records=${records}`).toBe(strip(here));
      }
    }
    expect(pool.batches).toBeGreaterThan(before);
  });

  it('keeps read errors, ignored entries and totals of a multi-batch store', async () => {
    const r = await scanStore(big, { workers: 1, workerThreshold: 0 });
    const root = r.roots[0];
    expect(root.totals.chunks).toBe(2100);
    expect(root.streams.map((s) => s.chunks.length)).toEqual([700, 700, 700]);
    const names = root.streams[0].chunks.map((c) => c.name);
    expect(names).toEqual([...names].sort());
    expect(root.streams[0].ignored.map((i) => i.path)).toEqual(['2026-01-01T00:00:00/.hidden']);
    if (process.getuid?.() !== 0) {
      const bad = root.streams[1].chunks.find((c) => c.name === '1000-1');
      expect(bad?.message).toMatch(/1000-1: permission denied/);
      expect(r.problems.some((p) => p.path.endsWith('/1000-1') && p.severity === 'error')).toBe(true);
    }
    expect(root.totals.records).toBe(root.streams.flatMap((s) => s.chunks).reduce((n, c) => n + (c.records ?? 0), 0));
  });

  it('reports progress up to done = total and can be cancelled while workers read', async () => {
    const events: Progress[] = [];
    await scanStore(big, { workers: 1, workerThreshold: 0, onProgress: (p) => events.push(p) });
    const last = events[events.length - 1];
    expect(last.total).toBe(2100);
    expect(last.done).toBe(2100);
    const ac = new AbortController();
    const run = scanStore(big, { workers: 1, workerThreshold: 0, signal: ac.signal, onProgress: () => ac.abort(new Error('stop now')) });
    await expect(run).rejects.toThrow('stop now');
  });

  it('a worker reports an unreadable file by code and message, which become the same sentence', () => {
    const missing = path.join(tmp, 'gone');
    const batch = runJob({ kind: 'data', records: true, keep: 0, paths: [missing] });
    expect(batch.errors.map((e) => [e[0], e[1]])).toEqual([[0, 'ENOENT']]);
    let real: unknown;
    try {
      fs.openSync(missing, 'r');
    } catch (err) {
      real = err;
    }
    const [, code, message] = batch.errors[0];
    expect(describeFsError(Object.assign(new Error(message), { code }), 'x/gone')).toBe(describeFsError(real, 'x/gone'));
  });

  it('a pool whose worker cannot start rejects its batches (the scan then reads them itself)', async () => {
    const broken = new ScanPool(1, { file: path.join(tmp, 'no-such-worker.js'), tsx: null });
    expect(broken.usable).toBe(true);
    await expect(broken.run({ kind: 'data', records: true, keep: 0, paths: [] })).rejects.toThrow();
    expect(broken.usable).toBe(false);
    broken.close();
  });
});

describe('fast-path helpers', () => {
  it('isoFromMs equals Date#toISOString', () => {
    const samples = [0, 1, 999, 1000, 1_700_000_000_123, 253402300799999, 253402300800000, -1, -1001, 1.5];
    for (let i = 0; i < 2000; i++) samples.push(Math.floor(Math.random() * 4e12) - 1e12);
    for (const ms of samples) expect(isoFromMs(ms), String(ms)).toBe(new Date(ms).toISOString());
  });

  it('StringPool shares equal strings and decodes equal metadata once', () => {
    const pool = new StringPool(3);
    expect(pool.share(['a', 'b'].join(''))).toBe('ab');
    expect(pool.share(null)).toBeNull();
    const [tag, hex] = pool.metaStrings(Buffer.from('app.web'));
    expect(tag).toBe('app.web');
    expect(hex).toBe(Buffer.from('app.web').toString('hex'));
    expect(pool.metaStrings(Buffer.from([0xff, 0x41]))).toEqual(['\\xffA', 'ff41']);
    for (let i = 0; i < 10; i++) pool.share(`s${i}`); // bounded: clears instead of growing
    expect(pool.share('s1')).toBe('s1');
  });

  it('smallInt keeps values and makes integers small integers', () => {
    for (const v of [0, 1, -5, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 5, 1.5, -0]) expect(Object.is(smallInt(v), v === 0 ? 0 : v) || smallInt(v) === v).toBe(true);
    expect(smallInt(2 ** 33)).toBe(2 ** 33);
  });
});
