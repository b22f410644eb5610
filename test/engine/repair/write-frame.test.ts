/**
 * Issue 19 item 4: applyPlan makes the action's write frame (preconditions/write-frame.ts) and
 * the applier runs that frame — the source check before the lock, the process check right before
 * writing, the snapshot before and its diff after — instead of its own calls. A recording frame
 * wrapping the real one shows what ran, in which order, on which root.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { realpathSync } from 'node:fs';
import { applyPlan } from '../../../electron/engine/repair/apply';
import { planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { planUndo } from '../../../electron/engine/repair/undo/undo';
import { type WriteFrame, writeFrame } from '../../../electron/engine/repair/preconditions';
import { type Extracted, extractFixture } from './helpers';

let fx: Extracted | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

/** The real frame for these options, recording each call as `what root`. */
function recording(calls: string[], opts: Parameters<typeof writeFrame>[0]): WriteFrame {
  const real = writeFrame(opts);
  return {
    assertSource: (root) => (calls.push(`source ${root}`), real.assertSource(root)),
    checkWrite: (root, o) => (calls.push(`checkWrite ${root}`), real.checkWrite(root, o)),
    async watch(root, scope) {
      calls.push(`watch ${root}`);
      const w = await real.watch(root, scope);
      return { end: (into, expected, what) => (calls.push(`end ${what}`), w.end(into, expected, what)) };
    },
  };
}

describe('applyPlan hands the write frame to the applier', () => {
  it('repair-index and its undo run the frame they are given: source, checkWrite, watch, end', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const root = realpathSync(fx.root);
    const plan = await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: 12, skipProcessCheck: true });
    const calls: string[] = [];
    const r = await applyPlan(plan, { skipProcessCheck: true, frame: recording(calls, { skipProcessCheck: true }) });
    expect(r.verified).toBe(true);
    expect(calls).toEqual([`source ${fx.root}`, `checkWrite ${root}`, `watch ${root}`, 'end the repair']);

    const undo = await planUndo(fx.storeDir, { skipProcessCheck: true });
    const undoCalls: string[] = [];
    const u = await applyPlan(undo, { skipProcessCheck: true, frame: recording(undoCalls, { skipProcessCheck: true }) });
    expect(u.verified).toBe(true);
    expect(undoCalls).toEqual([`source ${fx.root}`, `checkWrite ${root}`, `watch ${root}`, 'end the undo']);
  });
});
