/**
 * The shadow folder has one format, whoever writes it (repair/shadow.ts): protect-index --method
 * shadow and the guard daemon write the same root.json (path, device, inode), and a root.json in
 * the older protect-index shape ({ rootPath, updatedAt }) still reads.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { applyProtectPlan, planProtectIndex, finalValues, readShadow, recordValue, shadowRootOf } from '../../../electron/engine/repair';
import { extractFixture, tempDir, type Extracted } from './helpers';

let fx: Extracted | null = null;
let sh: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  fx?.cleanup();
  sh?.cleanup();
  fx = sh = null;
});

describe('the shadow folder: one format', () => {
  it('protect-index --method shadow writes root.json as the guard does: path, device and inode of the root folder', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    sh = tempDir('sd-shadow-');
    const shadowDir = path.join(sh.dir, 'shadow');
    const r = await applyProtectPlan(await planProtectIndex({ storePath: fx.storeDir, rootPath: fx.root, method: 'shadow', outputsOnRoot: null, shadowDir }));
    expect(r.verified).toBe(true);
    const st = statSync(fx.root);
    const written = JSON.parse(readFileSync(path.join(shadowDir, 'root.json'), 'utf8'));
    expect(Object.keys(written).sort()).toEqual(['dev', 'ino', 'recordedAt', 'rootPath']);
    expect(written).toMatchObject({ rootPath: fx.root, dev: st.dev, ino: st.ino });
    // the guard writing the same folder finds its root already recorded: root.json is not rewritten
    const before = readFileSync(path.join(shadowDir, 'root.json'), 'utf8');
    await recordValue(shadowDir, await shadowRootOf(fx.root), 0, 7, true);
    expect(readFileSync(path.join(shadowDir, 'root.json'), 'utf8')).toBe(before);
  });

  it('reads a root.json in the older shape { rootPath, updatedAt }: the shadow matches its root by path', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    sh = tempDir('sd-shadow-');
    const dir = path.join(sh.dir, 'old');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(path.join(dir, 'seq_index_0'), '9', { mode: 0o600 });
    writeFileSync(path.join(dir, 'final.json'), '{ "0": 9 }\n', { mode: 0o600 });
    writeFileSync(path.join(dir, 'root.json'), JSON.stringify({ rootPath: fx.root, updatedAt: '2026-01-01T00:00:00.000Z' }), { mode: 0o600 });
    const state = await readShadow(dir);
    expect(state.problems).toEqual([]);
    expect(state.root).toMatchObject({ rootPath: fx.root });
    expect([...(await finalValues(state, fx.root))]).toEqual([[0, 9]]);
    expect([...(await finalValues(state, path.join(sh.dir, 'elsewhere')))]).toEqual([]);
  });
});
