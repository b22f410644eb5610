/**
 * `store-doctor guard` as shipped (bin/store-doctor.cjs, compiled in the global setup): --once for
 * pre-start hooks, the long-running guard's HTTP endpoint, and `store-doctor fleet`.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordValue, shadowRootOf, shadowDirFor } from '../../electron/engine/repair';
import { nodeReportSchema } from '../../shared/fleet';
import { fleetDocumentSchema, guardOnceDocumentSchema } from '../../shared/json-schemas/guard';
import { extractFixture, FIXTURES, tempDir, type Extracted } from '../engine/repair/helpers';
import { writeNodeReports } from '../support/node-reports-fs';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/store-doctor.cjs');
const IR_CONF = path.join(FIXTURES, 'index-reset', 'fluent-bit.conf');
const IR_LISTING = path.join(FIXTURES, 'index-reset', 's3-objects-after-run2.json');

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, timeout: 90_000 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

let fx: Extracted | null = null;
let t: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  fx?.cleanup();
  t?.cleanup();
  fx = t = null;
});
const seq = (root: string) => path.join(root, 'sequence/index_metadata/seq_index_0');

describe('store-doctor guard --once', { timeout: 120_000 }, () => {
  it('without a final value or bucket evidence it refuses to invent one (exit 5) and writes nothing', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    t = tempDir('sd-once-');
    const r = await cli(['guard', fx.storeDir, '--config', IR_CONF, '--state-dir', t.dir, '--once']);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/REFUSED: s3\.0: no value known for seq_index_0 .* refuses to invent one/);
    expect(existsSync(seq(fx.root))).toBe(false);
  });

  it("restores the guard's final value; with bucket evidence the higher wins", async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    t = tempDir('sd-once-');
    const dir = shadowDirFor(t.dir, 'fb-index-reset');
    await recordValue(dir, await shadowRootOf(fx.root), 0, 15, true);
    const r = await cli(['guard', fx.storeDir, '--config', IR_CONF, '--state-dir', t.dir, '--once']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(/shadow 15 \(final\), disk missing/);
    expect(readFileSync(seq(fx.root), 'latin1')).toBe('15');
    // a value the guard did not see finalised (9) loses against the listing (highest 11 → 12)
    rmSync(path.join(fx.root, 'sequence'), { recursive: true });
    rmSync(dir, { recursive: true });
    await recordValue(dir, await shadowRootOf(fx.root), 0, 9, false);
    const r2 = await cli(['guard', fx.storeDir, '--config', IR_CONF, '--state-dir', t.dir, '--once', '--listing', IR_LISTING, '--json']);
    expect(r2.code, r2.stderr).toBe(0);
    const doc = guardOnceDocumentSchema.parse(JSON.parse(r2.stdout));
    expect(doc.refused).toEqual([]);
    expect(doc.results[0].plan.warnings.join('\n')).toMatch(/shadow copy \(9\) is not known to be final/);
    expect(readFileSync(seq(fx.root), 'latin1')).toBe('12');
  });
});

describe('store-doctor guard (HTTP endpoint)', { timeout: 60_000 }, () => {
  it('serves /metrics (store_doctor_ names), /healthz and /report.json; stops on SIGTERM', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    t = tempDir('sd-guard-http-');
    const conf = path.join(FIXTURES, 'crash-during-run', 'fluent-bit.conf');
    const p = spawn(process.execPath, [BIN, 'guard', fx.storeDir, '--config', conf, '--state-dir', t.dir, '--metrics', '127.0.0.1:0', '--node', 'test-node'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    p.stderr!.on('data', (d) => (err += String(d)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL: ${err}`)), 30_000);
        const tick = setInterval(() => {
          const m = /on (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(err);
          if (m && /guarding /.test(err)) {
            clearInterval(tick);
            clearTimeout(timer);
            resolve(m[1]);
          }
        }, 50);
      });
      const metrics = await (await fetch(`${url}/metrics`)).text();
      const names = [...metrics.matchAll(/^([a-z_]+)(?:\{| )/gm)].map((m) => m[1]);
      expect(names.length).toBeGreaterThan(20);
      expect(names.filter((n) => !n.startsWith('store_doctor_'))).toEqual([]);
      expect(metrics).toMatch(/^store_doctor_index_persisted\{bucket="fb-crash",output="0"\} 6$/m);
      expect(metrics).toMatch(/^store_doctor_index_guarded\{bucket="fb-crash",output="0"\} 6$/m);
      expect(metrics).toMatch(/^store_doctor_index_guarded_final\{bucket="fb-crash",output="0"\} 1$/m);
      expect(metrics).toMatch(/^store_doctor_backlog_chunks\{bucket="fb-crash",kind="current"\} \d+$/m);
      expect(metrics).toMatch(/^store_doctor_sequence_protected\{bucket="fb-crash",output="0"\} 0$/m);
      // key identity: the key format has no node-unique part ($UUID, host, node or pod name)
      expect(metrics).toMatch(
        /^store_doctor_output_info\{bucket="fb-crash",output="0",node="test-node",endpoint="http:\/\/127\.0\.0\.1:\d+",key_format="[^"]*\$INDEX[^"]*",key_node_unique="0"\} 1$/m,
      );
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ state: 'watching', restores: 0 });
      const report = nodeReportSchema.parse(await (await fetch(`${url}/report.json`)).json());
      expect(report.node).toBe('test-node');
      expect(report.outputs).toEqual([expect.objectContaining({ id: 0, persistedIndex: 6, guardedIndex: 6, guardedFinal: true, risks: [] })]);
      expect((await fetch(`${url}/other`)).status).toBe(404);
      expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(405);
    } finally {
      const exited = new Promise<number | null>((r) => p.once('exit', (code) => r(code)));
      p.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});

describe('store-doctor fleet', { timeout: 60_000 }, () => {
  it('summarises 200 node reports as text, JSON and Markdown; exit 4 when an output is at risk', async () => {
    t = tempDir('sd-fleet-cli-');
    writeNodeReports(t.dir, 200);
    const text = await cli(['fleet', t.dir]);
    expect(text.code, text.stderr).toBe(4);
    expect(text.stdout).toMatch(/^200 node\(s\) in .*: 29 with outputs at risk \(29 outputs\)/);
    expect(text.stdout.split('\n').filter((l) => /^node-\d{3} /.test(l))).toHaveLength(200);
    const json = await cli(['fleet', t.dir, '--json']);
    const doc = fleetDocumentSchema.parse(JSON.parse(json.stdout));
    expect(doc.totals.nodes).toBe(200);
    expect(doc.nodes[0].node).toBe('node-000');
    const md = await cli(['fleet', t.dir, '--format', 'markdown']);
    expect(md.stdout.split('\n').filter((l) => l.startsWith('| node-'))).toHaveLength(200);
    expect(md.stdout).toMatch(/## At risk\n\n- \*\*node-000\*\*: s3\.0: seq_index_0 is missing/);
    const none = await cli(['fleet', path.join(t.dir, 'missing')]);
    expect(none.code).toBe(2);
  });
});
