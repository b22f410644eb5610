/**
 * `npm run bench:fleet` (not part of CI): 5,000 nodes in a real Prometheus (Debian's 2.42 on
 * 127.0.0.1). One test exporter serves every node's store_doctor_* series with its own `instance`
 * and `node` labels (scraped with honor_labels, as if 5,000 guards were scraped). Then:
 *   store-doctor fleet --prometheus URL --json, whole process     target ≤ 2 s (median of BENCH_ROUNDS)
 *   Prometheus's own time for the same queries (queryMs)            the reference: printed as a ratio
 *   the Fleet view's rows (at risk only, search, sort by each column) on the 5,000 nodes it answered
 *                                                                   target p95 ≤ 100 ms
 * Prints medians, p95, ratios and PASS/FAIL; exits 1 when a target fails. Stops what it started by PID.
 */
import { spawnSync } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import type { PromFleet } from '../../shared/fleet-prom';
import { promRows, type PromColumn } from '../../renderer/src/views/fleet-prom-rows';
import { tempDir } from '../support/fixtures';
import { startPrometheus } from '../support/prometheus';

const ROOT = path.join(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/store-doctor.cjs');
const NODES = Number(process.env.BENCH_NODES ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function exposition(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const node = `node-${String(i).padStart(4, '0')}`;
    const l = `instance="10.${Math.floor(i / 65536) % 256}.${Math.floor(i / 256) % 256}.${i % 256}:9464",node="${node}"`;
    const atRisk = i % 7 === 0;
    const o = `${l},bucket="logs",output="0"`;
    out.push(`store_doctor_guard_up{${l},state="${atRisk ? 'refused' : 'watching'}"} 1`);
    if (!atRisk) out.push(`store_doctor_index_persisted{${o}} ${100 + i}`);
    out.push(`store_doctor_index_guarded{${o}} ${100 + i}`);
    out.push(`store_doctor_index_file_present{${o}} ${atRisk ? 0 : 1}`);
    out.push(`store_doctor_index_at_risk{${o}} ${atRisk ? 1 : 0}`);
    out.push(`store_doctor_index_restores_total{${o}} ${i % 3}`);
    const keyFormat = i % 13 === 0 ? '/logs/$TAG/$INDEX' : '/logs/$TAG/$UUID/$INDEX';
    out.push(`store_doctor_output_info{${o},endpoint="",key_format="${keyFormat}",key_node_unique="${i % 13 === 0 ? 0 : 1}"} 1`);
    for (const kind of ['current', 'old', 'multipart', 'quarantine']) {
      const k = `${l},bucket="logs",kind="${kind}"`;
      const chunks = kind === 'old' ? i % 50 : kind === 'quarantine' ? (i % 5 === 0 ? 2 : 0) : 1;
      out.push(`store_doctor_backlog_chunks{${k}} ${chunks}`, `store_doctor_backlog_bytes{${k}} ${chunks * 4096}`);
      if (chunks) out.push(`store_doctor_backlog_oldest_age_seconds{${k}} ${(i % 120) * 60}`);
    }
    out.push(`store_doctor_quarantine_chunks{${l},bucket="logs"} ${i % 5 === 0 ? 2 : 0}`);
    out.push(`store_doctor_damaged_chunks{${l},bucket="logs"} ${i % 11 === 0 ? 1 : 0}`);
  }
  return out.join('\n') + '\n';
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const median = (xs: number[]) => pct(xs, 50);

async function main(): Promise<number> {
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-cli.mjs')], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build-cli failed: ${build.stderr}`);
  const body = exposition(NODES);
  const exporter = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end(body);
  });
  await new Promise<void>((r) => exporter.listen(0, '127.0.0.1', r));
  const target = `127.0.0.1:${(exporter.address() as { port: number }).port}`;
  const t = tempDir('sd-bench-fleet-');
  const prom = await startPrometheus(t.dir, { targets: [target], honorLabels: true, scrapeInterval: '5s' });
  try {
    // wait for the state: every node's series in Prometheus
    for (;;) {
      const r = (await (await fetch(`${prom.url}/api/v1/query?query=count(store_doctor_guard_up)`)).json()) as {
        data: { result: { value: [number, string] }[] };
      };
      if (Number(r.data.result[0]?.value[1] ?? 0) >= NODES) break;
      await new Promise((res) => setTimeout(res, 500));
    }
    const wall: number[] = [];
    const promMs: number[] = [];
    let fleet: PromFleet | null = null;
    for (let i = 0; i <= ROUNDS; i++) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [BIN, 'fleet', '--prometheus', prom.url, '--json'], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
      const ms = performance.now() - t0;
      if (r.status !== 4) throw new Error(`fleet --prometheus exited ${r.status}: ${r.stderr}`);
      fleet = JSON.parse(r.stdout) as PromFleet;
      if (i === 0) continue; // warm-up
      wall.push(ms);
      promMs.push(fleet.queryMs);
    }
    if (fleet!.nodes.length !== NODES) throw new Error(`${fleet!.nodes.length} nodes, expected ${NODES}`);
    // the view's filter/sort on what it answered
    const cols: (PromColumn | null)[] = [
      null,
      'node',
      'guardState',
      'outputsAtRisk',
      'backlogChunks',
      'oldestBacklogSeconds',
      'quarantineChunks',
      'damagedChunks',
      'restores',
      'scrapeAgeSeconds',
    ];
    const view: number[] = [];
    for (let round = 0; round < 20; round++)
      for (const key of cols)
        for (const atRiskOnly of [false, true])
          for (const search of ['', 'node-4', 'node-12'] as const) {
            const t0 = performance.now();
            promRows(fleet!.nodes, { atRiskOnly, search, sort: { key, desc: round % 2 === 1 } });
            view.push(performance.now() - t0);
          }
    const fleetMed = median(wall);
    const promMed = median(promMs);
    const viewP95 = pct(view, 95);
    const ok1 = fleetMed <= 2000;
    const ok2 = viewP95 <= 100;
    console.log(`${NODES} nodes, ${body.split('\n').length - 1} series, ${ROUNDS} rounds`);
    console.log(
      `fleet --prometheus (whole process):  median ${fleetMed.toFixed(0)} ms, p95 ${pct(wall, 95).toFixed(0)} ms   target ≤ 2000 ms  ${ok1 ? 'PASS' : 'FAIL'}`,
    );
    console.log(
      `Prometheus's own query time:        median ${promMed.toFixed(0)} ms   ratio fleet/Prometheus ${(fleetMed / Math.max(1, promMed)).toFixed(1)}×`,
    );
    console.log(
      `Fleet view filter/sort (${view.length} runs): p95 ${viewP95.toFixed(1)} ms, median ${median(view).toFixed(1)} ms   target ≤ 100 ms  ${ok2 ? 'PASS' : 'FAIL'}   ratio p95/Prometheus ${(viewP95 / Math.max(1, promMed)).toFixed(2)}×`,
    );
    return ok1 && ok2 ? 0 : 1;
  } finally {
    await prom.stop();
    exporter.close();
    t.cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(err.message);
    process.exit(1);
  },
);
