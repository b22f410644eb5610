/**
 * The fleet from a real Prometheus (Debian's 2.42) scraping guards the way a cluster does, not the
 * way the other tests do: target labels as prometheus-operator's PodMonitor sets them (endpoint =
 * the port name, namespace, pod) and honor_labels off, so Prometheus itself renames the guard's
 * `endpoint` label to `exported_endpoint`. Three stand-in guards serve the store_doctor_* series a
 * guard serves: guard-a with two outputs (one index missing), guard-b sharing guard-a's bucket,
 * endpoint and key format (a collision), guard-c the same bucket and format with no endpoint (not
 * the same objects: no collision), and then guard-c stops answering (down). Waits for states.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prometheusFleet } from '../../../electron/engine/fleet-prom/fleet';
import type { PromFleet } from '../../../shared/fleet-prom';
import { tempDir } from '../../support/fixtures';
import { startPrometheus, type RunningPrometheus } from '../../support/prometheus';

interface Out {
  bucket: string;
  output: string;
  persisted: number | null;
  guarded: number;
  endpoint: string;
  keyFormat: string;
  unique: boolean;
}
function exposition(node: string, outs: Out[]): string {
  const l: string[] = [`store_doctor_guard_up{node="${node}",state="${outs.some((o) => o.persisted === null) ? 'refused' : 'watching'}"} 1`];
  for (const o of outs) {
    const k = `bucket="${o.bucket}",output="${o.output}"`;
    if (o.persisted !== null) l.push(`store_doctor_index_persisted{${k}} ${o.persisted}`);
    l.push(`store_doctor_index_file_present{${k}} ${o.persisted === null ? 0 : 1}`);
    l.push(`store_doctor_index_guarded{${k}} ${o.guarded}`);
    l.push(`store_doctor_index_at_risk{${k}} ${o.persisted === null ? 1 : 0}`);
    l.push(`store_doctor_index_restores_total{${k}} 0`);
    // what prom-client writes for endpoint="" (Prometheus drops an empty label)
    l.push(`store_doctor_output_info{${k},node="${node}",endpoint="${o.endpoint}",key_format="${o.keyFormat}",key_node_unique="${o.unique ? 1 : 0}"} 1`);
    for (const kind of ['current', 'quarantine'])
      l.push(`store_doctor_backlog_chunks{bucket="${o.bucket}",kind="${kind}"} 3`, `store_doctor_backlog_bytes{bucket="${o.bucket}",kind="${kind}"} 300`);
  }
  return l.join('\n') + '\n';
}

const shared = { bucket: 'audit', keyFormat: '/audit/$TAG/$INDEX', unique: false, guarded: 12 };
const GUARDS: Record<string, Out[]> = {
  'guard-a': [
    { bucket: 'app', output: '1', persisted: 40, guarded: 40, endpoint: 's3.example', keyFormat: '/app/${HOSTNAME}/$INDEX', unique: true },
    { ...shared, output: '0', persisted: null, endpoint: 's3.example' },
  ],
  'guard-b': [{ ...shared, output: '0', persisted: 12, endpoint: 's3.example' }],
  'guard-c': [{ ...shared, output: '0', persisted: 12, endpoint: '' }],
};

const servers: http.Server[] = [];
const stopped = new Set<string>();
const targets: Record<string, string> = {};
let prom: RunningPrometheus | null = null;
let t: ReturnType<typeof tempDir>;

async function until<T>(fn: () => Promise<T | null | undefined | false>): Promise<T> {
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('fleet from a real Prometheus with PodMonitor target labels', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    t = tempDir('sd-prom-labels-');
    for (const [node, outs] of Object.entries(GUARDS)) {
      const body = exposition(node, outs);
      const s = http.createServer((_q, res) => {
        if (stopped.has(node)) {
          res.writeHead(503);
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
        res.end(body);
      });
      servers.push(s);
      await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
      targets[node] = `127.0.0.1:${(s.address() as AddressInfo).port}`;
    }
    const targetLabels = Object.fromEntries(
      Object.entries(targets).map(([node, target]) => [target, { endpoint: 'metrics', namespace: 'logging', pod: `fluent-bit-${node.slice(-1)}` }]),
    );
    prom = await startPrometheus(t.dir, { targets: Object.values(targets), job: 'logging/store-doctor-guard', targetLabels });
  }, 60_000);

  afterAll(async () => {
    await prom?.stop();
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
    t?.cleanup();
  });

  it('reads endpoint and node as the scrape left them; two outputs on one node; the collision names guard-a and guard-b only', async () => {
    const f: PromFleet = await until(async () => {
      const x = await prometheusFleet({ url: prom!.url });
      return x.nodes.length === 3 && x.nodes.every((n) => n.outputs > 0) && x.collisions.length ? x : null;
    });
    expect(f.warnings).toEqual([]);
    expect(f.nodes.map((n) => [n.node, n.instance, n.job, n.guardState, n.outputs, n.outputsAtRisk, n.indexesAtRisk])).toEqual([
      ['guard-a', targets['guard-a'], 'logging/store-doctor-guard', 'refused', 2, 1, 1],
      ['guard-b', targets['guard-b'], 'logging/store-doctor-guard', 'watching', 1, 1, 0],
      ['guard-c', targets['guard-c'], 'logging/store-doctor-guard', 'watching', 1, 0, 0],
    ]);
    expect(f.nodes[0].indexes).toEqual([
      { bucket: 'app', output: '1', persisted: 40, guarded: 40, present: true, atRisk: false },
      { bucket: 'audit', output: '0', persisted: null, guarded: 12, present: false, atRisk: true },
    ]);
    // backlog without quarantine, summed over both buckets
    expect(f.nodes[0]).toMatchObject({ backlogChunks: 6, backlogBytes: 600 });
    expect(f.collisions.map((c) => [c.bucket, c.endpoint, c.keyFormat, c.nodes])).toEqual([
      ['audit', 's3.example', '/audit/$TAG/$INDEX', ['guard-a', 'guard-b']],
    ]);
  });

  it('a guard that stops answering is down, with why; the others stay as they were', async () => {
    stopped.add('guard-c');
    const f = await until(async () => {
      const x = await prometheusFleet({ url: prom!.url });
      return x.nodes.find((n) => n.node === 'guard-c')?.guardState === 'down' ? x : null;
    });
    expect(f.nodes.map((n) => [n.node, n.guardState])).toEqual([
      ['guard-a', 'refused'],
      ['guard-b', 'watching'],
      ['guard-c', 'down'],
    ]);
    expect(f.nodes[2]).toMatchObject({ instance: targets['guard-c'], scrapeAgeSeconds: null, outputsAtRisk: 0 });
    expect(f.nodes[2].risks).toEqual(['the guard was seen in the last hour but not in the last scrape: nothing guards $INDEX on this node']);
    expect(f.totals.guardsDown).toBe(1);
  });
});
