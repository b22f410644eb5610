/* eslint-disable @typescript-eslint/no-explicit-any -- reads untyped replies */
/**
 * A plan rests on the folder its root resolved to (issue 19 item 3: typed as `basis.root`, not a
 * string parsed back): a bucket root that is a symlink swapped to another folder between plan
 * and apply — even an exact copy — makes the apply refused as stale, and nothing is written in
 * either folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, dispatchRequest } from '../../../electron/engine';
import { requester } from '../../support/engine';
import type { Engine } from '../../../shared/contract';
import { extractFixture, FIXTURES, type Extracted } from '../../support/fixtures';
import { tempDir } from '../../support/fixtures';

const CONFIG = path.join(FIXTURES, 'index-reset', 'fluent-bit.conf');
const LISTING = path.join(FIXTURES, 'index-reset', 's3api-list-objects-v2-after-run2.json');
const BUCKET = 'fb-index-reset';

let fx: Extracted | null = null;
let engine: Engine | null = null;
afterEach(async () => {
  await engine?.dispose();
  engine = null;
  fx?.cleanup();
  fx = null;
});

describe('a plan rests on the folder its root resolved to', () => {
  it('a symlinked root swapped to a copy between plan and apply: refused as stale, nothing written', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', BUCKET);
    // the store folder is reached through a link (its bucket root with it)
    const a = path.join(path.dirname(fx.storeDir), 'store-a');
    const b = path.join(path.dirname(fx.storeDir), 'store-b');
    fs.renameSync(fx.storeDir, a);
    fs.cpSync(a, b, { recursive: true });
    fs.symlinkSync(a, fx.storeDir);
    const rootA = path.join(a, BUCKET);
    const rootB = path.join(b, BUCKET);
    engine = createEngine({ door: 'host', stateDir: tempDir('sd-root-swap-').dir, watch: false });
    const ok = requester(engine);
    const { storeId } = await ok('store.open', { path: fx.storeDir });
    await ok('config.load', { storeId, path: CONFIG });
    await ok('evidence.importOffline', { storeId, documents: [{ name: 'listing.json', text: fs.readFileSync(LISTING, 'utf8') }] });
    const plan = await ok('repair.plan', { storeId, action: 'repair-index' });
    const st = fs.statSync(rootA);
    expect(plan.basis.root).toEqual({ path: plan.rootPath, folder: { real: fs.realpathSync(rootA), dev: st.dev, ino: st.ino } });
    expect(plan.basis.files.map((f: { path: string }) => f.path)).not.toContain(fx.root);

    fs.unlinkSync(fx.storeDir);
    fs.symlinkSync(b, fx.storeDir);
    const r = await dispatchRequest(engine, 'repair.apply', { storeId, planId: plan.planId, confirm: BUCKET });
    expect(r).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect((r as any).error.message).toMatch(/stale/);
    expect((r as any).error.message).toContain(fs.realpathSync(rootA));
    for (const dir of [rootA, rootB]) {
      expect(fs.existsSync(path.join(dir, 'sequence', 'index_metadata', 'seq_index_0'))).toBe(false);
      expect(fs.existsSync(path.join(dir, '.store-doctor'))).toBe(false);
    }
  });
});
