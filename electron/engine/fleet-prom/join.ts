/**
 * The fleet's node table from the answers of FLEET_QUERIES: one pass over each answer, joined by
 * scrape target (job, instance) through a map — linear in the series, whatever the fleet's size.
 *
 * Label names as scrapes leave them: the guard's own `node` and `endpoint` labels become
 * `exported_node` / `exported_endpoint` where the scrape config adds a target label of that name
 * (prometheus-operator's PodMonitor adds `endpoint`, a relabelling may add `node`) and
 * honor_labels is off; an `endpoint` label on store_doctor_guard_up (which the guard never sets)
 * tells that the target's `endpoint` is not the output's. A guard seen in the last hour but not in
 * the last scrape is "down" unless its node answers from another target (a DaemonSet pod replaced:
 * new pod, new address, same node). Pure: no I/O.
 */
import { crossNodeCollisions, type KeyIdentity } from '../../../shared/fleet-collisions';
import { GUARD_STATES } from '../../../shared/fleet';
import { sortAtRiskFirst, type PromFleetNode, type PromGuardState } from '../../../shared/fleet-prom';
import type { NodeCollision } from '../../../shared/fleet-collisions';
import type { PromSample } from './client';

/**
 * The instant queries of a fleet, all run at once. Each answer is aggregated by target or by output,
 * and where a fact's usual value is the default (0, present, not at risk, keys node-unique) only the
 * other series come back: on a healthy fleet those answers are nearly empty.
 */
export const FLEET_QUERIES = {
  /** the guards in the last scrape: state and node labels; the value is the sample's time (→ age of the scrape) */
  up: 'timestamp(store_doctor_guard_up)',
  /** targets seen in the last hour and not in the last scrape (only those) */
  down: 'last_over_time(store_doctor_guard_up[1h]) unless on (instance, job) store_doctor_guard_up',
  persisted: 'max by (instance, job, bucket, output) (store_doctor_index_persisted)',
  guarded: 'max by (instance, job, bucket, output) (store_doctor_index_guarded)',
  /** missing index files only (default: present) */
  missing: 'max by (instance, job, bucket, output) (store_doctor_index_file_present) == 0',
  /** outputs at risk only (default: not) */
  atRisk: 'max by (instance, job, bucket, output) (store_doctor_index_at_risk) > 0',
  backlogChunks: 'sum by (instance, job) (store_doctor_backlog_chunks{kind!="quarantine"}) > 0',
  backlogBytes: 'sum by (instance, job) (store_doctor_backlog_bytes{kind!="quarantine"}) > 0',
  oldest: 'max by (instance, job) (store_doctor_backlog_oldest_age_seconds{kind!="quarantine"})',
  quarantine: 'sum by (instance, job) (store_doctor_quarantine_chunks) > 0',
  damaged: 'sum by (instance, job) (store_doctor_damaged_chunks) > 0',
  restores: 'sum by (instance, job) (store_doctor_index_restores_total) > 0',
  /** key identities without a node-unique part only: the ones that can collide across nodes */
  shared: 'max by (instance, job, bucket, output, endpoint, exported_endpoint, key_format) (store_doctor_output_info{key_node_unique="0"})',
} as const;
export type FleetAnswers = Record<keyof typeof FLEET_QUERIES, PromSample[]>;

type Labels = Record<string, string>;
interface Work extends PromFleetNode {
  risky: Set<string>;
  /** Outputs known only from their key identity (no index series). */
  infos: number;
  /** The target sets an `endpoint` label of its own: the output's is `exported_endpoint`. */
  targetEndpoint: boolean;
}

const num = (s: PromSample): number => Number(s.value?.[1] ?? NaN);
const targetKey = (m: Labels) => `${m.job ?? ''}\u0000${m.instance ?? ''}`;
const nodeName = (m: Labels) => m.exported_node || m.node || m.pod || m.instance || '(unknown)';
const guardState = (s: string | undefined): PromGuardState => ((GUARD_STATES as readonly string[]).includes(s ?? '') ? (s as PromGuardState) : 'error');

function newNode(m: Labels, state: PromGuardState, scrapeAgeSeconds: number | null): Work {
  return {
    node: nodeName(m),
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
    scrapeAgeSeconds,
    risky: new Set(),
    infos: 0,
    targetEndpoint: m.endpoint !== undefined,
  };
}

