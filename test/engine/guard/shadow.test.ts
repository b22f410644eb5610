import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { finalValues, readShadow, recordValue, shadowRootOf, shadowDirFor } from '../../../electron/engine/repair';
import { applyRestorePlan, planRestoreIndex } from '../../../electron/engine/repair/index-actions/restore';
import { pruneJournal } from '../../../electron/engine/repair/journal/journal-prune';
import { undoLast } from '../../../electron/engine/repair/undo/undo';
import { extractFixture, tempDir, type Extracted } from '../repair/helpers';

let fx: Extracted | null = null;
let sd: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  fx?.cleanup();
  sd?.cleanup();
  fx = sd = null;
});
const seqFile = (root: string, id = 0) => path.join(root, 'sequence', 'index_metadata', `seq_index_${id}`);

describe('guard state (D/<bucket>/)', () => {
  it('keeps the highest value, never lower; a value is final only while the shadow file holds it', async () => {
    sd = tempDir('sd-state-');
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const dir = shadowDirFor(sd.dir, 'fb-crash');
    expect(dir).toBe(path.join(sd.dir, 'fb-crash'));
    const root = await shadowRootOf(fx.root);
    expect(await recordValue(dir, root, 0, 9, false)).toEqual({ value: 9, raised: true, final: false });
    expect(await recordValue(dir, root, 0, 7, true)).toEqual({ value: 9, raised: false, final: false });
    expect(readFileSync(path.join(dir, 'seq_index_0'), 'latin1')).toBe('9');
    expect(await recordValue(dir, root, 0, 12, true)).toEqual({ value: 12, raised: true, final: true });
    let st = await readShadow(dir);
    expect([...(await finalValues(st, fx.root))]).toEqual([[0, 12]]);
    // Fluent Bit started again and wrote 13: the shadow has 13, not final; 12's final entry no longer counts
    expect(await recordValue(dir, root, 0, 13, false)).toEqual({ value: 13, raised: true, final: false });
    st = await readShadow(dir);
    expect([...(await finalValues(st, fx.root))]).toEqual([]);
    expect((await recordValue(dir, root, 0, 13, true)).final).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['final.json', 'root.json', 'seq_index_0']);
  });

  it('final values hold only for their own root: same path, or the same folder by device and inode (a bind mount)', async () => {
    sd = tempDir('sd-state-');
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const dir = shadowDirFor(sd.dir, 'fb-crash');
    await recordValue(dir, await shadowRootOf(fx.root), 0, 5, true);
    const st = await readShadow(dir);
    const link = path.join(fx.dir, 'mounted-elsewhere');
    symlinkSync(fx.root, link); // another path to the same folder (stat follows it: same device and inode)
    expect([...(await finalValues(st, link))]).toEqual([[0, 5]]);
    const other = path.join(fx.dir, 'other-root');
    mkdirSync(other);
    expect([...(await finalValues(st, other))]).toEqual([]);
  });

  it('reads a tampered state folder as hostile input: symlinks and garbage are problems, never values', async () => {
    sd = tempDir('sd-state-');
    const dir = path.join(sd.dir, 'b');
    mkdirSync(dir);
    writeFileSync(path.join(sd.dir, 'secret'), '999');
    symlinkSync(path.join(sd.dir, 'secret'), path.join(dir, 'seq_index_0'));
    writeFileSync(path.join(dir, 'final.json'), '{"0": "lots"}');
    writeFileSync(path.join(dir, 'root.json'), 'not json');
    const st = await readShadow(dir);
    expect(st.values.size).toBe(0);
    expect(st.final.size).toBe(0);
    expect(st.root).toBeNull();
    expect(st.problems.join('\n')).toMatch(/seq_index_0: .*symlink/);
    expect(st.problems.join('\n')).toMatch(/final\.json: not a guard state file/);
    expect(st.problems.join('\n')).toMatch(/root\.json: not valid JSON/);
    expect(shadowDirFor(sd.dir, '../x')).toMatch(new RegExp(`^${sd.dir}/bucket-[0-9a-f]{16}$`));
  });
});

