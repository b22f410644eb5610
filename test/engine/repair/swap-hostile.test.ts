/**
 * A folder swapped for a symlink between planning and applying (a store is hostile input: a
 * volume another user or container can write) never sends a read or a write outside the root:
 * replay neither reads nor moves a "chunk" through a linked stream folder, multipart never
 * removes a "record" through a linked folder. (Undo: undo-hostile.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { scanStore } from '../../../electron/engine/store/scan';
import { applyReplay } from '../../../electron/engine/repair/bucket/replay-run';
import { applyMultipart, planMultipart } from '../../../electron/engine/repair/bucket/multipart';
import { encodeChunk } from '../../../electron/engine/chunk';
import { type Extracted, extractFixture, planBacklogReplay, settleOf, tempDir } from './helpers';
import { newBucket, testClient } from './s3env';
import { s3Enabled } from '../../support/s3';

let fx: Extracted | null = null;
let t: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  fx?.cleanup();
  t?.cleanup();
  fx = null;
  t = null;
});

const listing = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).sort();

describe.skipIf(!s3Enabled())('folders swapped for links after planning (RGW)', () => {
  it('replay: a stream folder now a link elsewhere — nothing there is read, uploaded or moved', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const client = testClient();
    try {
      const bucket = await newBucket(client, 'sd-swap');
      const plan = await planBacklogReplay(fx, bucket);
      const planned = plan.replayItems.filter((i) => i.state === 'planned');
      expect(planned.length).toBeGreaterThan(0);
      // a stopped Fluent Bit's store: quarantine/ and the newest stream (no process uses it)
      const streams = [...new Set(planned.map((i) => i.stream))].sort();
      expect(streams).toContain('quarantine');
      // the attacker's folders: same names, elsewhere
      const elsewhere = path.join(fx.dir, 'elsewhere');
      mkdirSync(elsewhere);
      for (const s of streams) {
        renameSync(path.join(fx.root, s), path.join(elsewhere, s));
        symlinkSync(path.join(elsewhere, s), path.join(fx.root, s));
      }
      const before = listing(elsewhere);
      const r = await applyReplay(plan, { client, skipProcessCheck: true, conditional: 'if-none-match' });
      expect(r.items.filter((i) => i.state === 'planned' || i.state === 'done')).toEqual([]);
      expect(r.items.filter((i) => i.state === 'failed').every((i) => /symlink/.test(i.message ?? ''))).toBe(true);
      expect(listing(elsewhere)).toEqual(before);
      const objects = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      expect((objects.Contents ?? []).map((o) => o.Key)).toEqual([]);
    } finally {
      client.destroy();
    }
  }, 60_000);

  it('multipart: the record folder now a link elsewhere — the file there is not removed', async () => {
    t = tempDir('sd-swap-mp-');
    const client = testClient();
    try {
      const bucket = await newBucket(client, 'sd-swap');
      const root = path.join(t.dir, bucket);
      const records = path.join(root, 'multipart_upload_metadata');
      mkdirSync(records, { recursive: true });
      const record = encodeChunk({ meta: '/k\nno-such-upload', content: 'part_number=1\tetag=0123456789abcdef0123456789abcdef\n' });
      writeFileSync(path.join(records, '1'), record);
      const plan = await planMultipart({ storePath: root, rootPath: root, root: (await scanStore(root)).roots[0], bucket, client, skipProcessCheck: true });
      expect(settleOf(plan).map((s) => s.op)).toEqual(['forget']);
      const elsewhere = path.join(t.dir, 'elsewhere');
      renameSync(records, elsewhere);
      symlinkSync(elsewhere, records);
      const r = await applyMultipart(plan, { client, skipProcessCheck: true });
      expect(r.steps.map((s) => [s.step.kind, s.ok])).toEqual([
        ['forget-upload', false],
        ['delete-file', false],
      ]);
      expect(r.steps[0].message).toMatch(/symlink/);
      expect(r.steps[1].message).toMatch(/^kept/);
      expect(readFileSync(path.join(elsewhere, '1'))).toEqual(record);
    } finally {
      client.destroy();
    }
  }, 60_000);
});
