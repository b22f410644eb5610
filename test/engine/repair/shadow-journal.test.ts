/**
 * Issue 11: a shadow copy taken from a timer must not become the store's "last action" — `undo`
 * after it reverted the shadow (501 → 120) instead of the repair — and must add no journal line
 * or backup folder inside the store (nothing pruned them).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { applyProtectPlan, planProtectIndex } from '../../../electron/engine/repair/index-actions/protect';
import { applyIndexPlan, planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { undoLast } from '../../../electron/engine/repair/undo/undo';
import { extractFixture, tempDir, type Extracted } from './helpers';

let fx: Extracted | null = null;
let sh: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  fx?.cleanup();
  sh?.cleanup();
  fx = sh = null;
});

const journalLines = (root: string) => {
  const f = path.join(root, '.store-doctor', 'journal.jsonl');
  return existsSync(f) ? readFileSync(f, 'utf8').trim().split('\n').length : 0;
};

describe('protect-index --method shadow is no undo action', () => {
  it('adds nothing to the store journal; undo reverts the repair before it, not the shadow', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    sh = tempDir('sd-shadow-');
    const shadowDir = path.join(sh.dir, 'shadow');
    await applyIndexPlan(await planIndexRepair({ storePath: fx.root, rootPath: fx.root, outputId: 0, safeNextIndex: 501, skipProcessCheck: true }), {
      skipProcessCheck: true,
    });
    const lines = journalLines(fx.root);
    for (let i = 0; i < 3; i++)
      await applyProtectPlan(await planProtectIndex({ storePath: fx.root, rootPath: fx.root, method: 'shadow', outputsOnRoot: null, shadowDir }));
    expect(readFileSync(path.join(shadowDir, 'seq_index_0'), 'latin1')).toBe('501');
    expect(journalLines(fx.root)).toBe(lines);
    expect(readdirSync(path.join(fx.root, '.store-doctor', 'backups'))).toHaveLength(1);
    await undoLast(fx.root, { skipProcessCheck: true });
    expect(readFileSync(path.join(fx.root, 'sequence', 'index_metadata', 'seq_index_0'), 'latin1')).toBe('6');
    expect(readFileSync(path.join(shadowDir, 'seq_index_0'), 'latin1')).toBe('501');
  });
});
