/**
 * The $INDEX repairs with a real Fluent Bit in the loop: repair-index after a graceful stop lost
 * the index; the marker keeping it through two graceful stops (the shadow copy: shadow.fb.test.ts).
 * Key format `/$TAG/%Y/%m/%d/$INDEX`: a reset index overwrites today's objects, so "0 overwritten"
 * is a real check.
 */
import { expect, it } from 'vitest';
import { describeCli } from './support/cli';
import { bucketRecords, highestIndex, uploadedKeys, keyIndex } from './support/checks';
import { expectContinuesAt, expectNothingLost } from './support/expect';
import { persistedIndex, runFluentBit } from './support/scenario';
import { forEachFluentBit, withLab } from './support/suite';

forEachFluentBit('index', (fb) => {
  it('repair-index after a graceful stop: the next start continues at the index written, nothing overwritten', () =>
    withLab(fb, 'repair-index', async (lab) => {
      const conf = lab.writeConfig('run1');
      await runFluentBit(lab, conf, 'run1', { uploads: 4 });
      expect(lab.store().seqIndex, 'the graceful stop deleted sequence/ (precondition)').toEqual([]);
      const before = await lab.snapshot();
      const records = (await bucketRecords(lab)).tally.counts.keys();
      const hi = highestIndex(before.objects.map((o) => o.key))!;

      const fix = await lab.cli(['repair-index', lab.storeDir, '--config', conf, '--live', '--apply']);
      expect(fix.code, describeCli(fix)).toBe(0);
      expect(persistedIndex(lab), describeCli(fix)).toBe(hi + 1);

      const run2 = await runFluentBit(lab, lab.writeConfig('run2'), 'run2', { uploads: 3 });
      expectContinuesAt(run2, hi + 1, 'run 2');
      expect(Math.min(...uploadedKeys(run2).map((k) => keyIndex(k)!)), 'run 2 uploads from the written index').toBe(hi + 1);
      await expectNothingLost(lab, before, records, 'after run 2');
    }));

  it('protect-index --method marker keeps the index through two graceful stops', () =>
    withLab(fb, 'protect-marker', async (lab) => {
      const conf = lab.writeConfig('run1');
      await runFluentBit(lab, conf, 'run1', { uploads: 3 });
      const before = await lab.snapshot();
      const records = [...(await bucketRecords(lab)).tally.counts.keys()];
      const hi = highestIndex(before.objects.map((o) => o.key))!;
      const fix = await lab.cli(['repair-index', lab.storeDir, '--config', conf, '--live', '--apply']);
      expect(fix.code, describeCli(fix)).toBe(0);
      const marker = await lab.cli(['protect-index', lab.storeDir, '--config', conf, '--method', 'marker', '--apply']);
      expect(marker.code, describeCli(marker)).toBe(0);
      expect(lab.store().sequenceEntries, 'marker chunk in sequence/').toContain('store-doctor-marker');

      let expectedNext = hi + 1;
      for (const label of ['run2', 'run3']) {
        const run = await runFluentBit(lab, lab.writeConfig(label), label, { uploads: 3 });
        expectContinuesAt(run, expectedNext, label);
        const next = persistedIndex(lab);
        expect(next, `${label}: seq_index_0 survived the graceful stop`).not.toBeNull();
        const used = uploadedKeys(run).map((k) => keyIndex(k)!);
        expect(next, `${label}: the persisted index is above every index the run used (${used.join(',')})`).toBe(Math.max(...used) + 1);
        expectedNext = next!;
      }
      const end = await expectNothingLost(lab, before, records, 'after run 3');
      expect(
        end.after.objects.filter((o) => o.size === 0 || o.key.includes('store-doctor-marker')).map((o) => o.key),
        'the marker was never uploaded',
      ).toEqual([]);
      expect(lab.store().sequenceEntries).toContain('store-doctor-marker');
    }));
});
