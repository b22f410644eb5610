import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseNodeReport, summarizeFleet } from '../../shared/fleet';
import { createEngine, dispatchRequest } from '../../electron/engine';
import { tempDir } from '../support/fixtures';
import { nodeReport } from '../support/node-reports';
import { writeNodeReports } from '../support/node-reports-fs';

let t: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  t?.cleanup();
  t = null;
});

describe('node report parser (shared by the fleet command and the app)', () => {
  it('accepts a guard report and names the field that is wrong in anything else', () => {
    expect(parseNodeReport(JSON.stringify(nodeReport(3)))).toEqual({ ok: true, report: nodeReport(3) });
    expect(parseNodeReport('{"schema": "x"')).toMatchObject({ ok: false, error: expect.stringMatching(/^not JSON/) });
    const bad = { ...nodeReport(1), outputs: [{ ...nodeReport(1).outputs[0], persistedIndex: -4 }] };
    expect(parseNodeReport(JSON.stringify(bad))).toEqual({
      ok: false,
      error: expect.stringMatching(/^not a Store Doctor node report: outputs\.0\.persistedIndex: /),
    });
    expect(parseNodeReport(JSON.stringify({ ...nodeReport(1), extra: 1 }))).toMatchObject({ ok: false });
  });

  it('summarises 200 nodes: most at risk first, exact totals', () => {
    const reports = Array.from({ length: 200 }, (_, i) => ({ file: `n${i}.json`, report: nodeReport(i) }));
    const f = summarizeFleet('/reports', reports, []);
    const risky = Array.from({ length: 200 }, (_, i) => i).filter((i) => i % 7 === 0);
    expect(f.totals).toEqual({
      nodes: 200,
      nodesAtRisk: risky.length,
      outputsAtRisk: risky.length,
      backlogChunks: 200 + (199 * 200) / 2 + 2 * 40,
      backlogBytes: 200 * 4096 + 1000 * ((199 * 200) / 2) + 8192 * 40,
      quarantineChunks: 2 * 40,
      damagedChunks: 19,
    });
    // at risk first; among them damaged (0, 77, 154) before the rest, then by quarantine, then backlog age
    expect(f.nodes.slice(0, risky.length).every((n) => n.outputsAtRisk === 1)).toBe(true);
    expect(f.nodes.slice(0, 4).map((n) => n.node)).toEqual(['node-000', 'node-154', 'node-077', 'node-175']);
    expect(f.nodes[risky.length].outputsAtRisk).toBe(0);
    expect(f.nodes.find((n) => n.node === 'node-010')).toMatchObject({
      backlogChunks: 13,
      quarantineChunks: 2,
      damagedChunks: 0,
      oldestBacklogSeconds: 3600,
      guardState: 'watching',
    });
  });
});

describe('COLLISION_ACROSS_NODES in the fleet summary', () => {
  it('names the nodes that write one bucket with a key format without a node-unique part', () => {
    const reports = Array.from({ length: 40 }, (_, i) => ({ file: `n${i}.json`, report: nodeReport(i) }));
    const f = summarizeFleet('/reports', reports, []);
    // nodes 0, 13, 26, 39 write /logs/$TAG/$INDEX; the others have $UUID
    expect(f.collisions).toEqual([
      {
        code: 'COLLISION_ACROSS_NODES',
        bucket: 'logs',
        endpoint: null,
        keyFormat: '/logs/$TAG/$INDEX',
        nodes: ['node-000', 'node-013', 'node-026', 'node-039'],
        summary: expect.stringContaining('4 nodes (node-000, node-013, node-026, node-039) write bucket logs with the key format /logs/$TAG/$INDEX'),
      },
    ]);
    // one such node alone, or the same format on another endpoint, does not collide
    const other = { ...nodeReport(13), outputs: [{ ...nodeReport(13).outputs[0], endpoint: 'http://minio:9000' }] };
    expect(
      summarizeFleet(
        '/r',
        [
          { file: 'a', report: nodeReport(0) },
          { file: 'b', report: other },
        ],
        [],
      ).collisions,
    ).toEqual([]);
    // reports without key identity (before 0.2) are read and never collide
    const old = (i: number) => {
      const r = nodeReport(i);
      const { keyFormat: _k, endpoint: _e, keyNodeUnique: _u, ...o } = r.outputs[0];
      return { ...r, outputs: [o] };
    };
    expect(parseNodeReport(JSON.stringify(old(0)))).toMatchObject({ ok: true });
    expect(
      summarizeFleet(
        '/r',
        [
          { file: 'a', report: old(0) },
          { file: 'b', report: old(13) },
        ],
        [],
      ).collisions,
    ).toEqual([]);
  });
});

describe('fleet.open', () => {
  it('reads a folder of 200 reports (files and <node>/report.json), lists what is not a report, follows no symlink', async () => {
    t = tempDir('sd-fleet-');
    writeNodeReports(t.dir, 200);
    writeFileSync(path.join(t.dir, 'notes.json'), '{"hello": 1}');
    writeFileSync(path.join(t.dir, 'secret'), JSON.stringify(nodeReport(999)));
    symlinkSync(path.join(t.dir, 'secret'), path.join(t.dir, 'linked.json'));
    mkdirSync(path.join(t.dir, 'empty-node'));
    const engine = createEngine({ door: 'cli', watch: false });
    try {
      const r = await dispatchRequest(engine, 'fleet.open', { path: t.dir });
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      const f = r.value as import('../../shared/fleet').FleetSummary;
      expect(f.totals.nodes).toBe(200);
      expect(f.skipped.map((s) => s.file).sort()).toEqual(['linked.json', 'notes.json']);
      expect(f.skipped.find((s) => s.file === 'linked.json')!.error).toMatch(/symlink/);
      expect(f.skipped.find((s) => s.file === 'notes.json')!.error).toMatch(/not a Store Doctor node report/);
      const missing = await dispatchRequest(engine, 'fleet.open', { path: path.join(t.dir, 'nope') });
      expect(missing).toMatchObject({ ok: false, error: { code: 'not-found' } });
    } finally {
      await engine.dispose();
    }
  });
});
