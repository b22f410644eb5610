/**
 * The fleet on a real Prometheus (Debian's 2.42): three guards on real Fluent Bit stores, each with
 * its own --node, scraped every second; rules.yml loaded (its expressions unchanged, each `for:`
 * scaled from minutes to seconds so the test does not sit through them). The missing-index alert
 * fires for the node whose index is gone and the guard could not restore, and clears after the
 * repair; `store-doctor fleet --prometheus` shows that node first and why, and names the two
 * nodes whose keys collide. Waits for states, never for a time; every process stopped by its PID.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, dispatchRequest } from '../../electron/engine';
import type { PromFleet, PromNodeSeries } from '../../shared/fleet-prom';
import { promFleetDocumentSchema } from '../../shared/json-schemas/fleet-prom';
import { extractFixture, FIXTURES, tempDir, type Extracted } from '../engine/repair/helpers';
import { startPrometheus, type RunningPrometheus } from '../support/prometheus';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/store-doctor.cjs');
const CRASH_CONF = path.join(FIXTURES, 'crash-during-run', 'fluent-bit.conf');
const IR_CONF = path.join(FIXTURES, 'index-reset', 'fluent-bit.conf');
const IR_LISTING = path.join(FIXTURES, 'index-reset', 's3-objects-after-run2.json');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function until<T>(fn: () => Promise<T | null | undefined | false>): Promise<T> {
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    await sleep(250);
  }
}

interface GuardProc {
  node: string;
  proc: ChildProcess;
  target: string;
  fx: Extracted;
}
const guards: GuardProc[] = [];
let prom: RunningPrometheus | null = null;
let t: ReturnType<typeof tempDir>;

async function startGuard(node: string, fx: Extracted, conf: string): Promise<GuardProc> {
  const state = path.join(t.dir, `state-${node}`);
  const proc = spawn(process.execPath, [BIN, 'guard', fx.storeDir, '--config', conf, '--state-dir', state, '--metrics', '127.0.0.1:0', '--node', node], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (d) => (err += String(d)));
  const g: GuardProc = { node, proc, fx, target: '' };
  guards.push(g);
  g.target = await until(
    async () =>
      (/guarding /.test(err) && /on http:\/\/(127\.0\.0\.1:\d+)\/metrics/.exec(err)?.[1]) || (proc.exitCode !== null ? Promise.reject(new Error(err)) : null),
  );
  return g;
}

type Alert = { labels: Record<string, string>; state: string };
const alerts = async (): Promise<Alert[]> => ((await (await fetch(`${prom!.url}/api/v1/alerts`)).json()) as { data: { alerts: Alert[] } }).data.alerts;

describe('fleet on a real Prometheus', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    t = tempDir('sd-prom-');
    // node-a and node-c: healthy stores of the same bucket and key format (no node-unique part); node-b: seq_index gone, nothing known
    const a = await startGuard('node-a', extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash'), CRASH_CONF);
    const b = await startGuard('node-b', extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset'), IR_CONF);
    const c = await startGuard('node-c', extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash'), CRASH_CONF);
    const rules = path.join(t.dir, 'rules.yml');
    writeFileSync(rules, readFileSync(path.join(ROOT, 'deploy/prometheus/rules.yml'), 'utf8').replace(/^(\s+for: \d+)m$/gm, '$1s'));
    prom = await startPrometheus(t.dir, { targets: [a.target, b.target, c.target], rulesFile: rules });
  }, 120_000);

  afterAll(async () => {
    await prom?.stop();
    for (const g of guards.splice(0)) {
      if (g.proc.exitCode === null && g.proc.signalCode === null) {
        const exited = new Promise((r) => g.proc.once('exit', r));
        process.kill(g.proc.pid!, 'SIGTERM');
        await exited;
      }
      g.fx.cleanup();
    }
    t?.cleanup();
  });

  it('the missing-index alert fires for node-b; fleet --prometheus shows it first, why, and the nodes whose keys collide', async () => {
    const b = guards[1];
    const firing = await until(async () => (await alerts()).find((x) => x.labels.alertname === 'StoreDoctorIndexMissing' && x.state === 'firing'));
    expect(firing.labels).toMatchObject({ instance: b.target, bucket: 'fb-index-reset', output: '0', severity: 'critical' });
    expect((await alerts()).filter((x) => x.labels.alertname === 'StoreDoctorIndexMissing').map((x) => x.labels.instance)).toEqual([b.target]);
    await until(async () => (await alerts()).find((x) => x.labels.alertname === 'StoreDoctorKeyCollisionAcrossNodes' && x.state === 'firing'));

    const r = await cli(['fleet', '--prometheus', prom!.url, '--json']);
    expect(r.code, r.stderr).toBe(4);
    const f = promFleetDocumentSchema.parse(JSON.parse(r.stdout)) as PromFleet;
    // node-b (index missing) first; node-a and node-c tie on risk and follow in the order of their
    // backlog age, which moves with the clock: compared as a set
    expect(f.nodes[0].node).toBe('node-b');
    expect(
      f.nodes
        .slice(1)
        .map((n) => n.node)
        .sort(),
    ).toEqual(['node-a', 'node-c']);
    expect(f.nodes[0]).toMatchObject({ instance: b.target, guardState: 'refused', outputs: 1, outputsAtRisk: 1, indexesAtRisk: 1 });
    // node-a and node-c: at risk only by the collision
    expect(f.nodes[0].indexes).toEqual([{ bucket: 'fb-index-reset', output: '0', persisted: null, guarded: null, present: false, atRisk: true }]);
    expect(f.nodes[0].risks).toContain('seq_index_0 of fb-index-reset is missing and the guard could not restore it');
    expect(f.nodes.slice(1).map((n) => [n.outputsAtRisk, n.indexesAtRisk])).toEqual([
      [1, 0],
      [1, 0],
    ]);
    expect(f.nodes[1].indexes).toEqual([{ bucket: 'fb-crash', output: '0', persisted: 6, guarded: 6, present: true, atRisk: false }]);
    expect(f.collisions).toEqual([expect.objectContaining({ code: 'COLLISION_ACROSS_NODES', bucket: 'fb-crash', nodes: ['node-a', 'node-c'] })]);
    expect(f.nodes.every((n) => n.scrapeAgeSeconds !== null && n.scrapeAgeSeconds >= 0)).toBe(true);
    expect(f.warnings).toEqual([]);

    // text, the at-risk filter and search
    const text = await cli(['fleet', '--prometheus', prom!.url, '--at-risk-only', '--node', 'node-b']);
    expect(text.stdout).toMatch(/^3 node\(s\) in http:\/\/127\.0\.0\.1:\d+: 3 with outputs at risk/);
    expect(text.stdout).toMatch(/\nnode-b +127\.0\.0\.1:\d+ +refused +1\/1 +fb-index-reset\/0 missing\/—/);
    expect(text.stdout).not.toMatch(/\nnode-a /);

    // a node's page: its index series over time and its /report.json
    const engine = createEngine({ door: 'cli', watch: false });
    const page = (await dispatchRequest(engine, 'fleet.prometheusNode', { connection: { url: prom!.url }, instance: guards[0].target, hours: 1 })) as {
      ok: true;
      value: PromNodeSeries;
    };
    expect(page.ok).toBe(true);
    expect(page.value.series.map((s) => [s.metric, s.bucket, s.output])).toEqual([
      ['persisted', 'fb-crash', '0'],
      ['guarded', 'fb-crash', '0'],
    ]);
    expect(page.value.series[0].points.length).toBeGreaterThan(0);
    expect(page.value.series[0].points.every((p) => p.v === 6)).toBe(true);
    expect(page.value.report?.node).toBe('node-a');
  });

  it('clears after the repair', async () => {
    const b = guards[1];
    const r = await cli(['restore-index', b.fx.storeDir, '--config', IR_CONF, '--listing', IR_LISTING, '--apply']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    await until(async () => !(await alerts()).some((x) => x.labels.alertname === 'StoreDoctorIndexMissing'));
    const f = await until(async () => {
      const x = await cli(['fleet', '--prometheus', prom!.url, '--json']);
      const doc = JSON.parse(x.stdout) as PromFleet;
      const nb = doc.nodes.find((n) => n.node === 'node-b')!;
      return nb.indexes[0]?.present && nb.guardState === 'watching' ? doc : null;
    });
    expect(f.nodes.find((n) => n.node === 'node-b')!.indexes).toEqual([
      { bucket: 'fb-index-reset', output: '0', persisted: 12, guarded: 12, present: true, atRisk: false },
    ]);
  });

  it('clear errors: nothing answers, not a Prometheus, a bad query answer', async () => {
    const down = await cli(['fleet', '--prometheus', 'http://127.0.0.1:9', '--json']);
    expect(down.code).toBe(1);
    expect(down.stderr).not.toMatch(/Warning/);
    expect(down.stderr).toMatch(/Nothing answers at http:\/\/127\.0\.0\.1:9: connection refused: check the URL and that Prometheus runs/);
    const notProm = await cli(['fleet', '--prometheus', `http://${guards[0].target}`]);
    expect(notProm.code).not.toBe(0);
    expect(notProm.stderr).toMatch(/not a Prometheus API answer|not JSON/);
    const usage = await cli(['fleet', '--prometheus', 'ftp://x']);
    expect(usage.code).toBe(2);
  });
});
