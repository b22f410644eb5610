/**
 * The fleet's node table from Prometheus: a fixed set of instant queries over the guards'
 * store_doctor_* series (one per fact, aggregated by target or output in Prometheus, so the answers
 * stay small for thousands of nodes), run at once and joined by scrape target (./join.ts). A node's page: its index series over
 * time (range query, bounded points) and its /report.json where it answers.
 */
import { setMaxListeners } from 'node:events';
import { escapeField } from '../../../shared/escape';
import { MAX_REPORT_BYTES, parseNodeReport } from '../../../shared/fleet';
import { PROM_FLEET_SCHEMA, type PrometheusConnection, type PromFleet, type PromFleetNode, type PromNodeSeries } from '../../../shared/fleet-prom';
import { EngineError } from '../engine-error';
import { promClient } from './client';
import { FLEET_QUERIES, joinFleet, type FleetAnswers } from './join';

export async function prometheusFleet(conn: PrometheusConnection, signal?: AbortSignal): Promise<PromFleet> {
  const client = await promClient(conn);
  if (signal) setMaxListeners(64, signal); // one listener per query in flight
  const names = Object.keys(FLEET_QUERIES) as (keyof typeof FLEET_QUERIES)[];
  const answers = await Promise.all(names.map((k) => client.query(FLEET_QUERIES[k], signal)));
  const { nodes: out, collisions } = joinFleet(Object.fromEntries(names.map((k, i) => [k, answers[i].result])) as FleetAnswers);
  const sum = (f: (n: PromFleetNode) => number) => out.reduce((s, n) => s + f(n), 0);
  return {
    schema: PROM_FLEET_SCHEMA,
    prometheus: client.url,
    queriedAt: new Date().toISOString(),
    nodes: out,
    collisions,
    warnings: [...new Set(answers.flatMap((x) => x.warnings))],
    queryMs: Math.round(answers.reduce((s, x) => Math.max(s, x.ms), 0)),
    totals: {
      nodes: out.length,
      nodesAtRisk: out.filter((n) => n.outputsAtRisk > 0).length,
      outputsAtRisk: sum((n) => n.outputsAtRisk),
      guardsDown: out.filter((n) => n.guardState === 'down').length,
      backlogChunks: sum((n) => n.backlogChunks),
      backlogBytes: sum((n) => n.backlogBytes),
      quarantineChunks: sum((n) => n.quarantineChunks),
      damagedChunks: sum((n) => n.damagedChunks),
    },
  };
}

/** A label value inside a PromQL string literal. */
const lit = (s: string) => JSON.stringify(s);
/** At most this many points per series in a node's chart. */
const MAX_POINTS = 500;

export async function prometheusNodeSeries(
  conn: PrometheusConnection,
  req: { instance: string; job?: string; node?: string; hours?: number; fetchReport?: boolean },
  signal?: AbortSignal,
): Promise<PromNodeSeries> {
  if (!/^[A-Za-z0-9._\-[\]:]{1,300}$/.test(req.instance))
    throw new EngineError('invalid-input', `instance ${escapeField(req.instance.slice(0, 100))}: not host:port`);
  const client = await promClient(conn);
  if (signal) setMaxListeners(64, signal);
  const end = Math.floor(Date.now() / 1000);
  const start = end - Math.round((req.hours ?? 6) * 3600);
  const step = Math.max(15, Math.ceil((end - start) / MAX_POINTS));
  const sel = `{instance=${lit(req.instance)}${req.job ? `,job=${lit(req.job)}` : ''}}`;
  const [p, g] = await Promise.all([
    client.queryRange(`store_doctor_index_persisted${sel}`, start, end, step, signal),
    client.queryRange(`store_doctor_index_guarded${sel}`, start, end, step, signal),
  ]);
  const series = [...p.result.map((s) => ({ metric: 'persisted' as const, s })), ...g.result.map((s) => ({ metric: 'guarded' as const, s }))].map(
    ({ metric, s }) => ({
      metric,
      bucket: s.metric.bucket ?? '',
      output: s.metric.output ?? '',
      points: (s.values ?? []).slice(-MAX_POINTS * 2).map(([t, v]) => ({ t: Number(t), v: Number(v) })),
    }),
  );
  let report: PromNodeSeries['report'] = null;
  let reportError: string | null = null;
  if (req.fetchReport !== false) {
    try {
      const r = await fetch(`http://${req.instance}/report.json`, {
        signal: AbortSignal.any([AbortSignal.timeout(5000), ...(signal ? [signal] : [])]),
        redirect: 'error',
      });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const len = Number(r.headers.get('content-length') ?? 0);
      if (len > MAX_REPORT_BYTES) throw new Error('larger than 4 MiB');
      const text = await r.text();
      if (text.length > MAX_REPORT_BYTES) throw new Error('larger than 4 MiB');
      const parsed = parseNodeReport(text);
      if (parsed.ok) report = parsed.report;
      else reportError = parsed.error;
    } catch (err) {
      reportError = `http://${escapeField(req.instance)}/report.json not reachable from here: ${escapeField((err as Error).message)}`;
    }
  }
  return {
    node: req.node ?? req.instance,
    instance: req.instance,
    start,
    end,
    stepSeconds: step,
    series,
    warnings: [...p.warnings, ...g.warnings],
    report,
    reportError,
  };
}
