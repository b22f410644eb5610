/**
 * Salvage of a store_dir with a real Fluent Bit: a SIGKILL leaves pending chunks; one of them is
 * cut so that its header says more bytes than the file holds (a crash before the data reached the
 * disk), which the S3 output rejects at start. `salvage --apply` writes a valid chunk keeping the
 * complete lines; the next run loads it (no `format check failed`) and uploads each of them exactly
 * once, and every other buffered record; the torn last line is not uploaded.
 */
import { readFileSync, truncateSync } from 'node:fs';
import * as path from 'node:path';
import { expect, it } from 'vitest';
import { describeCli } from './support/cli';
import { bucketRecords, storeRecords } from './support/checks';
import { runFluentBit } from './support/scenario';
import { dataChunks } from './support/store';
import { forEachFluentBit, withLab } from './support/suite';

forEachFluentBit('salvage store_dir', (fb) => {
  it('a chunk whose header runs past the file is salvaged and its complete lines are uploaded once', () =>
    withLab(fb, 'salvage-store', async (lab) => {
      await runFluentBit(lab, lab.writeConfig('run1'), 'run1', { uploads: 1, stop: 'SIGKILL', pendingChunks: 1 });
      const chunk = dataChunks(lab.store()).find((c) => c.contentBytes > 0 && (c.lines?.records.length ?? 0) >= 2);
      expect(chunk, 'a pending chunk with two lines or more (precondition)').toBeDefined();
      const file = path.join(lab.root, chunk!.path);
      const start = 24 + chunk!.metaLength;
      const content = readFileSync(file).subarray(start, start + chunk!.contentBytes);
      const cutAt = content.lastIndexOf(0x0a, content.length - 2) + 3; // the last line torn after 2 bytes
      truncateSync(file, start + cutAt);
      const kept = content.subarray(0, cutAt).toString().split('\n').length - 1;
      const all = chunk!.lines!.records;
      const others = storeRecords(lab.store()).filter((r) => !all.includes(r));

      const plan = await lab.cli(['salvage', lab.storeDir, '--json']);
      expect(plan.code, describeCli(plan)).toBe(0);
      if (chunk!.contentLengthField === 0) {
        // 1.9.10 writes L = 0: the cut file loads with the length inferred from its size (never
        // "truncated"), so nothing is rejected and nothing is planned.
        expect(JSON.parse(plan.stdout).plan.steps).toEqual([]);
        return;
      }
      expect(JSON.parse(plan.stdout).plan.details.chunks).toMatchObject([{ records: kept, cutBytes: 2 }]);
      const applied = await lab.cli(['salvage', lab.storeDir, '--apply']);
      expect(applied.code, describeCli(applied)).toBe(0);

      // A SIGKILL can land after an upload and before its chunk is deleted (Fluent Bit's own
      // at-least-once): what run 2 adds is counted, each buffered line exactly once.
      const before = (await bucketRecords(lab)).tally.counts;
      const run2 = await runFluentBit(lab, lab.writeConfig('run2'), 'run2', { uploads: 1 });
      // Without the salvage (measured, 5.0.9) this run logs `[fstore] format check failed: <stream>/<chunk>` and loses its lines.
      expect(run2.log()).not.toMatch(/format check failed/);
      const after = (await bucketRecords(lab)).tally.counts;
      const added = (r: string) => (after.get(r) ?? 0) - (before.get(r) ?? 0);
      const wrong = [...all.slice(0, kept), ...others].filter((r) => added(r) !== 1);
      expect(wrong.map((r) => `${added(r)}x ${r}`).slice(0, 5), `${wrong.length} line(s) not uploaded exactly once by run 2`).toEqual([]);
      expect(added(all[kept]), 'the torn last line is cut, not uploaded').toBe(0);
    }));
});
