/**
 * `npm run bench:fleet` (not part of CI): 5,000 nodes in a real Prometheus (Debian's 2.42 on
 * 127.0.0.1). One test exporter serves every node's store_doctor_* series with its own `instance`
 * and `node` labels (scraped with honor_labels, as if 5,000 guards were scraped). Then, in one run:
 *   Prometheus's own time: the fleet's instant queries (FLEET_QUERIES) sent at once by a bare HTTP
 *     client, until the last byte of every answer (evaluation, encoding, transfer; nothing parsed)
 *   store-doctor fleet --prometheus URL --json, the whole process   target ≤ 2 s (median of BENCH_ROUNDS)
 *     — the two alternate, round by round, so both see the same machine; printed as a ratio
 *   the Fleet view in Chromium (loopback host, real engine, this Prometheus): at risk only, search,
 *     sort by every column, each from the event to the frame that shows it   target p95 ≤ 100 ms
 *     (BENCH_VIEW=0 skips it; the rows function alone is printed too)
 * Prints the load average, medians, p95, ratios and PASS/FAIL; exits 1 when a target fails. Stops
 * what it started by PID.
 */
import { spawnSync } from 'node:child_process';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { FLEET_QUERIES } from '../../electron/engine/fleet-prom/join';
import type { PromFleet } from '../../shared/fleet-prom';
import { promRows, type PromColumn } from '../../renderer/src/views/fleet-prom-rows';
import { tempDir } from '../support/fixtures';
import { startPrometheus } from '../support/prometheus';
import { benchFleetView } from './fleet-view';

const ROOT = path.join(__dirname, '../..');
/** BENCH_CLI / BENCH_RENDERER: another build to measure (an entry script, a renderer folder); BENCH_CLI_BEFORE: an entry run in the same rounds, alternating, to compare with. */
const BIN = process.env.BENCH_CLI ?? path.join(ROOT, 'bin/store-doctor.cjs');
const BEFORE = process.env.BENCH_CLI_BEFORE;
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
    const load0 = os.loadavg();
    /** The fleet's queries at once, bare (node:http, like the engine's client): until every answer's last byte, nothing parsed. */
    const bare = async () => {
      const t0 = performance.now();
      await Promise.all(
        Object.values(FLEET_QUERIES).map(
          (query) =>
            new Promise<void>((resolve, reject) => {
              const body = new URLSearchParams({ query }).toString();
              const req = http.request(`${prom.url}/api/v1/query`, {
                method: 'POST',
                headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
              });
              req.on('response', (res) => {
                if (res.statusCode !== 200) reject(new Error(`${query}: HTTP ${res.statusCode}`));
                res.on('data', () => undefined);
                res.on('end', () => resolve());
              });
              req.on('error', reject);
              req.end(body);
            }),
        ),
      );
      return performance.now() - t0;
    };
    const wall: number[] = [];
    const promMs: number[] = [];
    const queryMs: number[] = [];
    const before: number[] = [];
    const run = (bin: string) => {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [bin, 'fleet', '--prometheus', prom.url, '--json'], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
      const ms = performance.now() - t0;
      if (r.status !== 4) throw new Error(`${bin} fleet --prometheus exited ${r.status}: ${r.stderr}${r.stdout.slice(0, 600)}`);
      return { ms, doc: JSON.parse(r.stdout) as PromFleet };
    };
    let fleet: PromFleet | null = null;
    for (let i = 0; i <= ROUNDS; i++) {
      const p = await bare();
      const b = BEFORE ? run(BEFORE).ms : 0;
      const { ms, doc } = run(BIN);
      fleet = doc;
      if (i === 0) continue; // warm-up
      wall.push(ms);
      promMs.push(p);
      queryMs.push(fleet.queryMs);
      if (BEFORE) before.push(b);
    }
    if (fleet!.nodes.length !== NODES) throw new Error(`${fleet!.nodes.length} nodes, expected ${NODES}`);
    // the rows function alone, on what the CLI answered
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
    const fn: number[] = [];
    for (let round = 0; round < 20; round++)
      for (const key of cols)
        for (const atRiskOnly of [false, true])
          for (const search of ['', 'node-4', 'node-12'] as const) {
            const t0 = performance.now();
            promRows(fleet!.nodes, { atRiskOnly, search, sort: { key, desc: round % 2 === 1 } });
            fn.push(performance.now() - t0);
          }
    const view = process.env.BENCH_VIEW === '0' ? null : await benchFleetView(prom.url, t.dir, 10, process.env.BENCH_RENDERER);
    const load1 = os.loadavg();
    const fleetMed = median(wall);
    const promMed = median(promMs);
    const changes = view ? [...view.filter, ...view.search, ...view.sort] : fn;
    const viewP95 = pct(changes, 95);
    const ok1 = fleetMed <= 2000;
    const ok2 = viewP95 <= 100 && !view?.errors.length;
    const f = (x: number) => x.toFixed(x < 10 ? 1 : 0);
    console.log(
      `${NODES} nodes, ${body.split('\n').length - 1} series, ${ROUNDS} rounds; load average ${load0.map(f).join(' ')} → ${load1.map(f).join(' ')}, ${os.cpus().length} CPUs`,
    );
    console.log(
      `Prometheus's own time (the fleet's ${Object.keys(FLEET_QUERIES).length} queries, bare): median ${f(promMed)} ms  [${promMs.map(f).join(', ')}]`,
    );
    console.log(
      `fleet --prometheus (whole process):  median ${f(fleetMed)} ms, p95 ${f(pct(wall, 95))} ms  [${wall.map(f).join(', ')}]   target ≤ 2000 ms  ${ok1 ? 'PASS' : 'FAIL'}`,
    );
    if (BEFORE)
      console.log(
        `   before (BENCH_CLI_BEFORE, same rounds): median ${f(median(before))} ms  [${before.map(f).join(', ')}]   ratio before/Prometheus ${(median(before) / Math.max(1, promMed)).toFixed(2)}×`,
      );
    console.log(
      `   ratio fleet/Prometheus ${(fleetMed / Math.max(1, promMed)).toFixed(2)}×; its own queryMs (answers received) median ${f(median(queryMs))} ms`,
    );
    if (view) {
      console.log(`Fleet view in Chromium: Query Prometheus → table painted ${f(view.firstPaintMs)} ms; ${view.rowsInDom} rows in the DOM of ${NODES}`);
      for (const [k, v] of [
        ['at risk only', view.filter],
        ['search', view.search],
        ['sort', view.sort],
      ] as const)
        console.log(`   ${k.padEnd(13)} p95 ${f(pct(v, 95))} ms, median ${f(median(v))} ms, max ${f(Math.max(...v))} ms  (${v.length} changes)`);
      if (view.errors.length) console.log('   page errors:', view.errors);
    }
    console.log(
      `Fleet view filter/sort${view ? '' : ' (rows function only: BENCH_VIEW=0)'}: p95 of ${changes.length} changes ${f(viewP95)} ms   target ≤ 100 ms  ${ok2 ? 'PASS' : 'FAIL'}   ratio p95/Prometheus ${(viewP95 / Math.max(1, promMed)).toFixed(3)}×`,
    );
    console.log(`   the rows function alone (${fn.length} runs): p95 ${f(pct(fn, 95))} ms, median ${f(median(fn))} ms`);
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
