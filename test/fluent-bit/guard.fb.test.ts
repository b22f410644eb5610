/**
 * `store-doctor guard` next to a real Fluent Bit (issue 11): graceful stops with a colliding key
 * format (/$TAG/%Y/%m/%d/$INDEX) delete sequence/ every time; the guard keeps the exit flush's
 * values and restores the final one as soon as Fluent Bit's process is gone, so every start
 * continues above every index in the bucket and nothing is overwritten. Then, with the guard
 * down, `guard --once` (ExecStartPre / init container) restores from the guard's state.
 */
import { expect, it } from 'vitest';
import { continuingAt, highestIndex } from './support/checks';
import { overwritten } from './support/bucket';
import { describeCli } from './support/cli';
import { startGuard } from './support/guard';
import { persistedIndex, runFluentBit } from './support/scenario';
import { forEachFluentBit, withLab } from './support/suite';

forEachFluentBit('guard', (fb) => {
  it('three graceful stop/start cycles under the guard: each start continues at the highest index in the bucket + 1, nothing overwritten', () =>
    withLab(fb, 'guard', async (lab) => {
      const conf = lab.writeConfig('run');
      const guard = await startGuard(lab, conf);
      try {
        let before = await lab.snapshot();
        let expectNext: number | null = null;
        for (let cycle = 0; cycle < 3; cycle++) {
          const run = await runFluentBit(lab, conf, `run${cycle}`, { uploads: 2 });
          if (expectNext !== null) expect(continuingAt(run), `run ${cycle}: Continuing at index\n${run.tail()}`).toBe(expectNext);
          const after = await lab.snapshot();
          expect(overwritten(before, after), `run ${cycle} overwrote objects`).toEqual([]);
          const hi = highestIndex(after.objects.map((o) => o.key))!;
          const r = await guard.until(`the restore after run ${cycle}`, (x) => x.guard.restores === cycle + 1 && x.outputs[0]?.persistedIndex === hi + 1);
          expect(r.outputs[0]).toMatchObject({ guardedIndex: hi + 1, guardedFinal: true, restores: cycle + 1 });
          expect(persistedIndex(lab)).toBe(hi + 1);
          expectNext = hi + 1;
          before = after;
        }
        const metrics = await guard.metrics();
        expect(metrics).toMatch(new RegExp(`^store_doctor_index_restores_total\\{bucket="${lab.bucket}",output="0"\\} 3$`, 'm'));
      } finally {
        expect(await guard.stop()).toBe(0);
      }

      // the guard is down; a graceful stop deletes sequence/ again; the pre-start hook restores from the guard's state
      const g2 = await startGuard(lab, conf);
      const run = await runFluentBit(lab, conf, 'run-last', { uploads: 2 });
      await g2.until('the last value kept as final', (x) => x.outputs[0]?.guardedFinal === true && x.guard.restores === 1);
      await g2.stop();
      const snap = await lab.snapshot();
      const hi = highestIndex(snap.objects.map((o) => o.key))!;
      expect(continuingAt(run)).not.toBeNull();
      const { rmSync } = await import('node:fs');
      rmSync(`${lab.root}/sequence`, { recursive: true, force: true });
      const once = await lab.cli(['guard', lab.storeDir, '--config', conf, '--state-dir', g2.stateDir, '--once']);
      expect(once.code, describeCli(once)).toBe(0);
      expect(persistedIndex(lab)).toBe(hi + 1);
      const next = await runFluentBit(lab, conf, 'run-after-once', { uploads: 2 });
      expect(continuingAt(next)).toBe(hi + 1);
      expect(overwritten(snap, await lab.snapshot())).toEqual([]);
    }));
});
