/**
 * The Fleet views' rows: sort by a column (default: the engine's at-risk-first order) for both
 * views; for Prometheus also "at risk only" and search by node or instance. Pure and linear (one
 * filter pass, one sort on keys read once), so 5,000 nodes filter and sort within a frame; the
 * table renders only the rows on screen (components/FleetTable).
 */
import type { FleetNode } from '../../../shared/fleet';
import type { PromFleetNode } from '../../../shared/fleet-prom';

export type FleetBaseColumn =
  'node' | 'guardState' | 'outputsAtRisk' | 'backlogChunks' | 'oldestBacklogSeconds' | 'quarantineChunks' | 'damagedChunks' | 'restores';

export type PromColumn = FleetBaseColumn | 'scrapeAgeSeconds';

/** What a row of either Fleet view has (a folder's FleetNode, Prometheus's PromFleetNode). */
export type FleetRowBase = Pick<FleetNode, Exclude<FleetBaseColumn, 'guardState'> | 'outputs' | 'backlogBytes'> & { guardState: string };

export interface PromRowsQuery {
  atRiskOnly: boolean;
  search: string;
  sort: { key: PromColumn | null; desc: boolean };
}

export { formatSeconds } from '../../../shared/fleet-prom';

/** Rows sorted by a column (numbers: absent lowest; strings by code unit), ties by node name; a new array. */
export function sortFleetRows<R extends FleetRowBase, K extends keyof R & string>(rows: R[], sort: { key: K | null; desc: boolean }): R[] {
  const key = sort.key;
  if (!key) return rows; // the engine's order: most at risk first
  const dir = sort.desc ? -1 : 1;
  const keyed = rows.map((n) => ({ n, k: n[key] as unknown as string | number | null }));
  keyed.sort((a, b) => {
    const x = a.k;
    const y = b.k;
    const c = typeof x === 'string' || typeof y === 'string' ? (String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0) : (x ?? -1) - (y ?? -1);
    return dir * c || (a.n.node < b.n.node ? -1 : a.n.node > b.n.node ? 1 : 0);
  });
  return keyed.map((e) => e.n);
}

export const promAtRisk = (n: PromFleetNode): boolean => n.outputsAtRisk > 0 || n.guardState === 'down';

export function promRows(nodes: PromFleetNode[], q: PromRowsQuery): PromFleetNode[] {
  const s = q.search.trim().toLowerCase();
  let rows = nodes;
  if (q.atRiskOnly || s)
    rows = nodes.filter((n) => (!q.atRiskOnly || promAtRisk(n)) && (!s || n.node.toLowerCase().includes(s) || n.instance.toLowerCase().includes(s)));
  return sortFleetRows(rows, q.sort);
}
