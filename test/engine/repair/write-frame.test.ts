/**
 * Issue 19 item 4: applyPlan makes the action's write frame (preconditions/write-frame.ts) and
 * the applier runs that frame — the source check before the lock, the process check right before
 * writing, the snapshot before and its diff after, the undo journal's entry around the write —
 * instead of its own calls. A recording frame wrapping the real one shows what ran, in which
 * order, on which root. The journal's rule (applied, failed, abandoned, no entry) is tested on a
 * frame of its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyPlan } from '../../../electron/engine/repair/apply';
import { planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { planUndo } from '../../../electron/engine/repair/undo/undo';
import { type WriteFrame, writeFrame } from '../../../electron/engine/repair/preconditions';
import { journaledWrite } from '../../../electron/engine/repair/preconditions/write-frame';
import { startPlan, startResult, RefusedError } from '../../../electron/engine/repair/outcome';
import { sha256, toolDir } from '../../../electron/engine/repair/journal';
import type { RepairPlan } from '../../../shared/model';
import { type Extracted, extractFixture, tempDir } from './helpers';

let fx: Extracted | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

/** The real frame for these options, recording each call as `what root`. */
function recording(calls: string[], opts: Parameters<typeof writeFrame>[0]): WriteFrame {
  const real = writeFrame(opts);
  const rec: WriteFrame = {
    assertSource: (root) => (calls.push(`source ${root}`), real.assertSource(root)),
    checkWrite: (root, o) => (calls.push(`checkWrite ${root}`), real.checkWrite(root, o)),
    async snapshot(root, scope) {
      calls.push(`snapshot ${root}`);
      const w = await real.snapshot(root, scope);
      return { end: (into, expected, what) => (calls.push(`end ${what}`), w.end(into, expected, what)) };
    },
    journaled(plan, result, spec, write) {
      calls.push(`journal ${plan.action}`);
      return journaledWrite(frame, plan, result, spec, (entry) => (calls.push(`write in ${entry ? entry.action : 'no entry'}`), write(entry)));
    },
  };
  const frame = rec;
  return rec;
}

describe('applyPlan hands the write frame to the applier', () => {
  it('repair-index and its undo run the frame they are given: source, checkWrite, snapshot, end', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const root = realpathSync(fx.root);
    const plan = await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: 12, skipProcessCheck: true });
    const calls: string[] = [];
    const r = await applyPlan(plan, { skipProcessCheck: true, frame: recording(calls, { skipProcessCheck: true }) });
    expect(r.verified).toBe(true);
    expect(calls).toEqual([`source ${fx.root}`, 'journal repair-index', `checkWrite ${root}`, `snapshot ${root}`, 'write in repair-index', 'end the repair']);
    expect(journalLines(root).map((l) => `${l.type} ${l.id === r.undoId}`)).toEqual(['action true', 'applied true']);

    const undo = await planUndo(fx.storeDir, { skipProcessCheck: true });
    const undoCalls: string[] = [];
    const u = await applyPlan(undo, { skipProcessCheck: true, frame: recording(undoCalls, { skipProcessCheck: true }) });
    expect(u.verified).toBe(true);
    expect(undoCalls).toEqual([`source ${fx.root}`, `checkWrite ${root}`, `snapshot ${root}`, 'end the undo']);
  });

  it("the process check's warnings reach the result of every applier, undo included", async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const seen = (opts: Parameters<typeof writeFrame>[0]): WriteFrame => {
      const real = writeFrame(opts);
      const f: WriteFrame = {
        ...real,
        checkWrite: async (root, o) => ({ ...(await real.checkWrite(root, o)), warnings: ['a shell has its working directory in the root'] }),
        journaled: (plan, result, spec, write) => journaledWrite(f, plan, result, spec, write),
      };
      return f;
    };
    const plan = await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: 12, skipProcessCheck: true });
    const r = await applyPlan(plan, { skipProcessCheck: true, frame: seen({ skipProcessCheck: true }) });
    expect(r.warnings).toContain('a shell has its working directory in the root');
    const undo = await planUndo(fx.storeDir, { skipProcessCheck: true });
    const u = await applyPlan(undo, { skipProcessCheck: true, frame: seen({ skipProcessCheck: true }) });
    expect(u.verified).toBe(true);
    expect(u.warnings).toContain('a shell has its working directory in the root');
  });
});

