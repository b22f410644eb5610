/**
 * Issue 17 case 8: `fleet` (and the app's Fleet view: the same fleet.open request) reads a bounded
 * amount — per report and in total — and names every file it did not read and why; and its
 * Markdown never passes HTML from a report through (`<script>`, `<img onerror>`).
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_FLEET_BYTES, MAX_REPORT_BYTES } from '../../shared/fleet';
import { readFleetFolder } from '../../electron/engine/guard/fleet-read';
import { formatFleetMarkdown } from '../../electron/cli/commands/fleet';
import { tempDir } from '../support/fixtures';
import { nodeReport } from '../support/node-reports';

let t: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  t?.cleanup();
  t = null;
});

/** A valid report of about `bytes` (its messages padded). */
function bigReport(i: number, bytes: number): string {
  const r = nodeReport(i);
  const line = 'x'.repeat(1990);
  r.guard.messages = Array.from({ length: 50 }, () => line);
  const base = JSON.stringify(r).length;
  // the rest in the roots' paths (up to 1000 roots of 4096 characters each)
  const roots = Math.min(1000, Math.max(0, Math.floor((bytes - base) / 4200)));
  r.roots = [...r.roots, ...Array.from({ length: roots }, (_, k) => ({ ...r.roots[0], rootPath: `/r${k}/` + 'p'.repeat(4000) }))].slice(0, 1000);
  return JSON.stringify(r);
}

describe('fleet input is bounded', () => {
  it('stops reading at the total bound and names each file left out', async () => {
    t = tempDir('sd-fleet-bounds-');
    const each = bigReport(0, Math.min(MAX_REPORT_BYTES, 3 * 1024 * 1024)).length;
    const count = Math.ceil(MAX_FLEET_BYTES / each) + 3;
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const text = bigReport(i, each);
      sizes.push(text.length);
      writeFileSync(path.join(t.dir, `node-${String(i).padStart(3, '0')}.json`), text);
    }
    const f = await readFleetFolder(t.dir);
    let read = 0;
    for (let sum = 0; read < count && sum + sizes[read] <= MAX_FLEET_BYTES; read++) sum += sizes[read];
    expect(read).toBeGreaterThan(1);
    expect(read).toBeLessThan(count);
    expect(f.totals.nodes).toBe(read);
    expect(f.skipped.map((s) => s.file)).toEqual(Array.from({ length: count - read }, (_, k) => `node-${String(read + k).padStart(3, '0')}.json`));
    for (const s of f.skipped) expect(s.error).toMatch(/not read: the reports read before it total \d+(\.\d)? MiB; fleet reads at most \d+ MiB/);
  });

  it('a report above the per-file bound is named and not read', async () => {
    t = tempDir('sd-fleet-bounds-');
    writeFileSync(path.join(t.dir, 'huge.json'), ' '.repeat(MAX_REPORT_BYTES + 1));
    writeFileSync(path.join(t.dir, 'ok.json'), JSON.stringify(nodeReport(1)));
    const f = await readFleetFolder(t.dir);
    expect(f.totals.nodes).toBe(1);
    expect(f.skipped).toEqual([{ file: 'huge.json', error: expect.stringMatching(/huge\.json/) }]);
  });
});

describe('fleet --format markdown', () => {
  it('escapes HTML from a report: no tag, no attribute reaches the Markdown', () => {
    const r = nodeReport(7); // at risk
    r.node = 'n<script>alert(1)</script>';
    r.outputs[0].risks = ['<img src=x onerror="alert(2)"> & more'];
    const md = formatFleetMarkdown({
      folder: '/f',
      nodes: [
        {
          file: 'a.json',
          node: r.node,
          generatedAt: r.generatedAt,
          guardState: r.guard.state,
          outputs: 1,
          outputsAtRisk: 1,
          risks: r.outputs[0].risks,
          backlogChunks: 0,
          backlogBytes: 0,
          oldestBacklogSeconds: null,
          quarantineChunks: 0,
          damagedChunks: 0,
          restores: 0,
          report: r,
        },
      ],
      skipped: [{ file: '<b>x</b>.json', error: 'not JSON' }],
      collisions: [
        {
          code: 'COLLISION_ACROSS_NODES',
          bucket: 'logs',
          endpoint: null,
          keyFormat: '/$TAG/$INDEX',
          nodes: ['<i>a</i>', 'b'],
          summary: 'nodes <i>a</i> and b write the same keys',
        },
      ],
      totals: { nodes: 1, nodesAtRisk: 1, outputsAtRisk: 1, backlogChunks: 0, backlogBytes: 0, quarantineChunks: 0, damagedChunks: 0 },
    });
    expect(md).not.toMatch(/<[a-z/]/i);
    expect(md).toContain('n&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(md).toContain('&lt;img src=x onerror="alert(2)"&gt; &amp; more');
    expect(md).toContain('&lt;b&gt;x&lt;/b&gt;.json');
    expect(md).toContain('nodes &lt;i&gt;a&lt;/i&gt; and b write the same keys');
  });
});
