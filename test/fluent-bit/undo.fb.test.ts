/**
 * undo with a real Fluent Bit: a SIGKILLed Fluent Bit left its own (right) index K and pending
 * chunks. A repair to another value is undone — byte for byte K again — and so is a repair whose
 * CLI was SIGKILLed in the middle of writing. The next start continues at K, uploads the pending
 * chunks exactly once and overwrites nothing. And an undo that would bring a reset back (the
 * repair created the index a graceful stop had deleted) is refused; forced, its plan named the keys
 * that Fluent Bit then overwrote (issue 18).
 */
import { expect, it } from 'vitest';
import { describeCli } from './support/cli';
import { overwritten } from './support/bucket';
import { bucketRecords, highestIndex, keyIndex, storeRecords } from './support/checks';
import { expectContinuesAt, expectNothingLost } from './support/expect';
import { persistedIndex, runFluentBit } from './support/scenario';
import { forEachFluentBit, withLab } from './support/suite';

forEachFluentBit('undo', (fb) => {
  it('undo restores the index Fluent Bit left (also after the tool was SIGKILLed mid-write); the next start continues there', () =>
    withLab(fb, 'undo', async (lab) => {
      const conf = lab.writeConfig('run1');
      await runFluentBit(lab, conf, 'run1', { uploads: 3, stop: 'SIGKILL', pendingChunks: 2 });
      const k = persistedIndex(lab);
      expect(k, 'the SIGKILL left seq_index_0 (precondition)').not.toBeNull();
      const raw = lab.store().seqIndex[0].raw;
      const buffered = storeRecords(lab.store());
      const before = await lab.snapshot();
      const records = [...(await bucketRecords(lab)).tally.counts.keys()];

      const bump = await lab.cli(['repair-index', lab.storeDir, '--config', conf, '--value', String(k! + 100), '--apply']);
      expect(bump.code, describeCli(bump)).toBe(0);
      expect(persistedIndex(lab)).toBe(k! + 100);
      const undo = await lab.cli(['undo', lab.storeDir, '--apply']);
      expect(undo.code, describeCli(undo)).toBe(0);
      expect(lab.store().seqIndex[0]?.raw, `undo put back the exact bytes\n${describeCli(undo)}`).toBe(raw);

      // The operator's repair dies (SIGKILL) right after it printed its plan, i.e. while applying.
      const killed = await lab.cli(['repair-index', lab.storeDir, '--config', conf, '--value', String(k! + 200), '--apply'], { killWhen: /^Plan:/m });
      expect(killed.signal, describeCli(killed)).toBe('SIGKILL');
      const mid = lab.store().seqIndex[0]?.raw;
      expect([raw, String(k! + 200)], 'the index after the kill is the old or the new value, never torn').toContain(mid);
      const undo2 = await lab.cli(['undo', lab.storeDir, '--apply']);
      expect(undo2.code, describeCli(undo2)).toBe(0);
      expect(lab.store().seqIndex[0]?.raw, `undo after the killed write (it had left ${JSON.stringify(mid)})\n${describeCli(undo2)}`).toBe(raw);

      const run2 = await runFluentBit(lab, lab.writeConfig('run2'), 'run2', { uploads: 3 });
      expectContinuesAt(run2, k, 'run 2');
      await expectNothingLost(lab, before, [...records, ...buffered], 'after run 2');
    }));

  it('undo of a repair-index that would bring the reset back is refused; forced, its plan named the keys Fluent Bit then overwrote', () =>
    withLab(fb, 'undo-reset', async (lab) => {
      const conf = lab.writeConfig('run1');
      await runFluentBit(lab, conf, 'run1', { uploads: 4 });
      expect(lab.store().seqIndex, 'the graceful stop deleted sequence/ (precondition)').toEqual([]);
      const hi = highestIndex((await lab.snapshot()).objects.map((o) => o.key))!;
      const fix = await lab.cli(['repair-index', lab.storeDir, '--config', conf, '--live', '--apply']);
      expect(fix.code, describeCli(fix)).toBe(0);
      expect(persistedIndex(lab)).toBe(hi + 1);

      // the journal recorded the listing: undo alone (no config, no listing) is judged against it
      const refused = await lab.cli(['undo', lab.storeDir, '--apply']);
      expect(refused.code, describeCli(refused)).toBe(5);
      expect(refused.stderr).toMatch(new RegExp(`leaves seq_index_0 missing again .*\\$INDEX ${hi} is already used`));
      expect(persistedIndex(lab), 'nothing was undone').toBe(hi + 1);

      const forced = await lab.cli(['undo', lab.storeDir, '--apply', '--force', '--json']);
      expect(forced.code, describeCli(forced)).toBe(0);
      const risk = JSON.parse(forced.stdout).plan.details.atRisk as { restored: string | null; highestIndex: number; keys: string[] }[];
      expect(risk.map((r) => [r.restored, r.highestIndex])).toEqual([[null, hi]]);
      expect(lab.store().seqIndex, 'forced: the reset is back').toEqual([]);

      const before = await lab.snapshot();
      await runFluentBit(lab, lab.writeConfig('run2'), 'run2', { uploads: 3 });
      const ow = overwritten(before, await lab.snapshot()).map((o) => o.key);
      expect(ow.length, 'Fluent Bit restarted at 0 and overwrote objects (what the refusal prevents)').toBeGreaterThan(0);
      expect(
        ow.filter((k) => !risk[0].keys.includes(k)),
        `every overwritten key was named in the plan (named: ${risk[0].keys.join(', ')})`,
      ).toEqual([]);
      expect(Math.max(...ow.map((k) => keyIndex(k)!))).toBeLessThanOrEqual(hi);
    }));
});
