/* eslint-disable @typescript-eslint/no-explicit-any -- reads untyped replies */
/**
 * The plan applied is the plan reviewed: `repair.plan` returns a plan id, `repair.apply` applies
 * exactly that plan, and refuses (asking for a new plan) when anything it rests on changed between
 * plan and apply: the bytes of a target file, the bucket evidence, the config, the store.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, dispatchRequest } from '../../../electron/engine';
import type { Engine } from '../../../shared/contract';
import { extractFixture, FIXTURES, tempDir, type Extracted } from '../../support/fixtures';

const CONFIG = path.join(FIXTURES, 'index-reset', 'fluent-bit.conf');
const LISTING = path.join(FIXTURES, 'index-reset', 's3api-list-objects-v2-after-run2.json');
const LISTING_RUN1 = path.join(FIXTURES, 'index-reset', 's3api-list-objects-v2-after-run1.json');
const BUCKET = 'fb-index-reset';

let fx: Extracted | null = null;
let engine: Engine | null = null;
afterEach(async () => {
  await engine?.dispose();
  engine = null;
  fx?.cleanup();
  fx = null;
});

async function call(name: string, input: unknown): Promise<any> {
  return dispatchRequest(engine!, name, input);
}
async function ok(name: string, input: unknown): Promise<any> {
  const r = await call(name, input);
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
  return r.value;
}

async function openWithListing(): Promise<string> {
  fx = extractFixture('index-reset', 'store-after-run2.tar.gz', BUCKET);
  engine = createEngine({ door: 'host', stateDir: tempDir('sd-plan-').dir, watch: false });
  const { storeId } = await ok('store.open', { path: fx.storeDir });
  await ok('config.load', { storeId, path: CONFIG });
  await ok('evidence.importOffline', { storeId, documents: [{ name: 'listing.json', text: fs.readFileSync(LISTING, 'utf8') }] });
  return storeId;
}
const seqFile = () => path.join(fx!.root, 'sequence', 'index_metadata', 'seq_index_0');

describe('plan identity', () => {
  it('refuses a plan whose target file changed between plan and apply', async () => {
    const storeId = await openWithListing();
    // a first repair creates the file, so the second plan rests on its bytes
    const first = await ok('repair.plan', { storeId, action: 'repair-index' });
    await ok('repair.apply', { storeId, planId: first.planId, confirm: BUCKET });
    const plan = await ok('repair.plan', { storeId, action: 'repair-index', value: 20 });
    fs.writeFileSync(seqFile(), '13'); // Fluent Bit (or anyone) wrote meanwhile
    const r = await call('repair.apply', { storeId, planId: plan.planId, confirm: BUCKET });
    expect(r).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(r.error.message).toMatch(/seq_index_0/);
    expect(r.error.message).toMatch(/plan again/i);
    expect(fs.readFileSync(seqFile(), 'latin1')).toBe('13');
  });

  it('refuses a plan whose bucket evidence was replaced', async () => {
    const storeId = await openWithListing();
    const plan = await ok('repair.plan', { storeId, action: 'repair-index' });
    await ok('evidence.importOffline', { storeId, documents: [{ name: 'run1.json', text: fs.readFileSync(LISTING_RUN1, 'utf8') }] });
    const r = await call('repair.apply', { storeId, planId: plan.planId, confirm: BUCKET });
    expect(r).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(r.error.message).toMatch(/evidence/i);
    expect(fs.existsSync(seqFile())).toBe(false);
  });

  it('refuses a plan whose config was replaced', async () => {
    const storeId = await openWithListing();
    const plan = await ok('repair.plan', { storeId, action: 'repair-index' });
    const other = path.join(tempDir('sd-conf-').dir, 'fluent-bit.conf');
    fs.writeFileSync(other, fs.readFileSync(CONFIG, 'utf8').replace('total_file_size  1M', 'total_file_size  2M'));
    await ok('config.load', { storeId, path: other });
    const r = await call('repair.apply', { storeId, planId: plan.planId, confirm: BUCKET });
    expect(r).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(r.error.message).toMatch(/config/i);
  });

  it('refuses an unknown plan id and a plan of another store', async () => {
    const storeId = await openWithListing();
    expect(await call('repair.apply', { storeId, planId: 'plan-doesnotexist', confirm: BUCKET })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    expect(await call('repair.apply', { storeId, planId: `plan-${'0'.repeat(24)}`, confirm: BUCKET })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    const plan = await ok('repair.plan', { storeId, action: 'repair-index' });
    const other = extractFixture('crash-during-run', 'store-after-crash.tar.gz');
    try {
      const o = await ok('store.open', { path: other.storeDir });
      expect(await call('repair.apply', { storeId: o.storeId, planId: plan.planId, confirm: BUCKET })).toMatchObject({ ok: false });
    } finally {
      other.cleanup();
    }
  });

  it('the confirmation must be the bucket name', async () => {
    const storeId = await openWithListing();
    const plan = await ok('repair.plan', { storeId, action: 'repair-index' });
    expect(plan.confirm).toBe(BUCKET);
    const r = await call('repair.apply', { storeId, planId: plan.planId, confirm: 'yes' });
    expect(r).toMatchObject({ ok: false, error: { code: 'refused' } });
    // the plan is still there: the right phrase applies it
    expect((await ok('repair.apply', { storeId, planId: plan.planId, confirm: BUCKET })).applied).toBe(true);
  });
});
