/**
 * "The store changed during the operation" (a writer we could not see, e.g. Fluent Bit started):
 * checked for every write action on the store, and never raised by our own temp files or
 * `.store-doctor/`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { applyIndexPlan, planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { applyProtectPlan, planProtectIndex, MARKER_NAME } from '../../../electron/engine/repair/index-actions/protect';
import { undoLast } from '../../../electron/engine/repair/undo/undo';
import { applyMultipart, planMultipart } from '../../../electron/engine/repair/bucket/multipart';
import { applyReplay } from '../../../electron/engine/repair/bucket/replay-run';
import { seqIndexPaths } from '../../../electron/engine/repair/index-actions/index-file';
import { encodeChunk } from '../../../electron/engine/chunk';
import { scanStore } from '../../../electron/engine/store/scan';
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

const deadPid = () => Number(String(spawnSync('sh', ['-c', 'echo $$']).stdout).trim());
const changedWarnings = (w: string[]) => w.filter((x) => /the store changed/.test(x));
/** What Fluent Bit would do meanwhile: a new chunk in a stream folder. */
const fluentBitWrites = (root: string) => () => {
  mkdirSync(path.join(root, 'stream-x'), { recursive: true });
  writeFileSync(path.join(root, 'stream-x', '1-1764441396.123.flb'), 'new chunk');
};

describe('store watch: index repair', () => {
  it('does not warn when our own stale temp file is swept, and removes it', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const { file } = seqIndexPaths(fx.root, 0);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '3');
    const stale = path.join(path.dirname(file), `.seq_index_0.sd-tmp-${deadPid()}-0badc0de`);
    writeFileSync(stale, '1'); // left by a killed earlier run
    const plan = await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: 12, skipProcessCheck: true });
    const r = await applyIndexPlan(plan, { skipProcessCheck: true });
    expect(r.verified).toBe(true);
    expect(existsSync(stale)).toBe(false);
    expect(changedWarnings(r.warnings)).toEqual([]);
  });

  it('warns, naming the path, when something else writes during the repair', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const plan = await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: 12, skipProcessCheck: true });
    const r = await applyIndexPlan(plan, { skipProcessCheck: true, hooks: { afterSnapshot: fluentBitWrites(fx.root) } });
    expect(changedWarnings(r.warnings).join('\n')).toContain('stream-x/1-1764441396.123.flb');
  });
});

describe('store watch: marker protection', () => {
  const outputs = [{ id: 0, displayName: 's3.0', hasIndex: true }];
  it('no warning for the marker itself or a swept stale temp of it', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    mkdirSync(path.join(fx.root, 'sequence'));
    writeFileSync(path.join(fx.root, 'sequence', `.${MARKER_NAME}.sd-tmp-${deadPid()}-0badc0de`), 'x');
    const plan = await planProtectIndex({ storePath: fx.storeDir, rootPath: fx.root, method: 'marker', outputsOnRoot: outputs, skipProcessCheck: true });
    const r = await applyProtectPlan(plan, { skipProcessCheck: true });
    expect(r.verified).toBe(true);
    expect(readdirSync(path.join(fx.root, 'sequence'))).toEqual([MARKER_NAME]);
    expect(changedWarnings(r.warnings)).toEqual([]);
  });

  it('warns when something else writes during the protection', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const plan = await planProtectIndex({ storePath: fx.storeDir, rootPath: fx.root, method: 'marker', outputsOnRoot: outputs, skipProcessCheck: true });
    const r = await applyProtectPlan(plan, { skipProcessCheck: true, hooks: { afterSnapshot: fluentBitWrites(fx.root) } });
    expect(changedWarnings(r.warnings).join('\n')).toContain('stream-x/1-1764441396.123.flb');
  });
});

describe('store watch: undo', () => {
  it('no warning for what the undo puts back (file, folders it removes); a warning for a foreign write', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const plan = await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: 12, skipProcessCheck: true });
    await applyIndexPlan(plan, { skipProcessCheck: true });
    const clean = await undoLast(fx.storeDir, { skipProcessCheck: true });
    expect(clean.verified).toBe(true);
    expect(existsSync(path.join(fx.root, 'sequence'))).toBe(false);
    expect(changedWarnings(clean.warnings)).toEqual([]);

    await applyIndexPlan(await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: 12, skipProcessCheck: true }), {
      skipProcessCheck: true,
    });
    const busy = await undoLast(fx.storeDir, { skipProcessCheck: true, hooks: { afterSnapshot: fluentBitWrites(fx.root) } });
    expect(changedWarnings(busy.warnings).join('\n')).toContain('stream-x/1-1764441396.123.flb');
  });
});

describe.skipIf(!s3Enabled())('store watch: S3 actions (RGW)', () => {
  it('multipart settlement: no warning for the record it removes; a warning for a foreign write', async () => {
    t = tempDir('sd-watch-');
    const client = testClient();
    try {
      const bucket = await newBucket(client, 'sd-watch');
      const root = path.join(t.dir, bucket);
      const rec = (name: string) => {
        const dir = path.join(root, 'multipart_upload_metadata');
        mkdirSync(dir, { recursive: true });
        // a record of an upload the server no longer has: settled by removing the record
        writeFileSync(
          path.join(dir, name),
          encodeChunk({ meta: `/app/key-${name}\nno-such-upload-${name}`, content: 'part_number=1\tetag=0123456789abcdef0123456789abcdef\n' }),
        );
        return path.join(dir, name);
      };
      const first = rec('1');
      const p1 = await planMultipart({ storePath: root, rootPath: root, root: (await scanStore(root)).roots[0], bucket, client, skipProcessCheck: true });
      expect(settleOf(p1).map((s) => s.op)).toEqual(['forget']);
      const r1 = await applyMultipart(p1, { client, skipProcessCheck: true });
      expect(existsSync(first)).toBe(false);
      expect(changedWarnings(r1.warnings)).toEqual([]);

      rec('2');
      const p2 = await planMultipart({ storePath: root, rootPath: root, root: (await scanStore(root)).roots[0], bucket, client, skipProcessCheck: true });
      const r2 = await applyMultipart(p2, { client, skipProcessCheck: true, hooks: { afterSnapshot: fluentBitWrites(root) } });
      expect(changedWarnings(r2.warnings).join('\n')).toContain('stream-x/1-1764441396.123.flb');
    } finally {
      client.destroy();
    }
  }, 60_000);

  it('replay: a foreign write during the replay is reported', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const client = testClient();
    try {
      const bucket = await newBucket(client, 'sd-watch-replay');
      const plan = await planBacklogReplay(fx, bucket);
      const r = await applyReplay(plan, { client, skipProcessCheck: true, hooks: { afterSnapshot: fluentBitWrites(fx.root) } });
      expect(r.verified).toBe(true);
      expect(changedWarnings(r.warnings)).toHaveLength(1);
      expect(changedWarnings(r.warnings)[0]).toContain('stream-x/1-1764441396.123.flb');
    } finally {
      client.destroy();
    }
  }, 60_000);
});
