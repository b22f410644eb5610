import { describe, expect, it } from 'vitest';
import { runKillTrials } from '../../stress/kill-index';
import { runUndoKillTrials } from '../../stress/kill-undo';

describe('index repair survives SIGKILL at random points', () => {
  it('50 trials: the file always holds the old or the new value, never empty or torn', async () => {
    // Where a kill lands depends on the machine's load: trials go on (50 at a time, at most 400)
    // until kills have landed both before and after the rename — a state, not a timing.
    let trials = 0;
    let newer = 0;
    for (let round = 0; round < 8 && (newer === 0 || newer === trials); round++) {
      const r = await runKillTrials(50);
      expect(r.failures).toEqual([]);
      // a stray temp is swept by the next writer; at most one can remain after the last kill
      expect(r.leftoverTemps).toBeLessThanOrEqual(1);
      trials += r.trials;
      newer += r.newer;
    }
    // the kills really landed at different points: some before, some after the rename
    expect(newer).toBeGreaterThan(0);
    expect(newer).toBeLessThan(trials);
  }, 600_000);
});

describe('repair and undo survive SIGKILL at random points (also while the write lock is held)', () => {
  it('24 trials: the next undo, never forced, completes and the root ends exactly as it began', async () => {
    // as above: rounds of 24 (at most 8) until kills have landed in undos and left work to recover
    let inUndo = 0;
    let recoveries = 0;
    for (let round = 0; round < 8 && (inUndo === 0 || recoveries === 0); round++) {
      const r = await runUndoKillTrials(24);
      expect(r.failures).toEqual([]);
      inUndo += r.inUndo;
      recoveries += r.recoveries;
    }
    // the kills really landed in undos too, not only in repairs
    expect(inUndo).toBeGreaterThan(0);
    expect(recoveries).toBeGreaterThan(0);
  }, 900_000);
});
