/**
 * COLLISION_ACROSS_NODES: nodes that write the same bucket (same endpoint) with the same key format
 * that has no node-unique part render the same keys for the same `$INDEX` and overwrite each other.
 * Found from each node's key identity — its report.json (fleet folder) or the guard's
 * store_doctor_output_info series (fleet --prometheus). Isomorphic.
 */
export const COLLISION_ACROSS_NODES = 'COLLISION_ACROSS_NODES';

export interface KeyIdentity {
  node: string;
  bucket: string;
  endpoint: string | null;
  keyFormat: string;
  keyNodeUnique: boolean;
}

export interface NodeCollision {
  code: typeof COLLISION_ACROSS_NODES;
  bucket: string;
  endpoint: string | null;
  keyFormat: string;
  /** The nodes that write these keys, sorted. */
  nodes: string[];
  summary: string;
}

/** Bound on the nodes named in one collision's summary (all are in `nodes`). */
const NAMED = 10;

export function crossNodeCollisions(ids: Iterable<KeyIdentity>): NodeCollision[] {
  const groups = new Map<string, { id: KeyIdentity; nodes: Set<string> }>();
  for (const id of ids) {
    if (id.keyNodeUnique) continue;
    const k = JSON.stringify([id.endpoint ?? '', id.bucket, id.keyFormat]);
    const g = groups.get(k) ?? { id, nodes: new Set<string>() };
    g.nodes.add(id.node);
    groups.set(k, g);
  }
  const out: NodeCollision[] = [];
  for (const { id, nodes } of groups.values()) {
    if (nodes.size < 2) continue;
    const sorted = [...nodes].sort();
    const named = sorted.slice(0, NAMED).join(', ') + (sorted.length > NAMED ? ` and ${sorted.length - NAMED} more` : '');
    out.push({
      code: COLLISION_ACROSS_NODES,
      bucket: id.bucket,
      endpoint: id.endpoint,
      keyFormat: id.keyFormat,
      nodes: sorted,
      summary: `${sorted.length} nodes (${named}) write bucket ${id.bucket}${id.endpoint ? ` at ${id.endpoint}` : ''} with the key format ${id.keyFormat}, which has no node-unique part ($UUID, host, node or pod name): for the same $INDEX they render the same keys and overwrite each other.`,
    });
  }
  return out.sort((a, b) => b.nodes.length - a.nodes.length || (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0));
}

/** The key identities in a node report's outputs (reports before 0.2 carry none). */
export function reportKeyIdentities(r: {
  node: string;
  outputs: { bucket: string; keyFormat?: string; endpoint?: string | null; keyNodeUnique?: boolean }[];
}): KeyIdentity[] {
  return r.outputs.flatMap((o) =>
    o.keyFormat === undefined
      ? []
      : [{ node: r.node, bucket: o.bucket, endpoint: o.endpoint ?? null, keyFormat: o.keyFormat, keyNodeUnique: o.keyNodeUnique ?? false }],
  );
}
