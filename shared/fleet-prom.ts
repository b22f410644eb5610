/**
 * The fleet from Prometheus (`store-doctor fleet --prometheus URL`, the Fleet view's Prometheus
 * URL): the connection a request carries, and the node table built from instant queries of the
 * guards' store_doctor_* series. Isomorphic.
 */
import { z } from 'zod';
import type { NodeCollision } from './fleet-collisions';
import type { GuardState, NodeReport } from './fleet';

export const PROM_FLEET_SCHEMA = 'store-doctor/fleet-prometheus@1';

const file = z.string().min(1).max(4096);
export const prometheusConnectionSchema = z
  .object({
    /** http(s)://host:port[/prefix] of the Prometheus HTTP API (…/api/v1/… is appended). */
    url: z
      .string()
      .min(1)
      .max(2048)
      .regex(/^https?:\/\/[^\s]+$/i, 'an http:// or https:// URL'),
    bearerToken: z.string().min(1).max(16_384).optional(),
    basicAuth: z
      .object({ username: z.string().max(1024), password: z.string().max(16_384) })
      .strict()
      .optional(),
    tls: z
      .object({
        caFile: file.optional(),
        certFile: file.optional(),
        keyFile: file.optional(),
        /** Like Prometheus's insecure_skip_verify: the server's certificate is not checked. */
        insecureSkipVerify: z.boolean().optional(),
        serverName: z.string().max(253).optional(),
      })
      .strict()
      .optional(),
    /** Per query, milliseconds (default 10 000, at most 120 000). */
    timeoutMs: z.number().int().min(100).max(120_000).optional(),
  })
  .strict();
export type PrometheusConnection = z.infer<typeof prometheusConnectionSchema>;

export type PromGuardState = GuardState | 'down';

export interface PromIndex {
  bucket: string;
  output: string;
  persisted: number | null;
  guarded: number | null;
  present: boolean;
  atRisk: boolean;
}

export interface PromFleetNode {
  node: string;
  /** The scrape target (host:port): its /report.json is at http://<instance>/report.json. */
  instance: string;
  job: string;
  /** The guard's own state; "down": seen in the last hour, not in the last scrape. */
  guardState: PromGuardState;
  outputs: number;
  outputsAtRisk: number;
  /** Index files missing or below the guarded value (sorted first: the next start overwrites). */
  indexesAtRisk: number;
  /** Why each output is at risk (from the series: missing index, below guarded, guard down, collision). */
  risks: string[];
  indexes: PromIndex[];
  backlogChunks: number;
  backlogBytes: number;
  oldestBacklogSeconds: number | null;
  quarantineChunks: number;
  damagedChunks: number;
  restores: number;
  /** Seconds since the guard's series were last scraped (null: not scraped in the last hour). */
  scrapeAgeSeconds: number | null;
}

export interface PromFleet {
  schema: typeof PROM_FLEET_SCHEMA;
  prometheus: string;
  queriedAt: string;
  /** Most at risk first (the same order as the folder summary). */
  nodes: PromFleetNode[];
  collisions: NodeCollision[];
  /** Prometheus's own warnings (partial data, …), each naming the query. */
  warnings: string[];
  /** Until the last byte of the last answer of the instant queries (sent at once), ms: Prometheus's time as this client sees it, parsing not included. */
  queryMs: number;
  totals: {
    nodes: number;
    nodesAtRisk: number;
    outputsAtRisk: number;
    guardsDown: number;
    backlogChunks: number;
    backlogBytes: number;
    quarantineChunks: number;
    damagedChunks: number;
  };
}

export interface PromSeriesPoint {
  t: number;
  v: number;
}
export interface PromNodeSeries {
  node: string;
  instance: string;
  start: number;
  end: number;
  stepSeconds: number;
  series: { metric: 'persisted' | 'guarded'; bucket: string; output: string; points: PromSeriesPoint[] }[];
  warnings: string[];
  /** The guard's /report.json when it answered (null: not reachable, with why). */
  report: NodeReport | null;
  reportError: string | null;
}

const atRiskFirst = (a: PromFleetNode, b: PromFleetNode): number =>
  b.indexesAtRisk - a.indexesAtRisk ||
  b.outputsAtRisk - a.outputsAtRisk ||
  Number(b.guardState === 'down') - Number(a.guardState === 'down') ||
  b.damagedChunks - a.damagedChunks ||
  b.quarantineChunks - a.quarantineChunks ||
  (b.oldestBacklogSeconds ?? -1) - (a.oldestBacklogSeconds ?? -1) ||
  (a.node < b.node ? -1 : a.node > b.node ? 1 : a.instance < b.instance ? -1 : a.instance > b.instance ? 1 : 0);

export function sortAtRiskFirst(nodes: PromFleetNode[]): PromFleetNode[] {
  return nodes.sort(atRiskFirst);
}

/** Seconds as "45 s", "12 min", "3.5 h", "2.0 d"; "—" for null. */
export function formatSeconds(s: number | null): string {
  if (s === null) return '—';
  if (s >= 86400) return `${(s / 86400).toFixed(1)} d`;
  if (s >= 3600) return `${(s / 3600).toFixed(1)} h`;
  if (s >= 60) return `${Math.round(s / 60)} min`;
  return `${Math.round(s)} s`;
}
