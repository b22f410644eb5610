/**
 * Verify once: `repair.apply` of one index file on a store of 20,000 chunks reads the file it
 * wrote once (the read-back, parsed with the scanner's own fscanf rule) and lists no stream of
 * the store: nothing is rescanned, the result carries the changed parts of the report.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, dispatchRequest } from '../../../electron/engine';
import type { Engine } from '../../../shared/contract';
import { mergeStoreUpdate } from '../../../shared/store-update';
import { generateStore, jsonLines } from '../../fixtures/store-gen';
import { tempDir } from '../../support/fixtures';

const CHUNKS = 20_000;
let dir: { dir: string; cleanup(): void };
let storeDir = '';
let engine: Engine;

async function ok<T>(name: string, input: unknown): Promise<T> {
  const r = await dispatchRequest(engine, name, input);
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
  return r.value as T;
}

beforeAll(async () => {
  dir = tempDir('sd-apply-reads-');
  const content = jsonLines(3);
  const streams = Array.from({ length: 4 }, (_, s) => ({
    name: `2026-11-2${s}T10:00:00`,
    chunks: Array.from({ length: CHUNKS / 4 }, (_, i) => ({ name: `${1000 + i}-${s}`, meta: 'app.web', content, pageSize: null })),
  }));
  ({ storeDir } = await generateStore(path.join(dir.dir, 'store'), { roots: [{ bucket: 'big', streams, seqIndex: { '0': '4' } }] }));
  engine = createEngine({ door: 'host', stateDir: tempDir('sd-state-').dir, watch: false });
}, 120_000);
afterAll(async () => {
  await engine?.dispose();
  dir?.cleanup();
});

describe('repair.apply on a 20,000-chunk store', { timeout: 120_000 }, () => {
  it('reads the written file once and lists no stream; the result carries what changed', async () => {
    const opened = await ok<{ storeId: string; report: import('../../../shared/model').StoreReport }>('store.open', { path: storeDir });
    expect(opened.report.roots[0].totals.chunks).toBe(CHUNKS);
    const root = opened.report.roots[0].path;
    const file = path.join(root, 'sequence', 'index_metadata', 'seq_index_0');
    const plan = await ok<{ planId: string; confirm: string }>('repair.plan', { storeId: opened.storeId, action: 'repair-index', value: 7 });

    const readdir = vi.spyOn(fs.promises, 'readdir');
    const readFile = vi.spyOn(fs.promises, 'readFile');
    const open = vi.spyOn(fs.promises, 'open');
    try {
      const t0 = performance.now();
      const result = await ok<import('../../../shared/model').RepairResult>('repair.apply', {
        storeId: opened.storeId,
        planId: plan.planId,
        confirm: plan.confirm,
      });
      const ms = performance.now() - t0;
      expect(result).toMatchObject({ applied: true, verified: true });
      // by its path, or by its name in the folder held open by descriptor (anchored writes read back that way)
      const held = new RegExp(`^/proc/self/fd/\\d+/${path.basename(file)}$`);
      const reads = [...readFile.mock.calls, ...open.mock.calls].filter((c) => String(c[0]) === file || held.test(String(c[0])));
      // one read for the backup (the file existed: the undo journal keeps its bytes), one read-back
      expect(reads).toHaveLength(2);
      const listed = readdir.mock.calls.map((c) => String(c[0])).filter((p) => p.startsWith(root));
      expect(listed.filter((p) => /\/2026-11-2\dT10:00:00$/.test(p))).toEqual([]);
      // what changed comes back with the result, parsed by the scanner: the report is up to date without a rescan
      const merged = mergeStoreUpdate(opened.report, result.storeUpdate);
      expect(merged.roots[0].seqIndex.find((q) => q.outputId === 0)).toMatchObject({ valueText: '7', status: 'ok' });
      expect(merged.roots[0].totals.chunks).toBe(CHUNKS);
      expect(result.storeUpdate![0].streams!.map((s) => s.name)).toEqual(['sequence']);
      console.log(`repair.apply on ${CHUNKS} chunks: ${ms.toFixed(0)} ms`);
    } finally {
      readdir.mockRestore();
      readFile.mockRestore();
      open.mockRestore();
    }
    expect(fs.readFileSync(file, 'latin1')).toBe('7');
    // and the session's own report was updated the same way (the next plan sees 7)
    const next = await ok<{ summary: string }>('repair.plan', { storeId: opened.storeId, action: 'repair-index', value: 7 });
    expect(next.summary).toMatch(/already holds 7/);
  });
});
