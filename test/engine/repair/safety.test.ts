/**
 * Safety review (issue 4): edge cases of the write paths — torn journal lines, symlinked or
 * misplaced directories, index values beyond 2^53, exact owner restore, process detection.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { appendLine, lastUndoable, openAction, toolDir, JOURNAL_FILE } from '../../../electron/engine/repair/journal/journal';
import { loadReplayState, REPLAY_JOURNAL } from '../../../electron/engine/repair/bucket/replay-journal';
import { seqIndexPaths, writeSeqIndex } from '../../../electron/engine/repair/index-actions/index-file';
import { applyIndexPlan, planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { planReplay } from '../../../electron/engine/repair/bucket/replay-plan';
import { undoLast } from '../../../electron/engine/repair/undo/undo';
import { findProcessesUsing } from '../../../electron/engine/repair/preconditions/write-check';
import { applyProtectPlan, planProtectIndex, MARKER_NAME } from '../../../electron/engine/repair/index-actions/protect';
import { durableMove } from '../../../electron/engine/repair/write/move';
import { scanStore } from '../../../electron/engine/store/scan';
import { extractFixture, tempDir, type Extracted } from './helpers';

let t: ReturnType<typeof tempDir> | null = null;
let fx: Extracted | null = null;
afterEach(() => {
  t?.cleanup();
  fx?.cleanup();
  t = null;
  fx = null;
});

describe('journals after a crash while appending', () => {
  it('an action appended after a torn last line is still found (undo journal)', async () => {
    t = tempDir();
    const root = t.dir;
    const target = path.join(root, 'f');
    writeFileSync(target, 'old');
    const first = await openAction({ rootPath: root, storePath: root, action: 'repair-index', summary: 'first', changes: [{ kind: 'file', path: target }] });
    await first.applied(true);
    // a crash while appending leaves a line without its newline
    appendFileSync(path.join(toolDir(root), JOURNAL_FILE), '{"type":"applied","id":"torn","at":"2026');
    writeFileSync(target, 'new');
    const second = await openAction({ rootPath: root, storePath: root, action: 'repair-index', summary: 'second', changes: [{ kind: 'file', path: target }] });
    await second.applied(true);
    const last = await lastUndoable(root);
    expect(last?.entry.id).toBe(second.id);
    expect(last?.status).toBe('applied');
  });

  it('a replay intent appended after a torn last line still counts for the next index (replay journal)', async () => {
    t = tempDir();
    mkdirSync(toolDir(t.dir));
    const j = path.join(toolDir(t.dir), REPLAY_JOURNAL);
    await appendLine(j, { t: 'intent', chunk: 's/a', src: 'x', key: 'k-0', index: 0, size: 1, md5: 'm', at: '2026' });
    appendFileSync(j, '{"t":"intent","chunk":"s/b","src":"y","key":"k-1","ind');
    await appendLine(j, { t: 'intent', chunk: 's/c', src: 'z', key: 'k-7', index: 7, size: 1, md5: 'm', at: '2026' });
    const { states, maxIndex } = await loadReplayState(t.dir);
    expect(maxIndex).toBe(7);
    expect(states.get('s/c\0z')?.intent?.key).toBe('k-7');
  });
});

describe('directories of the index file', () => {
  it('refuses when index_metadata/ is a symlink (never writes outside the root)', async () => {
    t = tempDir();
    const root = path.join(t.dir, 'root');
    const outside = path.join(t.dir, 'outside');
    mkdirSync(path.join(root, 'sequence'), { recursive: true });
    mkdirSync(outside);
    symlinkSync(outside, path.join(root, 'sequence', 'index_metadata'));
    await expect(writeSeqIndex(root, 0, 12)).rejects.toThrow(/index_metadata.*(symlink|not a directory)/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses when sequence/ is a regular file, naming it', async () => {
    t = tempDir();
    writeFileSync(path.join(t.dir, 'sequence'), 'x');
    await expect(writeSeqIndex(t.dir, 0, 12)).rejects.toThrow(/sequence.*not a directory/);
    expect(readFileSync(path.join(t.dir, 'sequence'), 'utf8')).toBe('x');
  });

  it('durableMove creates missing folders durably and never follows a symlinked destination folder', async () => {
    t = tempDir();
    const src = path.join(t.dir, 'stream', 'chunk');
    mkdirSync(path.dirname(src));
    writeFileSync(src, 'data');
    const outside = path.join(t.dir, 'outside');
    mkdirSync(outside);
    mkdirSync(path.join(t.dir, '.store-doctor', 'replayed'), { recursive: true });
    symlinkSync(outside, path.join(t.dir, '.store-doctor', 'replayed', 'stream'));
    await expect(durableMove(t.dir, src, path.join(t.dir, '.store-doctor', 'replayed', 'stream', 'chunk'))).rejects.toThrow(/symlink|not a directory/);
    expect(readFileSync(src, 'utf8')).toBe('data');
    expect(readdirSync(outside)).toEqual([]);
    const dest = path.join(t.dir, '.store-doctor', 'replayed', 'other', 'chunk');
    await durableMove(t.dir, src, dest);
    expect(readFileSync(dest, 'utf8')).toBe('data');
    expect(statSync(path.dirname(dest)).mode & 0o777).toBe(0o700);
  });
});

describe('index values beyond 2^53', () => {
  it('compares the file exactly: a huge value is above safe (no change), and --value is not mistaken for it', async () => {
    t = tempDir();
    const { file } = seqIndexPaths(t.dir, 0);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '18446744073709551615');
    const keep = await planIndexRepair({ storePath: t.dir, rootPath: t.dir, outputId: 0, safeNextIndex: 12, skipProcessCheck: true });
    expect((keep.details as { noChange: boolean }).noChange).toBe(true);
    expect(keep.summary).toContain('18446744073709551615');
    const lower = await planIndexRepair({
      storePath: t.dir,
      rootPath: t.dir,
      outputId: 0,
      safeNextIndex: 12,
      value: Number.MAX_SAFE_INTEGER,
      skipProcessCheck: true,
    });
    expect((lower.details as { noChange: boolean }).noChange).toBe(false);
    expect(lower.warnings.join('\n')).toMatch(/lowers the index from 18446744073709551615/);
  });

  it('refuses (not forceable) a safe index that cannot be written exactly', async () => {
    t = tempDir();
    const plan = await planIndexRepair({ storePath: t.dir, rootPath: t.dir, outputId: 0, safeNextIndex: Number.MAX_SAFE_INTEGER + 2, skipProcessCheck: true });
    expect(plan.refusals.some((r) => !r.forceable && /2\^53/.test(r.reason))).toBe(true);
  });

  it('replay refuses clearly when the index file is beyond 2^53', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const { file } = seqIndexPaths(fx.root, 0);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '9007199254740993');
    const report = await scanStore(fx.storeDir);
    const plan = await planReplay({
      storePath: fx.storeDir,
      root: report.roots[0],
      rootPath: fx.root,
      target: { bucket: 'b', keyFormat: '/$TAG/$INDEX', compression: 'none', outputId: 0 },
      safeNextIndex: 0,
      skipProcessCheck: true,
    });
    expect(plan.refusals.some((r) => !r.forceable && /2\^53/.test(r.reason))).toBe(true);
    expect(plan.replayItems.every((i) => i.index === null || Number.isSafeInteger(i.index))).toBe(true);
  });
});

describe('undo restores the owner exactly', () => {
  it.skipIf(process.getuid?.() !== 0)('puts back uid/gid and mode of the previous file (the owner of the root folder, the Fluent Bit user)', async () => {
    t = tempDir();
    chownSync(t.dir, 1234, 1234); // an owner is restored only when the tool can vouch for it (undo-check.ts)
    const { file } = seqIndexPaths(t.dir, 0);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '7', { mode: 0o600 });
    chownSync(file, 1234, 1234);
    const plan = await planIndexRepair({ storePath: t.dir, rootPath: t.dir, outputId: 0, safeNextIndex: 20, skipProcessCheck: true });
    await applyIndexPlan(plan, { skipProcessCheck: true });
    expect(statSync(file).uid).toBe(1234);
    chownSync(file, 4321, 4321); // someone changed the owner (not the bytes)
    await undoLast(t.dir, { skipProcessCheck: true });
    expect(readFileSync(file, 'latin1')).toBe('7');
    expect([statSync(file).uid, statSync(file).gid, statSync(file).mode & 0o7777]).toEqual([1234, 1234, 0o600]);
  });
});

describe('guard', () => {
  it('finds a process whose working directory is the root, and one holding a deep file', async () => {
    t = tempDir();
    const deep = path.join(t.dir, 'a', 'b', 'c');
    mkdirSync(deep, { recursive: true });
    writeFileSync(path.join(deep, 'f'), 'x');
    const inRoot = spawn('sleep', ['30'], { cwd: t.dir, stdio: 'ignore' });
    const holder = spawn('tail', ['-f', path.join(deep, 'f')], { stdio: 'ignore' });
    try {
      let found: number[] = [];
      for (let i = 0; i < 100 && found.length < 2; i++) {
        found = (await findProcessesUsing(t.dir)).processes.map((p) => p.pid).filter((p) => p === inRoot.pid || p === holder.pid);
        if (found.length < 2) await new Promise((r) => setTimeout(r, 50));
      }
      expect(found.sort()).toEqual([inRoot.pid, holder.pid].sort());
    } finally {
      inRoot.kill('SIGKILL');
      holder.kill('SIGKILL');
    }
  });

  it('does not crash while processes come and go during the scan', async () => {
    t = tempDir();
    const kids = Array.from({ length: 20 }, () => spawn('true', { stdio: 'ignore' }));
    const r = await findProcessesUsing(t.dir);
    expect(r.supported).toBe(true);
    await Promise.all(kids.map((k) => new Promise((res) => (k.exitCode !== null ? res(null) : k.on('exit', res)))));
  });
});

describe('marker chunk is never replayed', () => {
  it('a protected store plans no item for sequence/store-doctor-marker', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const p = await planProtectIndex({
      storePath: fx.storeDir,
      rootPath: fx.root,
      method: 'marker',
      outputsOnRoot: [{ id: 0, displayName: 's3.0', hasIndex: true }],
      skipProcessCheck: true,
    });
    await applyProtectPlan(p, { skipProcessCheck: true });
    expect(existsSync(path.join(fx.root, 'sequence', MARKER_NAME))).toBe(true);
    const report = await scanStore(fx.storeDir);
    const plan = await planReplay({
      storePath: fx.storeDir,
      root: report.roots[0],
      rootPath: fx.root,
      target: { bucket: 'b', keyFormat: '/$TAG/$INDEX', compression: 'none', outputId: 0 },
      safeNextIndex: 0,
      includeActive: true,
      skipProcessCheck: true,
    });
    expect(plan.replayItems.some((i) => i.chunkPath.includes(MARKER_NAME))).toBe(false);
    expect(plan.replayItems.length).toBeGreaterThan(0);
  });
});

describe('undo that fails part-way', () => {
  it('is not recorded as undone: the next undo retries the same action, not an older one', async () => {
    t = tempDir();
    const { file } = seqIndexPaths(t.dir, 0);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '7');
    await applyIndexPlan(await planIndexRepair({ storePath: t.dir, rootPath: t.dir, outputId: 0, safeNextIndex: 9, skipProcessCheck: true }), {
      skipProcessCheck: true,
    });
    const second = await planIndexRepair({ storePath: t.dir, rootPath: t.dir, outputId: 0, safeNextIndex: 15, skipProcessCheck: true });
    const r2 = await applyIndexPlan(second, { skipProcessCheck: true });
    // the backup of the second action is lost: its undo cannot restore "9"
    const last = await lastUndoable(t.dir);
    expect(last?.entry.id).toBe(r2.undoId);
    const backup = (last!.entry.changes.find((c) => c.kind === 'file') as { before: { backup: string } }).before.backup;
    const { rmSync } = await import('node:fs');
    rmSync(path.join(toolDir(t.dir), backup));
    const u = await undoLast(t.dir, { skipProcessCheck: true }).catch((e: Error) => e);
    expect(u instanceof Error || u.verified === false).toBe(true);
    expect((await lastUndoable(t.dir))?.entry.id).toBe(r2.undoId);
    expect(readFileSync(file, 'latin1')).toBe('15');
  });
});
