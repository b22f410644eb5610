/**
 * recover-versions on a versioned bucket: run 2 restarted $INDEX at 0 and overwrote run 1's
 * objects (they survive as non-current versions). The tool copies every overwritten version to a
 * new key (create-only); with the index repaired, run 3 overwrites nothing and every record of
 * every version is in a current object exactly once.
 */
import { expect, it } from 'vitest';
import { readVersionRecords } from './support/bucket';
import { describeCli } from './support/cli';
import { expectContinuesAt, expectNothingLost } from './support/expect';
import { persistedIndex, runFluentBit } from './support/scenario';
import { forEachFluentBit, withLab } from './support/suite';

const MANIFEST = 'recovered/manifest.json';
const dataKey = (k: string) => k !== MANIFEST;

forEachFluentBit('recover-versions', (fb) => {
  it('recover-versions copies every overwritten version once; repaired, the next start overwrites nothing', () =>
    withLab(
      fb,
      'recover-versions',
      async (lab) => {
        const conf = lab.writeConfig('run1');
        await runFluentBit(lab, conf, 'run1', { uploads: 3 });
        await runFluentBit(lab, lab.writeConfig('run2'), 'run2', { uploads: 3 }); // index reset: overwrites 0, 1, 2…
        const hurt = await lab.snapshot();
        const nonCurrent = hurt.versions.filter((v) => !v.isLatest);
        expect(nonCurrent.length, 'run 2 overwrote objects of run 1 (precondition)').toBeGreaterThan(0);
        const all = await readVersionRecords(lab.s3, lab.bucket, hurt.versions);
        const everyRecord = all.flatMap((v) => v.records);

        const rec = await lab.cli(['recover-versions', lab.storeDir, '--config', conf, '--live', '--recovery-prefix', 'recovered/', '--apply']);
        expect(rec.code, describeCli(rec)).toBe(0);
        const recovered = await lab.snapshot();
        const copies = recovered.objects.filter((o) => o.key.startsWith('recovered/') && o.key !== MANIFEST);
        expect.soft(copies.length, `one copy per overwritten version\n${describeCli(rec)}`).toBe(nonCurrent.length);
        expect
          .soft(
            recovered.objects.map((o) => o.key),
            'the recovery manifest',
          )
          .toContain(MANIFEST);
        // Nothing that was current before the recovery changed; every record of every version is now current once.
        await expectNothingLost(lab, hurt, everyRecord, 'after recover-versions', { dataKey });

        const fix = await lab.cli(['repair-index', lab.storeDir, '--config', conf, '--live', '--apply']);
        expect(fix.code, describeCli(fix)).toBe(0);
        const written = persistedIndex(lab);
        const run3 = await runFluentBit(lab, lab.writeConfig('run3'), 'run3', { uploads: 3 });
        expectContinuesAt(run3, written, 'run 3');
        await expectNothingLost(lab, recovered, everyRecord, 'after run 3', { dataKey });
      },
      { versioning: true },
    ));
});
