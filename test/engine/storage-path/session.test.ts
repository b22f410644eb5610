/**
 * storage.path through the session (the one path of the CLI, the loopback host and the IPC): a
 * storage.path is never opened as an S3 root; open → salvagePlan → salvageApply applies exactly the
 * reviewed plan once, only with its confirmation phrase; paths outside opened folders are refused.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { encode } from '@msgpack/msgpack';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RepairPlan, RepairResult, StoragePathReport } from '../../../shared/model';
import { encodeChunk } from '../../../electron/engine/chunk';
import type { Engine } from '../../../shared/contract';
import { createEngine, dispatchRequest } from '../../../electron/engine';

let dir: string;
let engine: Engine;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sd-sp-session-'));
  mkdirSync(path.join(dir, 'tail.0'));
  const content = Buffer.concat([0, 1, 2].map((i) => Buffer.from(encode([1700000000 + i, { i }]))));
  const stale = encodeChunk({ meta: Buffer.concat([Buffer.from([0xf1, 0x77, 0, 0]), Buffer.from('t')]), content, crc: true });
  stale.writeUInt32BE(1, 2);
  writeFileSync(path.join(dir, 'tail.0', '7-1700000000.5.flb'), stale);
  engine = createEngine({ door: 'cli', watch: false, stateDir: path.join(dir, '..', `${path.basename(dir)}-state`) });
});
afterEach(async () => {
  await engine.dispose();
  rmSync(dir, { recursive: true, force: true });
  rmSync(`${dir}-state`, { recursive: true, force: true });
});

describe('storage.path requests', () => {
  it('store.open refuses a storage.path, naming salvage', async () => {
    const r = await dispatchRequest(engine, 'store.open', { path: dir });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'invalid-input', message: expect.stringMatching(/storage.path .*store-doctor salvage/) });
  });

  it('plans, refuses a wrong confirmation, applies once', async () => {
    const outside = await dispatchRequest(engine, 'storagePath.salvagePlan', { path: dir });
    expect(outside.ok).toBe(false); // not opened yet: confined
    const open = await dispatchRequest(engine, 'storagePath.open', { path: dir });
    expect(open.ok && (open.value as StoragePathReport).totals).toMatchObject({ rejected: 1, rejectedRecords: 3 });
    const planned = await dispatchRequest(engine, 'storagePath.salvagePlan', { path: dir });
    if (!planned.ok) throw new Error(planned.error.message);
    const plan = planned.value as RepairPlan;
    expect(plan.steps).toHaveLength(1);
    expect(plan.confirm).toBe(path.basename(dir));
    expect(plan.bookkeeping?.map((s) => s.kind)).toContain('backup');
    const wrong = await dispatchRequest(engine, 'storagePath.salvageApply', { path: dir, planId: plan.planId!, confirm: 'nope' });
    expect(wrong.ok).toBe(false);
    const applied = await dispatchRequest(engine, 'storagePath.salvageApply', { path: dir, planId: plan.planId!, confirm: plan.confirm! });
    if (!applied.ok) throw new Error(applied.error.message);
    expect(applied.value as RepairResult).toMatchObject({ action: 'salvage', applied: true, verified: true });
    const again = await dispatchRequest(engine, 'storagePath.salvageApply', { path: dir, planId: plan.planId!, confirm: plan.confirm! });
    expect(again.ok).toBe(false); // a plan applies once
    const after = await dispatchRequest(engine, 'storagePath.open', { path: dir });
    expect(after.ok && (after.value as StoragePathReport).totals.rejected).toBe(0);
  });
});
