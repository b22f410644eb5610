import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { applyIndexPlan, planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { planUndo, applyUndo, undoLast } from '../../../electron/engine/repair/undo/undo';
import { RefusedError } from '../../../electron/engine/repair/outcome/errors';
import { applyPlan } from '../../../electron/engine/repair/apply';
import { scanStore } from '../../../electron/engine/store';
import { extractFixture, type Extracted } from './helpers';

let fx: Extracted | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

const seqFile = (root: string, id = 0) => path.join(root, 'sequence', 'index_metadata', `seq_index_${id}`);

describe('index repair on index-reset (after run 2, index lost)', () => {
  it('plans 12 with exact bytes, applies atomically with the right modes, and undo restores the absence', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    expect(existsSync(path.join(fx.root, 'sequence'))).toBe(false);
    const plan = await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: 12, skipProcessCheck: true });
    expect(plan.refusals).toEqual([]);
    expect(plan.steps.map((s) => s.kind)).toEqual(['mkdir', 'mkdir', 'write-file']);
    const write = plan.steps[2];
    expect(write.target).toBe(seqFile(fx.root));
    expect(write.before).toBeNull();
    expect(write.after).toBe('12');
    expect(plan.summary).toMatch(/missing.*12/);

    const res = await applyIndexPlan(plan, { skipProcessCheck: true });
    expect(res.applied).toBe(true);
    expect(res.verified).toBe(true);
    expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('12');
    expect(statSync(path.join(fx.root, 'sequence')).mode & 0o777).toBe(0o755);
    expect(statSync(path.join(fx.root, 'sequence', 'index_metadata')).mode & 0o777).toBe(0o700);
    // nothing but the index file in index_metadata (no temp files)
    expect(readdirSync(path.join(fx.root, 'sequence', 'index_metadata'))).toEqual(['seq_index_0']);

    const undoPlan = await planUndo(fx.storeDir, { skipProcessCheck: true });
    expect(undoPlan.refusals).toEqual([]);
    expect(undoPlan.steps.map((s) => s.kind)).toEqual(['delete-file', 'rmdir', 'rmdir']);
    const u = await applyUndo(undoPlan);
    expect(u.verified).toBe(true);
    expect(existsSync(path.join(fx.root, 'sequence'))).toBe(false);
    // only our dot-dir remains in the root, exactly as before + .store-doctor
    expect(readdirSync(fx.root)).toEqual(['.store-doctor']);
    // nothing left to undo
    expect((await planUndo(fx.storeDir, { skipProcessCheck: true })).summary).toMatch(/Nothing to undo/);
  });

  it('refuses a value below the safe index unless forced', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const plan = await planIndexRepair({ storePath: fx.root, rootPath: fx.root, outputId: 0, safeNextIndex: 12, value: 5, skipProcessCheck: true });
    expect(plan.refusals).toHaveLength(1);
    expect(plan.refusals[0].forceable).toBe(true);
    await expect(applyIndexPlan(plan, { skipProcessCheck: true })).rejects.toBeInstanceOf(RefusedError);
    expect(existsSync(seqFile(fx.root))).toBe(false);
    const forced = await applyIndexPlan(plan, { force: true, skipProcessCheck: true });
    expect(forced.applied).toBe(true);
    expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('5');
  });
});

describe("applyPlan verifies by reading the file back with the scanner's parser", () => {
  it('the store scanner reads the new value (Fluent Bit fscanf rule)', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const plan = await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: 12, skipProcessCheck: true });
    const res = await applyPlan(plan, { skipProcessCheck: true });
    expect(res.verified).toBe(true);
    expect((await scanStore(fx.root)).roots[0].seqIndex.find((q) => q.outputId === 0)?.value).toBe(12);
  });
});

describe('index repair on crash-during-run (after crash, index 6 survives)', () => {
  it('needs no change when the bucket evidence says 6', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const before = readFileSync(seqFile(fx.root));
    const plan = await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: 6, skipProcessCheck: true });
    expect(plan.steps).toEqual([]);
    expect(plan.summary).toMatch(/No change needed/);
    const res = await applyIndexPlan(plan, { skipProcessCheck: true });
    expect(res.applied).toBe(false);
    expect(readFileSync(seqFile(fx.root)).equals(before)).toBe(true);
    expect(existsSync(path.join(fx.root, '.store-doctor'))).toBe(false);
  });
});

describe('undo restores previous bytes, mode and refuses after a later change', () => {
  it('restores "7\\n" exactly, and refuses when Fluent Bit rewrote the file since', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    writeFileSync(seqFile(fx.root), '7\n');
    const plan = await planIndexRepair({ storePath: fx.root, rootPath: fx.root, outputId: 0, safeNextIndex: 9, skipProcessCheck: true });
    await applyIndexPlan(plan, { skipProcessCheck: true });
    expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('9');
    await undoLast(fx.root, { skipProcessCheck: true });
    expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('7\n');

    await applyIndexPlan(await planIndexRepair({ storePath: fx.root, rootPath: fx.root, outputId: 0, safeNextIndex: 9, skipProcessCheck: true }), {
      skipProcessCheck: true,
    });
    writeFileSync(seqFile(fx.root), '10'); // Fluent Bit advanced it afterwards
    const up = await planUndo(fx.root, { skipProcessCheck: true });
    expect(up.refusals.some((r) => /changed after the action/.test(r.reason))).toBe(true);
    await expect(applyUndo(up)).rejects.toBeInstanceOf(RefusedError);
    expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('10');
  });

  it('refuses to apply a plan when the file changed after planning', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const plan = await planIndexRepair({ storePath: fx.root, rootPath: fx.root, outputId: 0, safeNextIndex: 20, skipProcessCheck: true });
    writeFileSync(seqFile(fx.root), '8');
    await expect(applyIndexPlan(plan, { skipProcessCheck: true })).rejects.toThrow(/changed since the plan/);
    expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('8');
  });
});

describe('guard', () => {
  it('refuses while a process has a file open under the root (forceable) and a read-only source (not forceable)', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const { spawn } = await import('node:child_process');
    const chunk = readdirSync(path.join(fx.root, '2026-11-29T18:36:36'))[0];
    const holder = spawn('tail', ['-f', path.join(fx.root, '2026-11-29T18:36:36', chunk)], { stdio: 'ignore' });
    try {
      await waitUntilOpen(holder.pid!, path.join(fx.root, '2026-11-29T18:36:36'));
      const plan = await planIndexRepair({ storePath: fx.root, rootPath: fx.root, outputId: 0, safeNextIndex: 20 });
      const r = plan.refusals.find((x) => x.reason.includes(String(holder.pid)));
      expect(r?.forceable).toBe(true);
      expect(r?.reason).toMatch(/tail/);
    } finally {
      holder.kill('SIGKILL');
    }
    const ro = await planIndexRepair({ storePath: fx.root, rootPath: fx.root, outputId: 0, safeNextIndex: 20, archive: true, skipProcessCheck: true });
    expect(ro.refusals.some((x) => !x.forceable && /archive/.test(x.reason))).toBe(true);
  });
});

/** Wait until the process has a file under `dir` open (tail may start slowly on a busy machine). */
async function waitUntilOpen(pid: number, dir: string): Promise<void> {
  const { readdirSync: rd, readlinkSync } = await import('node:fs');
  for (let i = 0; i < 100; i++) {
    try {
      if (rd(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(dir))) return;
    } catch {
      /* not started yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`process ${pid} never opened a file under ${dir}`);
}
