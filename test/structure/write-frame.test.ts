/**
 * Issue 19 item 4: the write prologue and epilogue live in one place. The process check right
 * before writing (`checkWriteAllowed`), the forced warning, the before/after snapshot of the store
 * (`snapshotStore`) and the undo journal's entry (`openAction`: backups, then applied / failed /
 * abandoned) are run by the write frame, repair/preconditions/write-frame.ts, which applyPlan makes
 * for every action and hands to its applier. No applier calls them itself: it declares what it
 * changes, writes and verifies.
 *
 * Allowed elsewhere: the planners' own check, which makes the plan's refusals and warnings (the
 * plan says before anything runs that Fluent Bit holds the store, or that it is an archive). That
 * is a plan refusal, not a write check; each one is named here with its function.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files';

const ROOT = path.resolve(__dirname, '../..');
const PRECONDITIONS = path.join('electron', 'engine', 'repair', 'preconditions') + path.sep;

/** `file#function` → why that function may call checkWriteAllowed / snapshotStore itself. */
const PLAN_TIME: Record<string, string> = {
  'electron/engine/repair/index-actions/index-repair.ts#withWriteCheck': 'plan refusals of repair-index (planIndexRepair)',
  'electron/engine/repair/index-actions/protect.ts#planProtectIndex': 'plan refusals of protect-index (marker and shadow)',
  'electron/engine/repair/index-actions/restore.ts#planRestoreIndex': 'plan refusals of restore-index (archive / read-only source)',
  'electron/engine/repair/bucket/replay-plan.ts#planReplay': 'plan refusals of replay',
  'electron/engine/repair/bucket/multipart.ts#planMultipart': 'plan refusals of multipart (source, then the process check when records are removed)',
  'electron/engine/repair/bucket/versions.ts#planRecoverVersions': 'plan refusals of recover-versions (archive / read-only source)',
  'electron/engine/repair/salvage/salvage.ts#planSalvage': 'plan refusals of salvage (engine layout)',
  'electron/engine/repair/salvage/salvage-store.ts#planStoreSalvage': 'plan refusals of salvage (store_dir layout)',
  'electron/engine/repair/undo/undo.ts#planUndo': 'plan refusals of undo (source, then the process check)',
};

/** Each call of checkWriteAllowed( / snapshotStore( / openAction( in `text`, as the top-level function it is in (`?` outside any). */
export function frameCalls(text: string): string[] {
  const out: string[] = [];
  let fn = '?';
  for (const line of text.split('\n')) {
    const def = /^(?:export\s+)?(?:async\s+)?function\s+(\w+)/.exec(line);
    if (/^\s*(?:\*|\/\/|\/\*)/.test(line)) continue; // a comment names them, does not call them
    if (def) fn = def[1];
    else if (/^\S/.test(line) && !/^[})\]]/.test(line)) fn = '?';
    for (const _ of line.matchAll(/(?<![\w.])(?:checkWriteAllowed|snapshotStore|openAction)\s*\(/g)) if (!def) out.push(fn);
  }
  return out;
}

describe('the write frame is the one prologue and epilogue', () => {
  it('no file outside preconditions/ calls checkWriteAllowed, snapshotStore or openAction, except the listed planners', () => {
    const found = new Set<string>();
    const bad: string[] = [];
    for (const f of ['electron', 'shared', 'renderer/src'].flatMap((d) => sourceFiles(path.join(ROOT, d)))) {
      const rel = path.relative(ROOT, f);
      if (rel.startsWith(PRECONDITIONS)) continue;
      for (const fn of frameCalls(readFileSync(f, 'utf8'))) {
        const key = `${rel.split(path.sep).join('/')}#${fn}`;
        if (PLAN_TIME[key]) found.add(key);
        else bad.push(key);
      }
    }
    expect(bad).toEqual([]);
    // The list holds no stale entry (a planner that stopped checking is taken off).
    expect([...found].sort()).toEqual(Object.keys(PLAN_TIME).sort());
  });

  it('the check sees calls and names their function', () => {
    const text = [
      'export async function applyX(plan) {',
      '  const g = await checkWriteAllowed(root, {});',
      '  const w = await snapshotStore(root, hooks);',
      '  const a = await openAction({ rootPath });',
      '}',
      'const y = 1;',
      'async function planX() {',
      '  return frame.checkWrite(root) && checkWriteAllowed (root);',
      '}',
      " * the snapshot (snapshotStore (store changed)) is the frame's",
      'export async function snapshotStore(root) {}',
      'export async function openAction(opts) {}',
    ].join('\n');
    expect(frameCalls(text)).toEqual(['applyX', 'applyX', 'applyX', 'planX']);
  });
});
