/**
 * Joining the fleet queries' answers into nodes, on answers shaped like the ones scrapes we have
 * not seen leave behind: prometheus-operator's PodMonitor target labels (endpoint, namespace, pod,
 * container) with honor_labels off (the guard's `endpoint` renamed `exported_endpoint`), a
 * relabelled `node`, no node label at all, two outputs on one node, a guard down, a DaemonSet pod
 * replaced (new address, same node), many colliding groups. The same join runs on a real
 * Prometheus in fleet-labels.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { PromSample } from '../../../electron/engine/fleet-prom/client';
import { FLEET_QUERIES, joinFleet, type FleetAnswers } from '../../../electron/engine/fleet-prom/join';

const AT = 1_800_000_000;
const empty = (): FleetAnswers => Object.fromEntries(Object.keys(FLEET_QUERIES).map((k) => [k, []])) as unknown as FleetAnswers;
const s = (metric: Record<string, string>, v: number | string, at = AT): PromSample => ({ metric, value: [at, String(v)] });
const pod = (i: number) => ({
  job: 'logging/store-doctor-guard',
  instance: `10.1.0.${i}:9464`,
  namespace: 'logging',
  pod: `fluent-bit-${i}`,
  container: 'guard',
  endpoint: 'metrics',
});

describe('joinFleet', () => {
  it('PodMonitor labels: the output endpoint is exported_endpoint, never the port name; the node is the guard’s own name', () => {
    const a = empty();
    // node 1: the guard says endpoint="" (no label), node 2: endpoint="s3.example" (renamed by the scrape); a relabelling added node=<k8s node>
    a.up = [
      s({ ...pod(1), node: 'k8s-1', exported_node: 'guard-1', state: 'watching' }, AT - 12),
      s({ ...pod(2), exported_node: 'guard-2', node: 'k8s-2', state: 'watching' }, AT - 3),
    ];
    a.persisted = [s({ ...pod(1), bucket: 'logs', output: '0' }, 7), s({ ...pod(2), bucket: 'logs', output: '0' }, 9)];
    a.guarded = [s({ ...pod(1), bucket: 'logs', output: '0' }, 7), s({ ...pod(2), bucket: 'logs', output: '0' }, 9)];
    a.shared = [
      s({ ...pod(1), bucket: 'logs', output: '0', key_format: '/$TAG/$INDEX' }, 1),
      s({ ...pod(2), bucket: 'logs', output: '0', key_format: '/$TAG/$INDEX', exported_endpoint: 's3.example' }, 1),
    ];
    const { nodes, collisions } = joinFleet(a);
    expect(nodes.map((n) => [n.node, n.instance, n.job, n.guardState, n.scrapeAgeSeconds, n.outputs, n.outputsAtRisk])).toEqual([
      ['guard-1', '10.1.0.1:9464', 'logging/store-doctor-guard', 'watching', 12, 1, 0],
      ['guard-2', '10.1.0.2:9464', 'logging/store-doctor-guard', 'watching', 3, 1, 0],
    ]);
    // different endpoints: no collision (with the port name "metrics" taken for the endpoint they would collide)
    expect(collisions).toEqual([]);
  });

  it('the same endpoint through the rename: a collision naming both nodes', () => {
    const a = empty();
    a.up = [1, 2, 3].map((i) => s({ ...pod(i), node: `n${i}`, state: 'watching' }, AT));
    a.shared = [1, 2].map((i) => s({ ...pod(i), bucket: 'logs', output: '0', key_format: '/$TAG/$INDEX', exported_endpoint: 's3.example' }, 1));
    const { nodes, collisions } = joinFleet(a);
    expect(collisions.map((c) => [c.bucket, c.endpoint, c.keyFormat, c.nodes])).toEqual([['logs', 's3.example', '/$TAG/$INDEX', ['n1', 'n2']]]);
    expect(nodes.map((n) => [n.node, n.outputsAtRisk, n.risks.length])).toEqual([
      ['n1', 1, 1],
      ['n2', 1, 1],
      ['n3', 0, 0],
    ]);
  });

  it('no node label: the pod name, else the instance', () => {
    const a = empty();
    a.up = [s({ ...pod(1), state: 'watching' }, AT), s({ job: 'g', instance: 'h:1', state: 'watching' }, AT)];
    expect(joinFleet(a).nodes.map((n) => n.node)).toEqual(['fluent-bit-1', 'h:1']);
  });

  it('two outputs on one node, one index missing: 1 of 2 outputs at risk, both indexes listed', () => {
    const a = empty();
    const t = { job: 'g', instance: 'h:1' };
    a.up = [s({ ...t, node: 'n', state: 'watching' }, AT)];
    a.persisted = [s({ ...t, bucket: 'app', output: '1' }, 40)];
    a.guarded = [s({ ...t, bucket: 'audit', output: '0' }, 12), s({ ...t, bucket: 'app', output: '1' }, 40)];
    a.missing = [s({ ...t, bucket: 'audit', output: '0' }, 0)];
    a.atRisk = [s({ ...t, bucket: 'audit', output: '0' }, 1)];
    a.restores = [s(t, 2)];
    const [n] = joinFleet(a).nodes;
    expect(n).toMatchObject({ outputs: 2, outputsAtRisk: 1, indexesAtRisk: 1, restores: 2 });
    expect(n.indexes).toEqual([
      { bucket: 'app', output: '1', persisted: 40, guarded: 40, present: true, atRisk: false },
      { bucket: 'audit', output: '0', persisted: null, guarded: 12, present: false, atRisk: true },
    ]);
    expect(n.risks).toEqual(['seq_index_0 of audit is missing and the guard could not restore it']);
  });

  it('a guard down is listed as down, first among equals; a replaced pod of a node that answers is not', () => {
    const a = empty();
    a.up = [s({ ...pod(2), node: 'n-a', state: 'watching' }, AT), s({ ...pod(3), node: 'n-b', state: 'watching' }, AT)];
    // pod 1 was n-a's pod before it was replaced by pod 2; pod 4 (n-c) stopped answering
    a.down = [s({ ...pod(1), node: 'n-a', state: 'watching' }, 1, AT), s({ ...pod(4), node: 'n-c', state: 'refused' }, 1, AT)];
    const { nodes } = joinFleet(a);
    expect(nodes.map((n) => [n.node, n.instance, n.guardState, n.scrapeAgeSeconds])).toEqual([
      ['n-c', '10.1.0.4:9464', 'down', null],
      ['n-a', '10.1.0.2:9464', 'watching', 0],
      ['n-b', '10.1.0.3:9464', 'watching', 0],
    ]);
    expect(nodes[0].risks).toEqual(['the guard was seen in the last hour but not in the last scrape: nothing guards $INDEX on this node']);
  });

  it('a guard state it does not know is an error, never a healthy state', () => {
    const a = empty();
    a.up = [s({ job: 'g', instance: 'h:1', node: 'n', state: 'exploding' }, AT)];
    expect(joinFleet(a).nodes[0].guardState).toBe('error');
  });

  it('many colliding groups: each node marked for its own group only (a join by map)', () => {
    const a = empty();
    const N = 4000;
    a.up = Array.from({ length: N }, (_, i) => s({ job: 'g', instance: `h:${i}`, node: `n${i}`, state: 'watching' }, AT));
    // nodes 2k and 2k+1 share bucket b<k>
    a.shared = Array.from({ length: N }, (_, i) => s({ job: 'g', instance: `h:${i}`, bucket: `b${i >> 1}`, output: '0', key_format: '/x/$INDEX' }, 1));
    const { nodes, collisions } = joinFleet(a);
    expect(collisions).toHaveLength(N / 2);
    const byNode = new Map(nodes.map((n) => [n.node, n]));
    expect(byNode.get('n7')!.risks).toEqual([`COLLISION_ACROSS_NODES: ${collisions.find((c) => c.bucket === 'b3')!.summary}`]);
    expect(nodes.every((n) => n.outputsAtRisk === 1 && n.risks.length === 1)).toBe(true);
  });
});
