import { describe, expect, it } from 'vitest';
import { runKillTrials } from '../../stress/kill-index';
import { runUndoKillTrials } from '../../stress/kill-undo';

describe('index repair survives SIGKILL at random points', () => {
  it('50 trials: the file always holds the old or the new value, never empty or torn', async () => {
    const r = await runKillTrials(50);
    expect(r.failures).toEqual([]);
    // the kills really landed at different points: some before, some after the rename
    expect(r.newer).toBeGreaterThan(0);
    expect(r.newer).toBeLessThan(50);
    // a stray temp is swept by the next writer; at most one can remain after the last kill
    expect(r.leftoverTemps).toBeLessThanOrEqual(1);
  }, 120_000);
});

describe('repair and undo survive SIGKILL at random points (also while the write lock is held)', () => {
  it('24 trials: the next undo, never forced, completes and the root ends exactly as it began', async () => {
    const r = await runUndoKillTrials(24);
    expect(r.failures).toEqual([]);
    // the kills really landed in undos too, not only in repairs
    expect(r.inUndo).toBeGreaterThan(0);
    expect(r.recoveries).toBeGreaterThan(0);
  }, 180_000);
});
