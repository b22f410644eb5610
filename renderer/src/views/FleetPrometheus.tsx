/**
 * The Fleet view from Prometheus: the node table of `fleet.prometheus` (the same request as
 * `store-doctor fleet --prometheus`), at risk first, "at risk only", search by node, sortable; a
 * node's page shows its index series over time (`fleet.prometheusNode`, a range query) and its
 * /report.json where it answers.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { PrometheusConnection, PromFleet, PromFleetNode, PromNodeSeries } from '../../../shared/fleet-prom';
import { describeError } from '../actions/run';
import { getClient } from '../client';
import { ErrorText } from '../components/ErrorText';
import { formatBytes, formatCount } from '../format';
import { fleetColumns, FleetTable, type FleetColumn } from '../components/FleetTable';
import { formatSeconds, promAtRisk, promRows, type PromColumn } from './fleet-prom-rows';

const COLUMNS: FleetColumn<PromFleetNode, PromColumn>[] = [
  ...fleetColumns<PromFleetNode>(),
  {
    key: 'scrapeAgeSeconds',
    label: 'Last scrape',
    num: true,
    cell: (n) => (n.scrapeAgeSeconds === null ? 'not scraped' : `${formatSeconds(n.scrapeAgeSeconds)} ago`),
  },
];
const rowKey = (n: PromFleetNode) => `${n.job} ${n.instance}`;

function SeriesChart({ data }: { data: PromNodeSeries }) {
  const W = 640;
  const H = 200;
  const all = data.series.flatMap((s) => s.points);
  if (!all.length) return <p className="muted">No index series in this range.</p>;
  const minV = Math.min(...all.map((p) => p.v));
  const maxV = Math.max(...all.map((p) => p.v));
  const x = (t: number) => ((t - data.start) / Math.max(1, data.end - data.start)) * W;
  const y = (v: number) => H - 10 - ((v - minV) / Math.max(1, maxV - minV)) * (H - 20);
  return (
    <figure>
      <svg width={W} height={H} role="img" aria-label={`Index series of ${data.node}`} data-testid="prom-node-chart">
        {data.series.map((s) => (
          <polyline
            key={`${s.metric} ${s.bucket} ${s.output}`}
            fill="none"
            stroke={s.metric === 'persisted' ? 'var(--accent, #1565c0)' : 'var(--muted, #888)'}
            strokeDasharray={s.metric === 'guarded' ? '4 3' : undefined}
            points={s.points.map((p) => `${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ')}
          />
        ))}
      </svg>
      <figcaption className="muted">
        {data.series.map((s) => `${s.metric} ${s.bucket}/${s.output}`).join(' · ')} — {new Date(data.start * 1000).toISOString()} to{' '}
        {new Date(data.end * 1000).toISOString()}, step {data.stepSeconds} s, $INDEX {minV}–{maxV}
      </figcaption>
    </figure>
  );
}

function NodePage({ node, conn, onClose }: { node: PromFleetNode; conn: PrometheusConnection; onClose: () => void }) {
  const [data, setData] = useState<PromNodeSeries | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    getClient()
      .request('fleet.prometheusNode', { connection: conn, instance: node.instance, job: node.job || undefined, node: node.node, hours: 6 })
      .then(
        (d) => live && setData(d),
        (e: unknown) => live && setError(describeError(e, 'Querying the node')),
      );
    return () => {
      live = false;
    };
  }, [conn, node]);
  const r = data?.report;
  return (
    <section className="card" aria-label={`Node ${node.node}`}>
      <h3>
        {node.node} <span className="muted">({node.instance})</span>
      </h3>
      <p>
        Guard {node.guardState}; {node.outputsAtRisk}/{node.outputs} output(s) at risk;{' '}
        {node.scrapeAgeSeconds === null ? 'not in the last scrape' : `scraped ${formatSeconds(node.scrapeAgeSeconds)} ago`}.
      </p>
      {node.risks.length > 0 && (
        <ul>
          {node.risks.map((x) => (
            <li key={x} className="at-risk">
              {x}
            </li>
          ))}
        </ul>
      )}
      <ErrorText error={error} />
      {data && <SeriesChart data={data} />}
      {data && !r && <p className="muted">{data.reportError}</p>}
      {r && (
        <p data-testid="prom-node-report">
          /report.json of {r.generatedAt}: guard {r.guard.state}
          {r.guard.stateReason ? ` (${r.guard.stateReason})` : ''}, {r.outputs.length} output(s), store {r.storePath}.
        </p>
      )}
      <button type="button" className="small" onClick={onClose}>
        Back to the fleet
      </button>
    </section>
  );
}

export function FleetPrometheus() {
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [fleet, setFleet] = useState<PromFleet | null>(null);
  const [conn, setConn] = useState<PrometheusConnection | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [atRiskOnly, setAtRiskOnly] = useState(false);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<{ key: PromColumn | null; desc: boolean }>({ key: null, desc: false });
  const [selected, setSelected] = useState<PromFleetNode | null>(null);
  const rows = useMemo(() => promRows(fleet?.nodes ?? [], { atRiskOnly, search, sort }), [fleet, atRiskOnly, search, sort]);

  const open = useCallback((n: PromFleetNode) => setSelected(n), []);

  async function query() {
    setBusy(true);
    setError(null);
    const c: PrometheusConnection = { url: url.trim(), ...(token.trim() ? { bearerToken: token.trim() } : {}) };
    try {
      setFleet(await getClient().request('fleet.prometheus', { connection: c }));
      setConn(c);
      setSelected(null);
    } catch (e) {
      setError(describeError(e, 'Querying Prometheus'));
    } finally {
      setBusy(false);
    }
  }

  const t = fleet?.totals;
  return (
    <>
      <form
        className="card"
        onSubmit={(e) => {
          e.preventDefault();
          void query();
        }}
      >
        <label>
          Prometheus URL
          <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://prometheus:9090" />
        </label>
        <label>
          Bearer token (optional)
          <input type="password" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" />
        </label>
        <button type="submit" disabled={busy || !url.trim()}>
          Query Prometheus
        </button>
      </form>
      <ErrorText error={error} />
      {fleet && t && !selected && (
        <section className="card" aria-label="Nodes from Prometheus">
          <p data-testid="prom-fleet-totals">
            {t.nodes} node(s) in {fleet.prometheus}: {t.nodesAtRisk} with outputs at risk ({t.outputsAtRisk} outputs) · {t.guardsDown} guard(s) down · backlog{' '}
            {formatCount(t.backlogChunks)} chunks ({formatBytes(t.backlogBytes)}) · quarantine {t.quarantineChunks} · damaged {t.damagedChunks}
          </p>
          {fleet.warnings.length > 0 && (
            <ul className="at-risk" aria-label="Prometheus warnings">
              {fleet.warnings.map((w) => (
                <li key={w}>Prometheus warned (the data may be partial): {w}</li>
              ))}
            </ul>
          )}
          {fleet.collisions.map((c) => (
            <p key={`${c.endpoint ?? ''} ${c.bucket} ${c.keyFormat}`} className="at-risk">
              {c.code}: {c.summary}
            </p>
          ))}
          <div className="row">
            <label>
              <input type="checkbox" checked={atRiskOnly} onChange={(e) => setAtRiskOnly(e.target.checked)} /> At risk only
            </label>
            <label>
              Search node
              <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
            </label>
            <span className="muted" data-testid="prom-fleet-shown">
              {rows.length} shown
            </span>
          </div>
          <FleetTable label="Nodes" rows={rows} columns={COLUMNS} sort={sort} onSort={setSort} rowKey={rowKey} isAtRisk={promAtRisk} onOpen={open} />
        </section>
      )}
      {selected && conn && <NodePage node={selected} conn={conn} onClose={() => setSelected(null)} />}
    </>
  );
}
