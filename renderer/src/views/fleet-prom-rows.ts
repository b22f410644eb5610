/**
 * The Prometheus fleet table's rows: "at risk only", search by node or instance, sort by a column
 * (default: the engine's at-risk-first order). Pure and linear (one filter pass, one sort with
 * precomputed keys), so 5,000 nodes filter and sort within a frame; the view renders a window.
 */
import type { PromFleetNode } from '../../../shared/fleet-prom';

export type PromColumn =
  'node' | 'guardState' | 'outputsAtRisk' | 'backlogChunks' | 'oldestBacklogSeconds' | 'quarantineChunks' | 'damagedChunks' | 'restores' | 'scrapeAgeSeconds';

export interface PromRowsQuery {
  atRiskOnly: boolean;
  search: string;
  sort: { key: PromColumn | null; desc: boolean };
}

export { formatSeconds } from '../../../shared/fleet-prom';

/** At most this many rows are rendered at once (the rest: refine the search or show more). */
export const ROW_WINDOW = 300;

export function promRows(nodes: PromFleetNode[], q: PromRowsQuery): PromFleetNode[] {
  const s = q.search.trim().toLowerCase();
  let rows = nodes;
  if (q.atRiskOnly || s)
    rows = nodes.filter(
      (n) =>
        (!q.atRiskOnly || n.outputsAtRisk > 0 || n.guardState === 'down') && (!s || n.node.toLowerCase().includes(s) || n.instance.toLowerCase().includes(s)),
    );
  const key = q.sort.key;
  if (!key) return rows; // the engine's order: most at risk first
  const dir = q.sort.desc ? -1 : 1;
  const keyed = rows.map((n) => ({ n, k: n[key] }));
  keyed.sort((a, b) => {
    const x = a.k;
    const y = b.k;
    const c = typeof x === 'string' || typeof y === 'string' ? (String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0) : (x ?? -1) - (y ?? -1);
    return dir * c || (a.n.node < b.n.node ? -1 : a.n.node > b.n.node ? 1 : 0);
  });
  return keyed.map((e) => e.n);
}