export function joinFleet(a: FleetAnswers): { nodes: PromFleetNode[]; collisions: NodeCollision[] } {
  const nodes = new Map<string, Work>();
  for (const s of a.up) {
    const k = targetKey(s.metric);
    if (nodes.has(k)) continue; // a second state series of one target: the first wins
    const at = Number(s.value?.[0]);
    const ts = num(s);
    nodes.set(k, newNode(s.metric, guardState(s.metric.state), Number.isFinite(at - ts) ? Math.max(0, at - ts) : null));
  }
  const answering = new Set([...nodes.values()].map((n) => n.node));
  for (const s of a.down) {
    const k = targetKey(s.metric);
    if (nodes.has(k) || answering.has(nodeName(s.metric))) continue;
    nodes.set(k, newNode(s.metric, 'down', null));
  }
  const indexes = new Map<string, PromFleetNode['indexes'][number]>();
  const index = (m: Labels) => {
    const k = targetKey(m);
    const n = nodes.get(k);
    if (!n) return null;
    const ik = `${k}\u0000${m.bucket ?? ''}\u0000${m.output ?? ''}`;
    let i = indexes.get(ik);
    if (!i) {
      i = { bucket: m.bucket ?? '', output: m.output ?? '', persisted: null, guarded: null, present: true, atRisk: false };
      indexes.set(ik, i);
      n.indexes.push(i);
    }
    return i;
  };
  for (const s of a.persisted) {
    const i = index(s.metric);
    if (i) i.persisted = num(s);
  }
  for (const s of a.guarded) {
    const i = index(s.metric);
    if (i) i.guarded = num(s);
  }
  for (const s of a.missing) {
    const i = index(s.metric);
    if (i) i.present = false;
  }
  for (const s of a.atRisk) {
    const i = index(s.metric);
    if (i) i.atRisk = true;
  }
  const into = (r: PromSample[], f: (n: Work, v: number) => void) => {
    for (const s of r) {
      const n = nodes.get(targetKey(s.metric));
      const v = num(s);
      if (n && Number.isFinite(v)) f(n, v);
    }
  };
  into(a.backlogChunks, (n, v) => (n.backlogChunks = v));
  into(a.backlogBytes, (n, v) => (n.backlogBytes = v));
  into(a.oldest, (n, v) => (n.oldestBacklogSeconds = v));
  into(a.quarantine, (n, v) => (n.quarantineChunks = v));
  into(a.damaged, (n, v) => (n.damagedChunks = v));
  into(a.restores, (n, v) => (n.restores = v));
  const ids: (KeyIdentity & { n: Work; output: string })[] = [];
  for (const s of a.shared) {
    const n = nodes.get(targetKey(s.metric));
    if (!n) continue;
    const m = s.metric;
    const key = `${m.bucket ?? ''}\u0000${m.output ?? ''}`;
    if (!n.indexes.some((i) => `${i.bucket}\u0000${i.output}` === key)) n.infos++;
    const endpoint = n.targetEndpoint ? m.exported_endpoint : (m.endpoint ?? m.exported_endpoint);
    ids.push({
      n,
      output: m.output ?? '',
      node: n.node,
      bucket: m.bucket ?? '',
      endpoint: endpoint || null,
      keyFormat: m.key_format ?? '',
      keyNodeUnique: false,
    });
  }
  for (const n of nodes.values()) {
    for (const i of n.indexes) {
      const o = `seq_index_${i.output} of ${i.bucket}`;
      const below = i.persisted !== null && i.guarded !== null && i.persisted < i.guarded;
      if (!i.present) n.risks.push(`${o} is missing${i.atRisk ? ' and the guard could not restore it' : ' (the guard is restoring it)'}`);
      if (below) n.risks.push(`${o} holds ${i.persisted}, below the guarded ${i.guarded}`);
      if (i.atRisk && i.present && !below) n.risks.push(`${o} is at risk (its /report.json says why)`);
      if (i.atRisk || !i.present || below) {
        n.risky.add(`${i.bucket}\u0000${i.output}`);
        n.indexesAtRisk++;
      }
    }
    if (n.guardState === 'down') n.risks.push('the guard was seen in the last hour but not in the last scrape: nothing guards $INDEX on this node');
    if (n.guardState === 'refused') n.risks.push('the guard refused a restore (its /report.json says why)');
  }
  const collisions = crossNodeCollisions(ids);
  const group = (x: { endpoint: string | null; bucket: string; keyFormat: string }) => JSON.stringify([x.endpoint ?? '', x.bucket, x.keyFormat]);
  const colliding = new Map(collisions.map((c) => [group(c), c]));
  for (const id of ids) {
    const c = colliding.get(group(id));
    if (!c) continue;
    id.n.risks.push(`COLLISION_ACROSS_NODES: ${c.summary}`);
    id.n.risky.add(`${id.bucket}\u0000${id.output}`);
  }
  const out: PromFleetNode[] = [];
  for (const w of nodes.values()) {
    const { risky, infos, targetEndpoint, ...n } = w;
    void targetEndpoint;
    n.outputs = n.indexes.length + infos;
    n.outputsAtRisk = risky.size;
    n.risks = [...new Set(n.risks)].slice(0, 20);
    out.push(n);
  }
  return { nodes: sortAtRiskFirst(out), collisions };
}
