/* eslint-disable @typescript-eslint/no-explicit-any -- reads untyped replies */
/**
 * Issue 19 item 9: planning reuses the diagnosis the session already made for the same state
 * (`diagnose.run`, or an earlier plan) instead of diagnosing the whole store again; a change of
 * anything the diagnosis rests on (config, evidence, the store) makes the next plan diagnose
 * again. The plan made from the reused diagnosis is the plan a fresh session makes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../../shared/contract';
import { extractFixture, FIXTURES, tempDir, type Extracted } from '../../support/fixtures';

const calls = vi.hoisted(() => ({ diagnose: 0 }));
vi.mock('../../../electron/engine/diagnose', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../electron/engine/diagnose')>();
  return {
    ...real,
    diagnose: (...args: Parameters<typeof real.diagnose>) => {
      calls.diagnose++;
      return real.diagnose(...args);
    },
  };
});
const { createEngine } = await import('../../../electron/engine');
const { requester } = await import('../../support/engine');

const CONFIG = path.join(FIXTURES, 'index-reset', 'fluent-bit.conf');
const LISTING = path.join(FIXTURES, 'index-reset', 's3api-list-objects-v2-after-run2.json');
const LISTING_RUN1 = path.join(FIXTURES, 'index-reset', 's3api-list-objects-v2-after-run1.json');
const BUCKET = 'fb-index-reset';
const AT = '2026-01-01T00:00:00.000Z';

const opened: { fx: Extracted; engine: Engine }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.engine.dispose();
    o.fx.cleanup();
  }
});

async function open(): Promise<{ ok: ReturnType<typeof requester>; storeId: string }> {
  const fx = extractFixture('index-reset', 'store-after-run2.tar.gz', BUCKET);
  const engine = createEngine({ door: 'host', stateDir: tempDir('sd-plan-once-').dir, watch: false });
  opened.push({ fx, engine });
  const ok = requester(engine);
  const { storeId } = await ok('store.open', { path: fx.storeDir });
  await ok('config.load', { storeId, path: CONFIG });
  await ok('evidence.importOffline', { storeId, documents: [{ name: 'listing.json', text: fs.readFileSync(LISTING, 'utf8') }] });
  return { ok, storeId };
}

/**
 * What a plan says, without its id, the paths of its temp store and what the process check saw
 * on this machine at that instant (other tests may have a Fluent Bit running meanwhile).
 */
function essence(plan: any, storeDir: string): unknown {
  const { planId: _id, basis: _basis, processCheck: _pc, ...rest } = plan;
  rest.warnings = (rest.warnings as string[]).filter((w) => !/^Fluent Bit process \d+ /.test(w));
  return JSON.parse(JSON.stringify(rest).split(storeDir).join('<store>'));
}

describe('planning diagnoses once per state', () => {
  it('repair.plan after diagnose.run reuses its diagnosis, and gives the plan a fresh session gives', async () => {
    const a = await open();
    await a.ok('diagnose.run', { storeId: a.storeId, at: AT });
    const before = calls.diagnose;
    const planA = await a.ok('repair.plan', { storeId: a.storeId, action: 'repair-index', at: AT });
    expect(calls.diagnose - before).toBe(0);
    const again = await a.ok('repair.plan', { storeId: a.storeId, action: 'repair-index', at: AT });
    expect(calls.diagnose - before).toBe(0);

    const b = await open();
    const beforeB = calls.diagnose;
    const planB = await b.ok('repair.plan', { storeId: b.storeId, action: 'repair-index', at: AT });
    expect(calls.diagnose - beforeB).toBe(1); // nothing cached: one diagnosis
    expect(planA.details).toMatchObject({ kind: 'index', value: 12 });
    const dirA = opened[0].fx.storeDir;
    const dirB = opened[1].fx.storeDir;
    expect(essence(planA, dirA)).toEqual(essence(planB, dirB));
    expect(essence(again, dirA)).toEqual(essence(planA, dirA));
  });

  it('a new config, new evidence or another restart time makes the next plan diagnose again', async () => {
    const a = await open();
    await a.ok('diagnose.run', { storeId: a.storeId, at: AT });
    let before = calls.diagnose;
    const first = await a.ok('repair.plan', { storeId: a.storeId, action: 'repair-index', at: '2026-01-02T00:00:00.000Z' });
    expect(calls.diagnose - before).toBe(1);

    await a.ok('evidence.importOffline', { storeId: a.storeId, documents: [{ name: 'listing.json', text: fs.readFileSync(LISTING_RUN1, 'utf8') }] });
    before = calls.diagnose;
    const run1 = await a.ok('repair.plan', { storeId: a.storeId, action: 'repair-index', at: AT });
    expect(calls.diagnose - before).toBe(1);
    // planned on the new evidence (run 1's 12 objects), not on the diagnosis of the old one (24)
    expect(first.why.join(' ')).toMatch(/overwrites 24 existing objects/);
    expect(run1.why.join(' ')).toMatch(/overwrites 12 existing objects/);

    await a.ok('config.load', { storeId: a.storeId, path: CONFIG });
    before = calls.diagnose;
    await a.ok('repair.plan', { storeId: a.storeId, action: 'repair-index', at: AT });
    expect(calls.diagnose - before).toBe(1);
  });

  it('evidence that passed its age limit since the diagnosis makes the plan diagnose again (and say so)', async () => {
    const fx = extractFixture('index-reset', 'store-after-run2.tar.gz', BUCKET);
    const engine = createEngine({ door: 'host', stateDir: tempDir('sd-plan-once-').dir, watch: false });
    opened.push({ fx, engine });
    const ok = requester(engine);
    const listing = path.join(tempDir('sd-plan-once-listing-').dir, 'listing.json');
    fs.copyFileSync(LISTING, listing);
    const taken = new Date(Date.now() - 59 * 60_000); // 59 minutes old: fresh under a 60-minute limit
    fs.utimesSync(listing, taken, taken);
    const { storeId } = await ok('store.open', { path: fx.storeDir, evidenceMaxAgeMinutes: 60 });
    await ok('config.load', { storeId, path: CONFIG });
    await ok('evidence.importFiles', { storeId, listing: [listing] });
    await ok('diagnose.run', { storeId, at: AT });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 2 * 60_000); // now 61 minutes old
      const before = calls.diagnose;
      const plan = await ok('repair.plan', { storeId, action: 'repair-index', at: AT });
      expect(calls.diagnose - before).toBe(1);
      expect(plan.why.join(' ')).toMatch(/stale evidence/);
    } finally {
      vi.useRealTimers();
    }
  });
});
