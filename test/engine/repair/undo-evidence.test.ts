/**
 * Undo is judged like every write (issue 18, cases 1 and 7): undoing a repair-index that created the
 * missing index would bring the reset back — Fluent Bit then starts at $INDEX 0 and overwrites the
 * keys the evidence shows used. Refused without force; the plan names the keys at risk and the
 * folders the repair created.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { UsedIndexEvidence } from '../../../shared/model';
import { applyIndexPlan, planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { applyUndo, planUndo } from '../../../electron/engine/repair/undo/undo';
import { RefusedError } from '../../../electron/engine/repair/outcome/errors';
import { extractFixture, type Extracted } from './helpers';

let fx: Extracted | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

const seqFile = (root: string) => path.join(root, 'sequence', 'index_metadata', 'seq_index_0');

function evidence(highest: number, at = '2026-01-02T03:04:05.000Z'): UsedIndexEvidence {
  const keys = Array.from({ length: highest + 1 }, (_, i) => ({ key: `/app/2026/01/02/${i}`, index: i })).reverse();
  return { outputId: 0, coverage: 'complete', text: 'a complete listing of bucket b', listedAt: at, highestIndex: highest, keys };
}

describe('undo of repair-index is judged against the evidence', () => {
  it('refuses to bring the missing index back (journal evidence), names the keys at risk, and applies only with force', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const plan = await planIndexRepair({
      storePath: fx.storeDir,
      rootPath: fx.root,
      outputId: 0,
      safeNextIndex: 12,
      evidence: evidence(11),
      skipProcessCheck: true,
    });
    await applyIndexPlan(plan, { skipProcessCheck: true });

    const undo = await planUndo(fx.storeDir, { skipProcessCheck: true });
    expect(undo.refusals).toHaveLength(1);
    expect(undo.refusals[0].forceable).toBe(true);
    expect(undo.refusals[0].reason).toMatch(/leaves seq_index_0 missing again .*starts at \$INDEX 0, but \$INDEX 11 is already used/);
    expect(undo.refusals[0].reason).toContain('listed 2026-01-02T03:04:05.000Z');
    expect(undo.details?.kind === 'undo' && undo.details.atRisk).toEqual([
      { outputId: 0, file: seqFile(fx.root), restored: null, highestIndex: 11, keys: Array.from({ length: 12 }, (_, i) => `/app/2026/01/02/${11 - i}`) },
    ]);
    // case 7: the folders the repair created are named as such, and the reset it brings back is said
    expect(undo.steps.map((s) => s.description)).toEqual([
      'remove seq_index_0: it did not exist before repair-index, so this brings the missing index (the reset) back',
      'remove index_metadata/, the folder repair-index created (it did not exist before; removed only if empty)',
      'remove sequence/, the folder repair-index created (it did not exist before; removed only if empty)',
    ]);
    await expect(applyUndo(undo)).rejects.toBeInstanceOf(RefusedError);
    expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('12');

    const forced = await applyUndo(await planUndo(fx.storeDir, { skipProcessCheck: true, force: true }), { force: true });
    expect(forced.verified).toBe(true);
    expect(existsSync(path.join(fx.root, 'sequence'))).toBe(false);
  });

  it('judges against the current evidence too (an entry without recorded evidence), and passes an undo that stays above it', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    await applyIndexPlan(await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: 12, skipProcessCheck: true }), {
      skipProcessCheck: true,
    });
    const bare = await planUndo(fx.storeDir, { skipProcessCheck: true });
    expect(bare.refusals).toEqual([]);
    expect(bare.why.join('\n')).toMatch(/seq_index_0: no evidence of the \$INDEX values already used/);
    const current = (root: string) => new Map([[0, { ...evidence(3), text: `current listing for ${path.basename(root)}` }]]);
    const judged = await planUndo(fx.storeDir, { skipProcessCheck: true, currentEvidence: current });
    expect(judged.refusals.map((r) => r.reason)).toEqual([expect.stringMatching(/\$INDEX 3 is already used — the current evidence: highest \$INDEX 3/)]);
    expect(judged.details?.kind === 'undo' && judged.details.atRisk?.[0].keys).toEqual([
      '/app/2026/01/02/3',
      '/app/2026/01/02/2',
      '/app/2026/01/02/1',
      '/app/2026/01/02/0',
    ]);

    // a repair from 12 to 20: undoing it puts back 12, above every index used (11): allowed
    await applyUndo(bare);
    await applyIndexPlan(await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: 12, skipProcessCheck: true }), {
      skipProcessCheck: true,
    });
    await applyIndexPlan(
      await planIndexRepair({
        storePath: fx.storeDir,
        rootPath: fx.root,
        outputId: 0,
        safeNextIndex: 12,
        value: 20,
        evidence: evidence(11),
        skipProcessCheck: true,
      }),
      { skipProcessCheck: true },
    );
    const up = await planUndo(fx.storeDir, { skipProcessCheck: true });
    expect(up.refusals).toEqual([]);
    expect(up.why.join('\n')).toMatch(/seq_index_0: the undo puts back 12, above the highest \$INDEX used \(11\)/);
    // and one that puts back a value at or below the highest used is refused
    await applyIndexPlan(
      await planIndexRepair({
        storePath: fx.storeDir,
        rootPath: fx.root,
        outputId: 0,
        safeNextIndex: 12,
        value: 30,
        evidence: evidence(25),
        skipProcessCheck: true,
      }),
      { skipProcessCheck: true },
    );
    const down = await planUndo(fx.storeDir, { skipProcessCheck: true });
    expect(down.refusals.map((r) => r.reason)).toEqual([
      expect.stringMatching(/leaves seq_index_0 at 20: Fluent Bit then continues there, but \$INDEX 25 is already used/),
    ]);
    expect(down.details?.kind === 'undo' && down.details.atRisk?.[0].keys.at(-1)).toBe('/app/2026/01/02/20');
  });
});
