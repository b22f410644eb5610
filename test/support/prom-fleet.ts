/**
 * Generated Prometheus fleets for the view tests and the bench: node i is at risk every 7th
 * (index missing), down every 17th, has i old chunks, and was scraped i % 30 seconds ago.
 */
import { PROM_FLEET_SCHEMA, sortAtRiskFirst, type PromFleet, type PromFleetNode } from '../../shared/fleet-prom';

export function promNode(i: number): PromFleetNode {
  const atRisk = i % 7 === 0;
  const down = !atRisk && i % 17 === 0;
  return {
    node: `node-${String(i).padStart(4, '0')}`,
    instance: `10.0.${Math.floor(i / 250)}.${i % 250}:9464`,
    job: 'store-doctor-guard',
    guardState: down ? 'down' : atRisk ? 'refused' : 'watching',
    outputs: 1,
    outputsAtRisk: atRisk ? 1 : 0,
    indexesAtRisk: atRisk ? 1 : 0,
    risks: atRisk
      ? ['seq_index_0 of logs is missing and the guard could not restore it']
      : down
        ? ['the guard was seen in the last hour but not in the last scrape']
        : [],
    indexes: [{ bucket: 'logs', output: '0', persisted: atRisk ? null : 100 + i, guarded: 100 + i, present: !atRisk, atRisk }],
    backlogChunks: i,
    backlogBytes: i * 1000,
    oldestBacklogSeconds: i ? i * 60 : null,
    quarantineChunks: i % 5 === 0 ? 2 : 0,
    damagedChunks: i % 11 === 0 ? 1 : 0,
    restores: i % 3,
    scrapeAgeSeconds: down ? null : i % 30,
  };
}

export function promFleet(n: number): PromFleet {
  const nodes = sortAtRiskFirst(Array.from({ length: n }, (_, i) => promNode(i)));
  const sum = (f: (x: PromFleetNode) => number) => nodes.reduce((s, x) => s + f(x), 0);
  return {
    schema: PROM_FLEET_SCHEMA,
    prometheus: 'http://prometheus:9090',
    queriedAt: new Date(Date.UTC(2026, 11, 1)).toISOString(),
    nodes,
    collisions: [],
    warnings: [],
    queryMs: 12,
    totals: {
      nodes: n,
      nodesAtRisk: nodes.filter((x) => x.outputsAtRisk > 0).length,
      outputsAtRisk: sum((x) => x.outputsAtRisk),
      guardsDown: nodes.filter((x) => x.guardState === 'down').length,
      backlogChunks: sum((x) => x.backlogChunks),
      backlogBytes: sum((x) => x.backlogBytes),
      quarantineChunks: sum((x) => x.quarantineChunks),
      damagedChunks: sum((x) => x.damagedChunks),
    },
  };
}
