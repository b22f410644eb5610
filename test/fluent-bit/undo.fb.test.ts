/**
 * undo with a real Fluent Bit: a SIGKILLed Fluent Bit left its own (right) index K and pending
 * chunks. A repair to another value is undone — byte for byte K again — and so is a repair whose
 * CLI was SIGKILLed in the middle of writing. The next start continues at K, uploads the pending
 * chunks exactly once and overwrites nothing.
 */
import { expect, it } from 'vitest';
import { describeCli } from './support/cli';
import { bucketRecords, storeRecords } from './support/checks';
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
});
