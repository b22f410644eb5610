/**
 * The guard against a store writer who attacks it (issue 17): the bucket root replaced while the
 * guard runs (case 5) — by a symbolic link to another folder, or by another folder — is not
 * written to: logged, counted in store_doctor_root_replaced, reported at risk. A value
 * `repair-index --apply` wrote with bucket evidence (in the journal) is final (case 6).
 */
import { crashFixtureConfig, until as waitUntil } from '../../support/wait';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildNodeReport, Guard, type GuardOptions } from '../../../electron/engine/guard';
import { CliSession } from '../../../electron/cli/session';
import { createGuardMetrics } from '../../../electron/engine/guard/metrics';
import { applyIndexPlan, planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import type { UsedIndexEvidence } from '../../../shared/model';
import { extractFixture, tempDir, type Extracted } from '../repair/helpers';

/** The guard daemon hosted on its own CLI session, as `store-doctor guard` hosts it. */
function hosted(opts: GuardOptions): Guard {
  const session = new CliSession();
  return new Guard(opts, { call: (name, input) => session.call(name, input), dispose: () => session.dispose() });
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let fx: Extracted | null = null;
let sd: ReturnType<typeof tempDir> | null = null;
const guards: Guard[] = [];
afterEach(async () => {
  for (const g of guards.splice(0)) await g.stop();
  fx?.cleanup();
  sd?.cleanup();
  fx = sd = null;
});

const config = crashFixtureConfig;

const until = <T>(what: string, fn: Parameters<typeof waitUntil<T>>[1], timeoutMs = 20_000) => waitUntil<T>(what, fn, timeoutMs);

/** The bucket evidence a repair records (plan-action records it from the diagnosis). */
function evidence(coverage: UsedIndexEvidence['coverage'], highestIndex: number): UsedIndexEvidence {
  return { outputId: 0, coverage, text: 'a listing of bucket fb-crash', listedAt: null, highestIndex, keys: [] };
}

const seqFile = (root: string) => path.join(root, 'sequence', 'index_metadata', 'seq_index_0');

async function guarded(): Promise<{ g: Guard; logs: string[]; root: string }> {
  fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
  sd = tempDir('sd-guard-hostile-');
  const conf = config(fx.storeDir, path.join(sd.dir, 'fb.conf'));
  const logs: string[] = [];
  const g = hosted({ store: fx.storeDir, config: conf, stateDir: path.join(sd.dir, 'state'), pollMs: 100, refreshDebounceMs: 50, log: (l) => logs.push(l) });
  guards.push(g);
  await g.start();
  // no process uses the root: the value on disk is final, and restored after a deletion
  await until('the final value kept', () => g.roots.get(fx!.root)?.guarded.get(0)?.final);
  return { g, logs, root: fx.root };
}

describe('guard: the root replaced while it runs (issue 17 case 5)', { timeout: 60_000 }, () => {
  it('a symbolic link to another folder in its place: nothing is created in the target; logged, metric, at risk', async () => {
    const { g, logs, root } = await guarded();
    const target = path.join(sd!.dir, 'root-only');
    mkdirSync(target, { mode: 0o700 });
    renameSync(root, `${root}.moved`);
    symlinkSync(target, root);
    await until('the replacement seen', () => logs.find((l) => l.startsWith('ROOT REPLACED:')));
    await sleep(500); // polls and retries that would write go by
    expect(readdirSync(target)).toEqual([]);
    expect(existsSync(seqFile(`${root}.moved`))).toBe(true); // the real root was never touched either
    expect(logs.find((l) => l.startsWith('ROOT REPLACED:'))).toMatch(/is now a symbolic link \(to .*root-only\)/);
    const report = buildNodeReport(g, { version: 'test' });
    expect(report.outputs[0].risks.join('\n')).toMatch(/the guard writes nothing there/);
    const metrics = await createGuardMetrics(() => report, { defaultMetrics: false, rootsReplaced: () => g.rootsReplaced() }).text();
    expect(metrics).toContain('store_doctor_root_replaced{bucket="fb-crash"} 1');
  });

  it('another folder in its place: not written to', async () => {
    const { logs, root } = await guarded();
    renameSync(root, `${root}.moved`);
    mkdirSync(root);
    await until('the replacement seen', () => logs.find((l) => l.startsWith('ROOT REPLACED:')));
    await sleep(500);
    expect(readdirSync(root)).toEqual([]);
    expect(logs.find((l) => l.startsWith('ROOT REPLACED:'))).toMatch(/is another folder now/);
  });

  it('the same root losing sequence/ is still restored (the check does not stop the normal case)', async () => {
    const { g, root } = await guarded();
    const value = readFileSync(seqFile(root), 'latin1');
    const { rmSync } = await import('node:fs');
    rmSync(path.join(root, 'sequence'), { recursive: true });
    await until('the restore', () => existsSync(seqFile(root)) && readFileSync(seqFile(root), 'latin1') === value);
    expect(g.rootsReplaced()).toEqual([{ bucket: 'fb-crash', replaced: false }]);
  });
});

describe("guard: a value the tool's own repair wrote (issue 17 case 6)", { timeout: 60_000 }, () => {
  it('repair-index --apply with bucket evidence, journalled: final, restored after the next deletion', async () => {
    const { g, logs, root } = await guarded();
    // as `repair-index --apply` does with a complete listing (the same plan and apply)
    const plan = await planIndexRepair({
      storePath: fx!.storeDir,
      rootPath: root,
      outputId: 0,
      safeNextIndex: 50,
      lowerBound: 50,
      evidenceText: 'a complete listing of bucket fb-crash',
      evidenceListed: true,
      evidence: evidence('complete', 49),
    });
    expect(plan.refusals).toEqual([]);
    const applied = await applyIndexPlan(plan);
    expect(applied.verified).toBe(true);
    await until('the written value kept as final', () => g.roots.get(root)?.guarded.get(0)?.value === 50 && g.roots.get(root)?.guarded.get(0)?.final);
    expect(logs.some((l) => /kept 50 \(final\) \(written by repair-index on covering bucket evidence, in its journal/.test(l))).toBe(true);
    const { rmSync } = await import('node:fs');
    rmSync(path.join(root, 'sequence'), { recursive: true }); // the next graceful stop (no exit flush value held)
    await until('the restore of 50', () => existsSync(seqFile(root)) && readFileSync(seqFile(root), 'latin1') === '50');
  });

  // a forced repair: no evidence recorded; evidence that was stale; evidence showing the value used
  for (const [name, ev, why] of [
    ['without recorded evidence (forced)', undefined, /written by repair-index \S+, but no bucket evidence is recorded with it \(a forced value\): not final/],
    ['on stale evidence', evidence('stale', 10), /its recorded bucket evidence is stale \(a listing of bucket fb-crash\): not final/],
    ['below the used $INDEX the evidence shows', evidence('complete', 60), /its recorded bucket evidence shows \$INDEX 60 used, not below 50/],
  ] as const) {
    it(`repair-index --apply ${name}: not final, the reason logged`, async () => {
      const { g, logs, root } = await guarded();
      const plan = await planIndexRepair({
        storePath: fx!.storeDir,
        rootPath: root,
        outputId: 0,
        safeNextIndex: null,
        lowerBound: 0,
        value: 50,
        force: true,
        ...(ev ? { evidence: ev } : {}),
      });
      const applied = await applyIndexPlan(plan, { force: true });
      expect(applied.verified).toBe(true);
      await until('the reason logged', () => logs.find((l) => l.startsWith('seq_index_0 of fb-crash: 50 written by repair-index')));
      expect(logs.find((l) => l.startsWith('seq_index_0 of fb-crash: 50 written by repair-index'))).toMatch(why);
      await until('the value read', () => g.roots.get(root)?.guarded.get(0)?.value === 50);
      expect(g.roots.get(root)!.guarded.get(0)!.final).toBe(false);
    });
  }

  it('a value written by someone else (no journal entry for it) is not final', async () => {
    const { g, root } = await guarded();
    writeFileSync(seqFile(root), '70');
    await until('the value read', () => g.roots.get(root)?.guarded.get(0)?.value === 70);
    expect(g.roots.get(root)!.guarded.get(0)!.final).toBe(false);
  });
});
