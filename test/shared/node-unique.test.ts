import { describe, expect, it } from 'vitest';
import { keyFormatNodeUnique } from '../../shared/keyformat/node-unique';

describe('keyFormatNodeUnique', () => {
  it.each([
    ['/fb/$TAG/%Y/%m/%d/$INDEX', undefined, false],
    ['/fb/$TAG/$INDEX', 'node-1', false],
    ['/fb/$TAG/$UUID/$INDEX', undefined, true],
    ['/fb/${HOSTNAME}/$INDEX', undefined, true],
    ['/fb/${K8S_NODE_NAME}/$INDEX', undefined, true],
    ['/fb/${POD_NAME}-$INDEX', undefined, true],
    ['/fb/${CLUSTER}/$INDEX', undefined, false],
    ['/fb/worker-7/$INDEX', 'worker-7', true],
    ['/fb/worker-7/$INDEX', 'worker-8', false],
  ])('%s on %s: unique %s', (format, node, unique) => {
    const r = keyFormatNodeUnique(format, node);
    expect(r.unique).toBe(unique);
    expect(r.why.length).toBeGreaterThan(5);
  });
});
