/**
 * Does an `s3_key_format` render different keys on different nodes? Nodes that write one bucket with
 * a format that has no node-unique part render the same keys for the same `$INDEX` and overwrite each
 * other (COLLISION_ACROSS_NODES). Node-unique: `$UUID` (random per upload), an environment reference
 * Fluent Bit expands per node (`${HOSTNAME}`, `${NODE_NAME}`, `${POD_NAME}`, …), or the node's own
 * name written into the format. `$TAG` alone is not: every node tags its logs alike. Isomorphic.
 */
import { analyzeCollisions } from './collision';

const NODE_ENV = /\$\{[^}]*(HOST|NODE|POD|MACHINE|INSTANCE)[^}]*\}/i;

export interface NodeUniqueness {
  unique: boolean;
  /** What makes it unique, or why it is not. */
  why: string;
}

export function keyFormatNodeUnique(format: string, nodeName?: string): NodeUniqueness {
  if (analyzeCollisions(format).hasUuid) return { unique: true, why: '$UUID in the key' };
  const env = NODE_ENV.exec(format);
  if (env) return { unique: true, why: `${env[0]} in the key (expanded per node)` };
  if (nodeName && nodeName.length >= 3 && format.includes(nodeName)) return { unique: true, why: `the node name ${nodeName} in the key` };
  return { unique: false, why: 'no $UUID, host, node or pod name in the key: every node renders the same key for the same $INDEX' };
}
