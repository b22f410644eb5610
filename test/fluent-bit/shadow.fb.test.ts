/**
 * The shadow protection as the README documents it: `protect-index --method shadow` from a timer
 * while Fluent Bit runs, `restore-index` (ExecStartPre) before the next start. The graceful stop's
 * exit flush uses indices after the last shadow copy; restoring the copy must not hand Fluent Bit
 * an index it already used (issue 10: the next start overwrote those objects). A copy taken while
 * Fluent Bit runs is not known to be final, so restore-index refuses it without bucket evidence
 * (nothing written) and, given the live bucket, restores above every used index.
 */
import { expect, it } from 'vitest';
import { describeCli } from './support/cli';
import { bucketRecords, highestIndex, uploadedKeys, keyIndex } from './support/checks';
import { expectNothingLost } from './support/expect';
import { persistedIndex, runFluentBit } from './support/scenario';
import { forEachFluentBit, withLab } from './support/suite';

forEachFluentBit('shadow', (fb) => {
  it('protect-index --method shadow while running + restore-index before the next start: no used index is restored', () =>
    withLab(fb, 'shadow', async (lab) => {
      const conf = lab.writeConfig('run1');
      const shadowDir = `${lab.dir}/shadow`;
      // As the README's timer does: copy the index while Fluent Bit runs…
      const run1 = await runFluentBit(lab, conf, 'run1', { uploads: 2, stop: 'none' });
      const copy = await lab.cli(['protect-index', lab.storeDir, '--config', conf, '--method', 'shadow', '--shadow-dir', shadowDir, '--apply']);
      expect(copy.code, describeCli(copy)).toBe(0);
      await run1.waitFor(/Successfully uploaded object/, { count: 4 });
      await run1.stop('SIGTERM'); // …then the graceful stop (with its exit flush) deletes sequence/
      const before = await lab.snapshot();
      const records = (await bucketRecords(lab)).tally.counts.keys();
      const hi = highestIndex(before.objects.map((o) => o.key))!;

      // Without bucket evidence the copy cannot be trusted: refused, nothing written.
      const blind = await lab.cli(['restore-index', lab.storeDir, '--config', conf, '--shadow-dir', shadowDir, '--apply']);
      expect(blind.code, describeCli(blind)).toBe(5);
      expect(blind.stdout).toMatch(/not known to be final/);
      expect(persistedIndex(lab), 'a refused restore writes nothing').toBeNull();

      // …and the documented ExecStartPre (with the live bucket) puts it back before the next start.
      const restore = await lab.cli(['restore-index', lab.storeDir, '--config', conf, '--shadow-dir', shadowDir, '--live', '--apply']);
      expect(restore.code, describeCli(restore)).toBe(0);
      expect.soft(persistedIndex(lab), `restored index vs highest index in the bucket (${hi})\n${describeCli(restore)}`).toBeGreaterThan(hi);

      const run2 = await runFluentBit(lab, lab.writeConfig('run2'), 'run2', { uploads: 3 });
      expect.soft(Math.min(...uploadedKeys(run2).map((k) => keyIndex(k)!)), 'run 2 starts above every used index').toBeGreaterThan(hi);
      await expectNothingLost(lab, before, records, 'after run 2');
    }));
});
