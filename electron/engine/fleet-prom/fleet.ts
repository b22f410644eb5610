/**
 * The fleet's node table from Prometheus: a fixed set of instant queries over the guards'
 * store_doctor_* series (one per fact, aggregated by target in Prometheus, so the answer stays
 * small for thousands of nodes), joined by scrape target. A node's page: its index series over
 * time (range query, bounded points) and its /report.json where it answers.
 */
import { setMaxListeners } from 'node:events';
import { escapeField } from '../../../shared/escape';
import { crossNodeCollisions, type KeyIdentity } from '../../../shared/fleet-collisions';
import { GUARD_STATES, MAX_REPORT_BYTES, parseNodeReport } from '../../../shared/fleet';
import {
  PROM_FLEET_SCHEMA,
  sortAtRiskFirst,
  type PrometheusConnection,
  type PromFleet,
  type PromFleetNode,
  type PromGuardState,
  type PromNodeSeries,
} from '../../../shared/fleet-prom';
import { EngineError } from '../engine-error';
import { promClient, type PromSample } from './client';

const Q = {
  up: 'store_doctor_guard_up',
  seen: 'last_over_time(store_doctor_guard_up[1h])',
  age: 'time() - timestamp(store_doctor_guard_up)',
  persisted: 'store_doctor_index_persisted',
  guarded: 'store_doctor_index_guarded',
  present: 'store_doctor_index_file_present',
  atRisk: 'store_doctor_index_at_risk',
  backlogChunks: 'sum by (instance, job) (store_doctor_backlog_chunks{kind!="quarantine"})',
  backlogBytes: 'sum by (instance, job) (store_doctor_backlog_bytes{kind!="quarantine"})',
  oldest: 'max by (instance, job) (store_doctor_backlog_oldest_age_seconds{kind!="quarantine"})',
  quarantine: 'sum by (instance, job) (store_doctor_quarantine_chunks)',
  damaged: 'sum by (instance, job) (store_doctor_damaged_chunks)',
  restores: 'sum by (instance, job) (store_doctor_index_restores_total)',
  info: 'store_doctor_output_info',
} as const;

const num = (s: PromSample): number => Number(s.value?.[1] ?? NaN);
const target = (m: Record<string, string>) => `${m.job ?? ''}\u0000${m.instance ?? ''}`;