describe('restore-index from the guard state', () => {
  it('restores a final value without bucket evidence; refuses a value not known to be final; warns when evidence checked it', async () => {
    sd = tempDir('sd-state-');
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const dir = shadowDirFor(sd.dir, 'fb-crash');
    const id = await shadowRootOf(fx.root);
    await recordValue(dir, id, 0, 11, false);
    rmSync(path.join(fx.root, 'sequence'), { recursive: true });
    const unsure = await planRestoreIndex({ storePath: fx.storeDir, rootPath: fx.root, outputIds: [0], shadowDir: dir, skipProcessCheck: true });
    expect(unsure.refusals.map((r) => r.reason).join('\n')).toMatch(/not known to be final/);
    const checked = await planRestoreIndex({
      storePath: fx.storeDir,
      rootPath: fx.root,
      outputIds: [0],
      shadowDir: dir,
      bucketSafe: new Map([[0, 10]]),
      skipProcessCheck: true,
    });
    expect(checked.refusals).toEqual([]);
    expect(checked.warnings.join('\n')).toMatch(/shadow copy \(11\) is not known to be final.*bucket evidence \(10\)/);
    await recordValue(dir, id, 0, 11, true);
    const plan = await planRestoreIndex({ storePath: fx.storeDir, rootPath: fx.root, outputIds: [0], shadowDir: dir, skipProcessCheck: true });
    expect(plan.refusals).toEqual([]);
    expect(plan.why.join('\n')).toMatch(/shadow 11 \(final\), disk missing/);
    const r = await applyRestorePlan(plan, { skipProcessCheck: true });
    expect(r.verified).toBe(true);
    expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('11');
    // the same state folder used for another root (the path of another bucket) is not final there
    const other = path.join(fx.storeDir, 'other');
    mkdirSync(other);
    const elsewhere = await planRestoreIndex({ storePath: fx.storeDir, rootPath: other, outputIds: [0], shadowDir: dir, skipProcessCheck: true });
    expect(elsewhere.refusals.map((x) => x.reason).join('\n')).toMatch(/not known to be final/);
  });

  it('invents nothing: an output with no value anywhere is unresolved', async () => {
    sd = tempDir('sd-state-');
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    rmSync(path.join(fx.root, 'sequence'), { recursive: true });
    const plan = await planRestoreIndex({
      storePath: fx.storeDir,
      rootPath: fx.root,
      outputIds: [0],
      shadowDir: path.join(sd.dir, 'none'),
      skipProcessCheck: true,
    });
    expect(plan.steps).toEqual([]);
    expect(plan.details).toMatchObject({ kind: 'restore', unresolved: [0] });
    expect(plan.summary).toMatch(/no value known for seq_index_0/);
  });
});

describe('journal pruning', () => {
  it('keeps the newest actions and their backups; restores never grow the journal past the bound', async () => {
    sd = tempDir('sd-state-');
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const dir = shadowDirFor(sd.dir, 'fb-crash');
    const id = await shadowRootOf(fx.root);
    for (let v = 7; v < 7 + 12; v++) {
      await recordValue(dir, id, 0, v, true);
      await applyRestorePlan(await planRestoreIndex({ storePath: fx.storeDir, rootPath: fx.root, outputIds: [0], shadowDir: dir, skipProcessCheck: true }), {
        skipProcessCheck: true,
      });
    }
    const tool = path.join(fx.root, '.store-doctor');
    const actions = () =>
      readFileSync(path.join(tool, 'journal.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .filter((l) => JSON.parse(l).type === 'action');
    expect(actions()).toHaveLength(12);
    expect(readdirSync(path.join(tool, 'backups'))).toHaveLength(12);
    writeFileSync(path.join(tool, 'journal.jsonl'), readFileSync(path.join(tool, 'journal.jsonl'), 'utf8') + '{"torn');
    const r = await pruneJournal(fx.root, { keep: 5 });
    expect(r).toEqual({ removedActions: 7, removedBackups: 7, keptActions: 5 });
    expect(actions()).toHaveLength(5);
    const kept = actions().map((l) => JSON.parse(l).id as string);
    expect(readdirSync(path.join(tool, 'backups')).sort()).toEqual([...kept].sort());
    expect(await pruneJournal(fx.root, { keep: 5 })).toEqual({ removedActions: 0, removedBackups: 0, keptActions: 5 });
    // the pruned journal is still one undo trusts: it reverts the newest restore (18 → 17)
    await undoLast(fx.root, { skipProcessCheck: true });
    expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('17');
    // a planted backups/<not-an-id> is never removed
    const planted = path.join(tool, 'backups', 'keep-me');
    mkdirSync(planted);
    expect((await pruneJournal(fx.root, { keep: 1 })).removedActions).toBe(4);
    expect(existsSync(planted)).toBe(true);
  });
});