/** The undo journal of `root`, line by line. */
function journalLines(root: string): { type: string; id: string; verified?: boolean; message?: string; changes?: unknown[] }[] {
  return readFileSync(path.join(toolDir(root), 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe("the journaled write: the entry is the frame's, the applier only writes and verifies", () => {
  let dir: { dir: string; cleanup(): void } | null = null;
  afterEach(() => {
    dir?.cleanup();
    dir = null;
  });
  function setup() {
    const t = tempDir('journaled-');
    dir = t;
    const root = realpathSync(t.dir);
    mkdirSync(path.join(root, 'sequence'));
    const file = path.join(root, 'sequence', 'f');
    writeFileSync(file, 'old');
    const plan: RepairPlan = { ...startPlan('salvage', root, root), summary: 'test write' };
    return { root, file, plan, result: startResult(plan), frame: writeFrame({ skipProcessCheck: true }) };
  }

  it('opens the entry with the backup before the write, closes it applied with the verdict, and marks the result applied', async () => {
    const { root, file, plan, result, frame } = setup();
    let seenInWrite: string[] = [];
    const out = await frame.journaled(plan, result, { root, what: 'the test', changes: () => [{ kind: 'file', path: file }] }, async (entry) => {
      seenInWrite = journalLines(root).map((l) => l.type);
      expect(entry?.changes).toEqual([
        expect.objectContaining({ kind: 'file', path: file, before: expect.objectContaining({ exists: true, sha256: sha256(Buffer.from('old')) }) }),
      ]);
      writeFileSync(file, 'new');
      return { verified: false, expected: [file] };
    });
    expect(out.verified).toBe(false);
    expect(seenInWrite).toEqual(['action']); // durable before anything changed
    const lines = journalLines(root);
    expect(lines.map((l) => l.type)).toEqual(['action', 'applied']);
    expect(lines[1].verified).toBe(false); // the applier's verdict, not the frame's
    expect(result.undoId).toBe(lines[0].id);
    expect(result.applied).toBe(true);
    expect(result.verified).toBe(false); // the result's verdict stays the applier's
    expect(result.warnings).toEqual([]); // the write changed only what it said
  });

  it('a write that throws closes the entry as failed with its message, and the error goes on', async () => {
    const { root, file, plan, result, frame } = setup();
    await expect(
      frame.journaled(plan, result, { root, what: 'the test', changes: () => [{ kind: 'file', path: file }] }, async () => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    const lines = journalLines(root);
    expect(lines.map((l) => `${l.type} ${l.message ?? ''}`)).toEqual(['action ', 'failed disk full']);
    expect(result.applied).toBe(false);
  });

  it('a file that no longer holds the planned bytes abandons the entry and refuses: the write never runs', async () => {
    const { root, file, plan, result, frame } = setup();
    let wrote = false;
    const err = await frame
      .journaled(
        plan,
        result,
        { root, what: 'the test', changes: () => [{ kind: 'file', path: file }], expect: { path: file, sha256: sha256(Buffer.from('planned')) } },
        async () => {
          wrote = true;
          return { verified: true, expected: [file] };
        },
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RefusedError);
    expect((err as Error).message).toContain(`${file} changed since the plan was made`);
    expect(wrote).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(journalLines(root).map((l) => l.type)).toEqual(['action', 'abandoned']);
    expect(result.applied).toBe(false);
  });

  it('the process check comes first: refused, nothing is opened or written; forced, the result says what the force overrode', async () => {
    const { root, file, plan, result, frame } = setup();
    let wrote = false;
    const spec = {
      root,
      what: 'the test',
      check: { also: [{ reason: 'a Fluent Bit holds it', forceable: true }] },
      changes: () => [{ kind: 'file' as const, path: file }],
    };
    const write = async () => {
      wrote = true;
      return { verified: true, expected: [file] };
    };
    await expect(frame.journaled(plan, result, spec, write)).rejects.toBeInstanceOf(RefusedError);
    expect(wrote).toBe(false);
    expect(existsSync(toolDir(root))).toBe(false); // no journal, no backup
    expect(result.undoId).toBeNull();

    const forced = writeFrame({ skipProcessCheck: true, force: true });
    await forced.journaled(plan, result, spec, write);
    expect(wrote).toBe(true);
    expect(result.warnings.filter((w) => w.startsWith('Right before writing: ')).join('\n')).toContain('a Fluent Bit holds it');
    expect(journalLines(root).map((l) => l.type)).toEqual(['action', 'applied']);
  });

  it('journal: false opens no entry (nothing local changes), yet the write runs in the snapshot', async () => {
    const { root, file, plan, result, frame } = setup();
    const out = await frame.journaled(plan, result, { root, what: 'the test', journal: false, changes: () => [] }, async (entry) => {
      expect(entry).toBeNull();
      writeFileSync(file, 'unexpected');
      return { verified: true, expected: [] };
    });
    expect(out.verified).toBe(true);
    expect(result.undoId).toBeNull();
    expect(result.applied).toBe(true);
    expect(result.warnings.join('\n')).toMatch(/the test/); // the snapshot saw a change nobody declared
  });
});