export async function prometheusFleet(conn: PrometheusConnection, signal?: AbortSignal): Promise<PromFleet> {
  const client = await promClient(conn);
  if (signal) setMaxListeners(64, signal); // one listener per query in flight
  const names = Object.keys(Q) as (keyof typeof Q)[];
  const answers = await Promise.all(names.map((k) => client.query(Q[k], signal)));
  const a = Object.fromEntries(names.map((k, i) => [k, answers[i]])) as Record<keyof typeof Q, (typeof answers)[number]>;
  const nodes = new Map<string, PromFleetNode & { _risky: Set<string> }>();
  const get = (m: Record<string, string>): (PromFleetNode & { _risky: Set<string> }) | undefined => nodes.get(target(m));
  const add = (m: Record<string, string>, state: PromGuardState) => {
    const k = target(m);
    if (nodes.has(k)) return;
    nodes.set(k, {
      node: m.node || m.instance || '(unknown)',
      instance: m.instance ?? '',
      job: m.job ?? '',
      guardState: state,
      outputs: 0,
      outputsAtRisk: 0,
      indexesAtRisk: 0,
      risks: [],
      indexes: [],
      backlogChunks: 0,
      backlogBytes: 0,
      oldestBacklogSeconds: null,
      quarantineChunks: 0,
      damagedChunks: 0,
      restores: 0,
      scrapeAgeSeconds: null,
      _risky: new Set(),
    });
  };
  const state = (s: string | undefined): PromGuardState => ((GUARD_STATES as readonly string[]).includes(s ?? '') ? (s as PromGuardState) : 'error');
  for (const s of a.up.result) add(s.metric, state(s.metric.state));
  for (const s of a.seen.result) add(s.metric, 'down');
  for (const s of a.age.result) {
    const n = get(s.metric);
    if (n) n.scrapeAgeSeconds = Math.max(0, num(s));
  }
  const idx = new Map<string, PromFleetNode['indexes'][number]>();
  const index = (m: Record<string, string>) => {
    const n = get(m);
    if (!n) return null;
    const k = `${target(m)}\u0000${m.bucket}\u0000${m.output}`;
    let i = idx.get(k);
    if (!i) {
      i = { bucket: m.bucket ?? '', output: m.output ?? '', persisted: null, guarded: null, present: true, atRisk: false };
      idx.set(k, i);
      n.indexes.push(i);
    }
    return i;
  };
  for (const s of a.persisted.result) {
    const i = index(s.metric);
    if (i) i.persisted = num(s);
  }
  for (const s of a.guarded.result) {
    const i = index(s.metric);
    if (i) i.guarded = num(s);
  }
  for (const s of a.present.result) {
    const i = index(s.metric);
    if (i) i.present = num(s) === 1;
  }
  for (const s of a.atRisk.result) {
    const i = index(s.metric);
    if (i) i.atRisk = num(s) === 1;
  }
  const sumInto = (r: PromSample[], f: (n: PromFleetNode, v: number) => void) => {
    for (const s of r) {
      const n = get(s.metric);
      if (n && Number.isFinite(num(s))) f(n, num(s));
    }
  };
  sumInto(a.backlogChunks.result, (n, v) => (n.backlogChunks = v));
  sumInto(a.backlogBytes.result, (n, v) => (n.backlogBytes = v));
  sumInto(a.oldest.result, (n, v) => (n.oldestBacklogSeconds = v));
  sumInto(a.quarantine.result, (n, v) => (n.quarantineChunks = v));
  sumInto(a.damaged.result, (n, v) => (n.damagedChunks = v));
  sumInto(a.restores.result, (n, v) => (n.restores = v));
  const ids: (KeyIdentity & { t: string; output: string })[] = [];
  for (const s of a.info.result) {
    const n = get(s.metric);
    if (!n) continue;
    const m = s.metric;
    ids.push({
      t: target(m),
      output: m.output ?? '',
      node: n.node,
      bucket: m.bucket ?? '',
      endpoint: m.endpoint || null,
      keyFormat: m.key_format ?? '',
      keyNodeUnique: m.key_node_unique === '1',
    });
  }
  for (const n of nodes.values()) {
    for (const i of n.indexes) {
      const o = `seq_index_${i.output} of ${i.bucket}`;
      if (!i.present) n.risks.push(`${o} is missing${i.atRisk ? ' and the guard could not restore it' : ' (the guard is restoring it)'}`);
      if (i.persisted !== null && i.guarded !== null && i.persisted < i.guarded) n.risks.push(`${o} holds ${i.persisted}, below the guarded ${i.guarded}`);
      if (i.atRisk && i.present && !(i.persisted !== null && i.guarded !== null && i.persisted < i.guarded))
        n.risks.push(`${o} is at risk (its /report.json says why)`);
      if (i.atRisk || !i.present || (i.persisted !== null && i.guarded !== null && i.persisted < i.guarded)) {
        n._risky.add(`${i.bucket}\u0000${i.output}`);
        n.indexesAtRisk++;
      }
    }
    if (n.guardState === 'down') n.risks.push('the guard was seen in the last hour but not in the last scrape: nothing guards $INDEX on this node');
    if (n.guardState === 'refused') n.risks.push('the guard refused a restore (its /report.json says why)');
  }
  const collisions = crossNodeCollisions(ids);
  for (const c of collisions)
    for (const id of ids)
      if (!id.keyNodeUnique && id.bucket === c.bucket && id.keyFormat === c.keyFormat && (id.endpoint ?? null) === c.endpoint) {
        const n = nodes.get(id.t)!;
        n.risks.push(`COLLISION_ACROSS_NODES: ${c.summary}`);
        n._risky.add(`${id.bucket}\u0000${id.output}`);
      }
  const infoCount = new Map<string, number>();
  for (const i of ids) infoCount.set(i.t, (infoCount.get(i.t) ?? 0) + 1);
  const out: PromFleetNode[] = [];
  for (const n of nodes.values()) {
    const { _risky, ...rest } = n;
    rest.outputs = Math.max(rest.indexes.length, infoCount.get(target({ job: n.job, instance: n.instance })) ?? 0);
    rest.outputsAtRisk = _risky.size;
    rest.risks = [...new Set(rest.risks)].slice(0, 20);
    out.push(rest);
  }
  sortAtRiskFirst(out);
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
