/**
 * Fleet: a folder of node reports (each guard's /report.json) as one sortable table — node,
 * outputs at risk, backlog, quarantine, damaged, guard state; click a node to see its report.
 * Self-contained: its state is local, its data comes from `fleet.open` (the engine parses and
 * summarises the files with the same parser as `store-doctor fleet`).
 */
import { useCallback, useMemo, useState } from 'react';
import type { FleetNode, FleetSummary } from '../../../shared/fleet';
import { describeError } from '../actions/run';
import { getClient } from '../client';
import { ErrorText } from '../components/ErrorText';
import { formatBytes, formatCount } from '../format';
import { fleetColumns, FleetTable } from '../components/FleetTable';
import { formatSeconds } from '../../../shared/fleet-prom';
import { FleetPrometheus } from './FleetPrometheus';
import { sortFleetRows, type FleetBaseColumn } from './fleet-prom-rows';

const COLUMNS = fleetColumns<FleetNode>();
const rowKey = (n: FleetNode) => n.file;
const isAtRisk = (n: FleetNode) => n.outputsAtRisk > 0;

function NodeReportPanel({ node, onClose }: { node: FleetNode; onClose: () => void }) {
  const r = node.report;
  return (
    <section className="card" aria-label={`Report of ${node.node}`}>
      <h3>
        {node.node} <span className="muted">({node.file})</span>
      </h3>
      <p>
        Guard {r.guard.state}
        {r.guard.stateReason ? ` (${r.guard.stateReason})` : ''} since {r.guard.startedAt}, {r.guard.restores} restore(s); store {r.storePath}; report of{' '}
        {r.generatedAt}.
      </p>
      <table className="compact">
        <thead>
          <tr>
            <th>Output</th>
            <th>Bucket</th>
            <th className="num">Persisted index</th>
            <th className="num">Guarded</th>
            <th>sequence/</th>
            <th>Risks</th>
          </tr>
        </thead>
        <tbody>
          {r.outputs.map((o) => (
            <tr key={`${o.bucket}/${o.id}`}>
              <td>{o.displayName}</td>
              <td>{o.bucket}</td>
              <td className="num">{o.persistedIndex ?? 'missing'}</td>
              <td className="num">
                {o.guardedIndex ?? '—'}
                {o.guardedIndex !== null && !o.guardedFinal ? ' (not final)' : ''}
              </td>
              <td>{!o.sequencePresent ? 'missing' : o.sequenceProtected ? 'protected (marker)' : 'present'}</td>
              <td>{o.risks.length ? o.risks.join('; ') : 'none seen'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4>Backlog</h4>
      <ul>
        {r.roots.map((root) => (
          <li key={root.rootPath}>
            {root.bucket}:{' '}
            {root.backlog.map((b) => `${b.kind} ${formatCount(b.chunks)} (${formatBytes(b.bytes)}, oldest ${formatSeconds(b.oldestAgeSeconds)})`).join(', ')};
            quarantine {root.quarantineChunks}, damaged {root.damagedChunks}
          </li>
        ))}
      </ul>
      {r.guard.messages.length > 0 && (
        <>
          <h4>Guard log</h4>
          <pre className="wrap">{r.guard.messages.slice(-20).join('\n')}</pre>
        </>
      )}
      <button type="button" className="small" onClick={onClose}>
        Back to the fleet
      </button>
    </section>
  );
}

export function FleetView() {
  const [folder, setFolder] = useState('');
  const [summary, setSummary] = useState<FleetSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sort, setSort] = useState<{ key: FleetBaseColumn | null; desc: boolean }>({ key: null, desc: false });
  const [selected, setSelected] = useState<string | null>(null);
  const rows = useMemo(() => sortFleetRows(summary?.nodes ?? [], sort), [summary, sort]);
  const openNode = useCallback((n: FleetNode) => setSelected(n.file), []);

  async function open() {
    setBusy(true);
    setError(null);
    try {
      setSummary(await getClient().request('fleet.open', { path: folder.trim() }));
      setSelected(null);
    } catch (e) {
      setError(describeError(e, 'Opening the fleet folder'));
    } finally {
      setBusy(false);
    }
  }

  const node = selected ? (summary?.nodes.find((n) => n.file === selected) ?? null) : null;
  const t = summary?.totals;
  return (
    <div className="view">
      <h2>Fleet</h2>
      <FleetPrometheus />
      <form
        className="card"
        onSubmit={(e) => {
          e.preventDefault();
          void open();
        }}
      >
        <label>
          Folder of report.json files
          <input value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="/srv/fleet-reports" />
        </label>
        <button type="submit" disabled={busy || !folder.trim()}>
          Open fleet
        </button>
      </form>
      <ErrorText error={error} />
      {summary && t && !node && (
        <section className="card" aria-label="Nodes">
          <p data-testid="fleet-totals">
            {t.nodes} node(s): {t.nodesAtRisk} with outputs at risk ({t.outputsAtRisk} outputs) · backlog {formatCount(t.backlogChunks)} chunks (
            {formatBytes(t.backlogBytes)}) · quarantine {t.quarantineChunks} · damaged {t.damagedChunks}
          </p>
          <FleetTable label="Nodes" rows={rows} columns={COLUMNS} sort={sort} onSort={setSort} rowKey={rowKey} isAtRisk={isAtRisk} onOpen={openNode} />
          {summary.collisions.length > 0 && (
            <>
              <h3>Keys that overwrite each other across nodes</h3>
              <ul data-testid="fleet-collisions">
                {summary.collisions.map((c) => (
                  <li key={`${c.endpoint ?? ''} ${c.bucket} ${c.keyFormat}`} className="at-risk">
                    {c.code}: {c.summary}
                  </li>
                ))}
              </ul>
            </>
          )}
          {summary.skipped.length > 0 && (
            <>
              <h3>Not read</h3>
              <ul>
                {summary.skipped.map((s) => (
                  <li key={s.file}>
                    {s.file}: {s.error}
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
      {node && <NodeReportPanel node={node} onClose={() => setSelected(null)} />}
    </div>
  );
}
