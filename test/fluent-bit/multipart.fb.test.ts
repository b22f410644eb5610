/**
 * Multipart uploads interrupted by SIGKILL (use_put_object Off, 5 MiB parts), settled with
 * `multipart --complete --apply`, then Fluent Bit started again: every upload completed into a
 * valid object, none left open on the server, nothing overwritten, records exactly once.
 *   - one upload in flight (one tag, 2 parts uploaded);
 *   - two uploads in flight (two tags, each with a part uploaded).
 */
import { expect, it } from 'vitest';
import { describeCli } from './support/cli';
import { bucketRecords, storeRecords } from './support/checks';
import { dataChunks } from './support/store';
import type { DummyInput } from './support/config';
import { expectContinuesAt, expectNothingLost } from './support/expect';
import type { Lab } from './support/lab';
import { persistedIndex, runFluentBit } from './support/scenario';
import { forEachFluentBit, withLab } from './support/suite';

// 1.9.10's dummy has no `copies` and its classic config takes lines up to 4 KB: volume comes from the rate.
const PAD = 'abcdefghij'.repeat(350);
/** ~4 MB/s per tag (3.6 KB records): a 5 MiB part about every 1.3 s. */
const big = (tag: string): DummyInput => ({ tag, rate: 1100, record: { msg: 'bulk payload record', pad: PAD } });

function multipartConfig(lab: Lab, label: string, tags: string[]): string {
  return lab.writeConfig(label, {
    inputs: tags.map(big),
    output: { usePutObject: false, totalFileSize: '50M', uploadChunkSize: '5242880', uploadTimeout: '10m', keyFormat: '/$TAG/%Y/%m/%d/$INDEX' },
    grace: 10,
  });
}

async function settleAndRestart(lab: Lab, config: string, label: string) {
  const store = lab.store();
  const buffered = storeRecords(store);
  // A SIGKILL in the middle of Fluent Bit's own write tears a record in its buffer: it uploads it as it is.
  const tornInStore = dataChunks(store).flatMap((c) => c.lines?.bad ?? []);
  const before = await lab.snapshot();
  expect(before.uploads.length, 'uploads left open by the SIGKILL (precondition)').toBeGreaterThan(0);
  const records = [...(await bucketRecords(lab)).tally.counts.keys()];
  const open = before.uploads.map((u) => ({ key: u.key, parts: u.parts.length }));

  const settle = await lab.cli(['multipart', lab.storeDir, '--config', config, '--live', '--complete', '--apply']);
  expect(settle.code, describeCli(settle)).toBe(0);
  const settled = await lab.snapshot();
  expect
    .soft(
      settled.uploads.map((u) => u.key),
      `uploads still open after multipart --complete\n${describeCli(settle)}`,
    )
    .toEqual([]);
  for (const u of open) {
    const o = settled.objects.find((x) => x.key === u.key);
    expect.soft(o?.etag ?? '(no object)', `${u.key} completed from its ${u.parts} part(s)`).toMatch(new RegExp(`-${u.parts}"$`));
  }
  expect
    .soft(
      lab
        .store()
        .chunks.filter((c) => c.stream === 'multipart_upload_metadata')
        .map((c) => c.path),
      'multipart records left',
    )
    .toEqual([]);
  const completed = await bucketRecords(lab);
  expect.soft(completed.badLines, 'completed objects are whole JSON lines').toEqual([]);
  const index = persistedIndex(lab);

  // The restart: its first upload (an old buffer as PutObject, or a part of a new upload), then SIGTERM.
  const run2 = await runFluentBit(lab, config, label, { uploads: 1, until: /Successfully uploaded (object|part #1 )/ });
  expectContinuesAt(run2, index, label);
  expect
    .soft(
      run2.matches(/InvalidPart|NoSuchUpload|Could not complete/g).map((m) => m[0]),
      `${label}: Fluent Bit's completion errors`,
    )
    .toEqual([]);
  const end = await expectNothingLost(lab, before, [...records, ...buffered, ...completed.tally.counts.keys()], `after ${label}`, { tornInStore });
  expect
    .soft(
      end.after.uploads.map((u) => `${u.key} (${u.parts.length} parts)`),
      `uploads open after ${label}`,
    )
    .toEqual([]);
}

forEachFluentBit('multipart', (fb) => {
  it('one upload interrupted by SIGKILL: completed by the tool, Fluent Bit continues, nothing overwritten', () =>
    withLab(fb, 'multipart-one', async (lab) => {
      const config = multipartConfig(lab, 'run1', ['app.big']);
      const run1 = await runFluentBit(lab, config, 'run1', { uploads: 0, stop: 'none' });
      await run1.waitFor(/Successfully uploaded part #2 /, { timeoutMs: 60_000 });
      await run1.stop('SIGKILL');
      await settleAndRestart(lab, config, 'run2');
    }));

  it('two uploads (two tags) interrupted by SIGKILL: both completed by the tool, none left open', () =>
    withLab(fb, 'multipart-two', async (lab) => {
      const config = multipartConfig(lab, 'run1', ['app.big', 'app.huge']);
      const run1 = await runFluentBit(lab, config, 'run1', { uploads: 0, stop: 'none' });
      await run1.waitFor(/Successfully uploaded part #1 for \/app\.big\//, { timeoutMs: 60_000 });
      await run1.waitFor(/Successfully uploaded part #1 for \/app\.huge\//, { timeoutMs: 60_000 });
      await run1.stop('SIGKILL');
      await settleAndRestart(lab, config, 'run2');
    }));
});
