/**
 * Replay with a real Fluent Bit before and after: S3 was unreachable (endpoint on a closed
 * loopback port), the backlog piled up, Fluent Bit was stopped gracefully. The bucket already
 * holds today's keys 0..5 (an earlier run), so a reset $INDEX would overwrite them.
 *
 * - every version: replay uploads the whole backlog of the stopped Fluent Bit — its newest stream
 *   is not "active" when no Fluent Bit runs — exactly once, and the next start continues at the
 *   index replay wrote;
 * - 5.x: the quarantine/ Fluent Bit never sends again is replayed, the rest is left to Fluent Bit.
 */
import { expect, it } from 'vitest';
import { describeCli } from './support/cli';
import { bucketRecords, storeRecords } from './support/checks';
import { expectContinuesAt, expectNothingLost } from './support/expect';
import { closedPort, type ConfigOptions, type Lab } from './support/lab';
import { persistedIndex, runFluentBit, seedBucket } from './support/scenario';
import { dataChunks } from './support/store';
import { forEachFluentBit, withLab } from './support/suite';

/**
 * Run 1 against a dead endpoint until uploads have failed (5.x: until chunks are quarantined), then
 * SIGTERM. Older versions are stopped early with `grace 1`: a chunk that used up its tries during a
 * long grace period is dropped at the stop when no sibling is left (4.2.8 reproducibly, 1.9.10 seen
 * once; docs/fluent-bit-versions.md) — Fluent Bit's loss, not the scenario under test.
 */
async function makeBacklog(lab: Lab, quarantine: boolean, output: ConfigOptions['output'] = {}) {
  const port = await closedPort();
  const dead = lab.writeConfig('run1-s3-down', { output: { ...output, endpoint: `http://127.0.0.1:${port}`, retryLimit: 1 }, grace: quarantine ? 5 : 1 });
  const run1 = await runFluentBit(lab, dead, 'run1-s3-down', { uploads: 0, stop: 'none' });
  await run1.waitFor(quarantine ? /moved to quarantine/ : /PutObject request failed/, { count: quarantine ? 2 : 4, timeoutMs: 60_000 });
  await run1.stop('SIGTERM');
  const buffered = storeRecords(lab.store());
  expect(buffered.length, `records buffered by the stopped Fluent Bit (precondition); its log:\n${run1.tail(12)}`).toBeGreaterThan(0);
  return { run1, buffered, config: lab.writeConfig('s3-back', { output }) };
}

forEachFluentBit('replay', (fb) => {
  it('replay of a stopped Fluent Bit backlog: every chunk sent exactly once, the next start continues at the index replay wrote', () =>
    withLab(fb, 'replay-backlog', async (lab) => {
      await seedBucket(lab, ['app.web', 'app.db'], 6);
      const { config, buffered } = await makeBacklog(lab, fb.major >= 5);
      const before = await lab.snapshot();
      const seeded = [...(await bucketRecords(lab)).tally.counts.keys()];

      const diag = await lab.cli(['diagnose', lab.storeDir, '--config', config, '--live', '--json']);
      const codes = (JSON.parse(diag.stdout) as { outputs: { findings: { code: string }[] }[] }).outputs.flatMap((o) => o.findings.map((f) => f.code));
      expect.soft(codes, `diagnose of this version's own backlog: no damaged chunk\n${describeCli(diag)}`).not.toContain('CHUNK_DAMAGED');

      const replay = await lab.cli(['replay', lab.storeDir, '--config', config, '--live', '--apply']);
      expect(replay.code, describeCli(replay)).toBe(0);
      const left = dataChunks(lab.store()).filter((c) => c.contentBytes > 0);
      expect
        .soft(
          left.map((c) => c.path),
          `chunks replay left in Fluent Bit's way\n${describeCli(replay)}`,
        )
        .toEqual([]);
      await expectNothingLost(lab, before, [...seeded, ...buffered], 'after replay');
      const written = persistedIndex(lab);
      expect.soft(written, 'replay wrote the next index').not.toBeNull();

      const run2 = await runFluentBit(lab, config, 'run2', { uploads: 2 });
      expectContinuesAt(run2, written, 'run 2');
      await expectNothingLost(lab, before, [...seeded, ...buffered], 'after run 2');
    }));

  if (fb.major >= 5 || fb.major === 0)
    it('replay of quarantine/ (5.x, gzip): quarantined records sent exactly once, Fluent Bit sends the rest, nothing overwritten', () =>
      withLab(fb, 'replay-quarantine', async (lab) => {
        await seedBucket(lab, ['app.web', 'app.db'], 6);
        // compression gzip: replay's objects and Fluent Bit's are both gzip; records are counted inside them.
        const { config } = await makeBacklog(lab, true, { compression: 'gzip' });
        const store = lab.store();
        const quarantined = dataChunks(store)
          .filter((c) => c.stream === 'quarantine')
          .flatMap((c) => c.lines?.records ?? []);
        expect(quarantined.length, 'quarantined records (precondition)').toBeGreaterThan(0);
        const buffered = storeRecords(store);
        const before = await lab.snapshot();
        const seeded = [...(await bucketRecords(lab)).tally.counts.keys()];

        const replay = await lab.cli(['replay', lab.storeDir, '--config', config, '--live', '--apply']);
        expect(replay.code, describeCli(replay)).toBe(0);
        expect(dataChunks(lab.store()).filter((c) => c.stream === 'quarantine').length, 'quarantine/ emptied').toBe(0);
        const afterReplay = await expectNothingLost(lab, before, [...seeded, ...quarantined], 'after replay');
        const replayed = afterReplay.records.objects.filter((o) => !before.objects.some((b) => b.key === o.key));
        expect(replayed.length, 'replay uploaded objects').toBeGreaterThan(0);
        expect(replayed.map((o) => `${o.key}: gzip ${o.gzip}, Content-Encoding ${o.contentEncoding}`)).toEqual(
          replayed.map((o) => `${o.key}: gzip true, Content-Encoding gzip`),
        );
        const written = persistedIndex(lab);

        const run2 = await runFluentBit(lab, config, 'run2', { uploads: 2 });
        expectContinuesAt(run2, written, 'run 2');
        await expectNothingLost(lab, before, [...seeded, ...buffered], 'after run 2');
      }));
});
