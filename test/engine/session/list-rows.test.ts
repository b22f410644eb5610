/* eslint-disable @typescript-eslint/no-explicit-any -- reads untyped replies */
/**
 * `store.list { rows: false }`: the opened store's report without its chunk rows, every other field
 * as in the full report, and per stream the chunk count and the Fluent Bit actions of its rows.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine';
import { requestValue } from '../../support/engine';
import type { Engine } from '../../../shared/contract';
import { generateEdgeCaseStore } from '../../fixtures/generate';
import { tempDir } from '../../support/fixtures';

let engine: Engine | null = null;
let cleanup: (() => void) | null = null;
afterEach(async () => {
  await engine?.dispose();
  cleanup?.();
});

const ok = (name: string, input: unknown) => requestValue(engine!, name, input);

describe('store.list without the chunk rows', () => {
  it('sends the report without rows and summarises them per stream', async () => {
    const t = tempDir('sd-rows-');
    cleanup = t.cleanup;
    await generateEdgeCaseStore(path.join(t.dir, 'store'));
    engine = createEngine({ door: 'host', stateDir: tempDir('sd-state-').dir, watch: false });
    await ok('store.open', { path: path.join(t.dir, 'store') });
    const [full] = (await ok('store.list', {})).stores;
    const [light] = (await ok('store.list', { rows: false })).stores;
    expect(full.rowsOmitted).toBeUndefined();
    const streams = full.report.roots.flatMap((r: any) => r.streams);
    expect(streams.reduce((a: number, s: any) => a + s.chunks.length, 0)).toBeGreaterThan(5);
    // the summary: counts and actions in the order first met, per root and stream
    expect(light.rowsOmitted).toEqual(
      full.report.roots.map((r: any) =>
        r.streams.map((s: any) => {
          const actions: [string, number][] = [];
          for (const c of s.chunks) {
            const a = actions.find((x) => x[0] === c.fluentBitAction);
            if (a) a[1]++;
            else actions.push([c.fluentBitAction, 1]);
          }
          return { chunks: s.chunks.length, actions };
        }),
      ),
    );
    // everything else as in the full report; the engine's own report keeps its rows
    const emptied = { ...full.report, roots: full.report.roots.map((r: any) => ({ ...r, streams: r.streams.map((s: any) => ({ ...s, chunks: [] })) })) };
    expect(light.report).toEqual(emptied);
    expect(light.storeId).toBe(full.storeId);
    const again = (await ok('store.list', {})).stores[0];
    expect(again.report).toEqual(full.report);
  });
});
