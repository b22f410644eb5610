// @vitest-environment happy-dom
/**
 * A write of ours (a repair or a salvage) takes what the engine read back into the open store's
 * report — only while the store it wrote is still the one open: a store opened meanwhile keeps
 * its own report. Both apply paths (features/repair, features/salvage) go through mergeOwnWrite.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mergeOwnWrite } from '../../renderer/src/actions/store';
import { useSession } from '../../renderer/src/state/session';
import { syntheticReport } from '../e2e/support/synthetic';
import type { StoreUpdate } from '../../shared/model';

afterEach(() => useSession.setState({ opened: null }));

describe('mergeOwnWrite', () => {
  const report = syntheticReport(3, 1, 'bucket-a');
  const root = report.roots[0];
  const update: StoreUpdate[] = [{ rootPath: root.path, removedStreams: [root.streams[0].name] }];

  it('merges into the store the write was for', () => {
    useSession.setState({ opened: { storeId: 'st-1', report } });
    mergeOwnWrite('st-1', update);
    expect(useSession.getState().opened!.report.roots[0].streams.map((s) => s.name)).not.toContain(root.streams[0].name);
  });

  it('leaves another store alone when one was opened during the write', () => {
    useSession.setState({ opened: { storeId: 'st-2', report } });
    mergeOwnWrite('st-1', update);
    expect(useSession.getState().opened!.report).toBe(report);
  });
});
