/**
 * `undo`: put back what the newest not-yet-undone action of a store changed — previous bytes,
 * mode and owner, or the previous absence; directories it created (when still empty); chunks it
 * moved. Refuses (forceable) when a file changed after the action, e.g. Fluent Bit advanced the
 * index since: undoing then would throw that newer value away.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { PlanStep, RepairPlan, RepairResult } from '../../../shared/model';
import { atomicWriteFile, durableMove, durableUnlink, fsyncDir } from './atomic';
import { appendLine, currentAfter, lastUndoable, readBackup, type UndoChange } from './journal';
import { checkWriteAllowed, watchStore, type WriteTestHooks } from './guard';
import { assertNotRefused, RefusedError } from './errors';

function describe(c: UndoChange): PlanStep {
  if (c.kind === 'mkdir') return { kind: 'rmdir', target: c.path, description: `remove the directory the action created (only if empty)` };
  if (c.kind === 'move') return { kind: 'move', target: c.from, description: `move ${c.to} back to ${c.from}` };
  return c.before.exists
    ? {
        kind: 'write-file',
        target: c.path,
        description: `restore the previous ${c.before.size} bytes (mode ${c.before.mode?.toString(8)})`,
        before: null,
        after: null,
      }
    : { kind: 'delete-file', target: c.path, description: 'remove the file: it did not exist before the action' };
}

export async function planUndo(
  storePath: string,
  opts: { force?: boolean; skipProcessCheck?: boolean; archive?: boolean; readOnlySource?: boolean } = {},
): Promise<RepairPlan> {
  const abs = path.resolve(storePath);
  const plan: RepairPlan = { action: 'undo', storePath: abs, rootPath: null, summary: '', why: [], steps: [], warnings: [], refusals: [] };
  // An archive or a read-only store holds nothing we may write (and no journal we wrote).
  const src = await checkWriteAllowed(abs, { archive: opts.archive, readOnlySource: opts.readOnlySource, skipProcessCheck: true });
  if (src.refusals.length) {
    plan.refusals.push(...src.refusals);
    plan.summary = `Cannot undo anything in ${abs}.`;
    return plan;
  }
  const last = await lastUndoable(abs);
  if (!last) {
    plan.summary = 'Nothing to undo: no action is recorded for this store.';
    return plan;
  }
  const e = last.entry;
  plan.rootPath = e.rootPath;
  plan.summary = `Undo ${e.action} ${e.id} of ${e.at}: ${e.summary}`;
  plan.why.push(`Newest action in ${last.journal} that is not undone yet (${last.status}).`);
  plan.details = { kind: 'undo', journal: last.journal, id: e.id };
  if (!e.undoable) plan.refusals.push({ reason: e.undoNote ?? `${e.action} cannot be undone.`, forceable: false });
  const reversed = [...e.changes].reverse();
  for (const c of reversed) {
    const step = describe(c);
    if (c.kind === 'file') {
      const now = await currentAfter(c.path);
      const after = last.after?.[c.path];
      step.before = now.exists ? `${now.size} bytes` : null;
      step.after = c.before.exists ? `${c.before.size} bytes` : null;
      if (c.before.exists && c.before.size !== undefined && c.before.size <= 64) {
        const b = await readBackup(e.rootPath, c.before.backup!).catch(() => null);
        if (b) step.after = b.toString('latin1');
      }
      if (now.exists && now.size !== undefined && now.size <= 64) step.before = (await fsp.readFile(c.path)).toString('latin1');
      if (after && (after.exists !== now.exists || after.sha256 !== now.sha256)) {
        plan.refusals.push({
          reason: `${c.path} changed after the action (something else wrote it since); undoing would discard that change.`,
          forceable: true,
        });
      }
    }
    plan.steps.push(step);
  }
  const guard = await checkWriteAllowed(e.rootPath, { skipProcessCheck: opts.skipProcessCheck });
  plan.refusals.push(...guard.refusals);
  plan.warnings.push(...guard.warnings);
  if (opts.force && plan.refusals.some((r) => r.forceable)) plan.warnings.push('Forced: overriding refusals; you take responsibility for the result.');
  return plan;
}

export async function applyUndo(plan: RepairPlan, opts: { force?: boolean; skipProcessCheck?: boolean; hooks?: WriteTestHooks } = {}): Promise<RepairResult> {
  const d = plan.details?.kind === 'undo' ? plan.details : undefined;
  const result: RepairResult = {
    action: 'undo',
    applied: false,
    summary: plan.summary,
    steps: [],
    undoId: null,
    verified: false,
    warnings: [...plan.warnings],
  };
  const blocking = plan.refusals.filter((r) => !r.forceable || !opts.force);
  if (blocking.length) throw new RefusedError(blocking.map((r) => r.reason));
  if (!d) return { ...result, summary: plan.summary };
  const last = await lastUndoable(plan.storePath);
  if (!last || last.entry.id !== d.id) throw new Error('the journal changed since the undo was planned; plan again');
  const e = last.entry;
  assertNotRefused((await checkWriteAllowed(e.rootPath, { skipProcessCheck: opts.skipProcessCheck })).refusals, opts.force);
  // Re-check right before writing: a file changed since the plan (Fluent Bit started?) is refused.
  if (!opts.force) {
    for (const c of e.changes) {
      if (c.kind !== 'file' || !last.after?.[c.path]) continue;
      const now = await currentAfter(c.path);
      const after = last.after[c.path];
      if (after.exists !== now.exists || after.sha256 !== now.sha256)
        throw new RefusedError([`${c.path} changed after the action; undoing would discard that change.`]);
    }
  }
  const watch = await watchStore(e.rootPath, opts.hooks);
  let verified = true;
  for (const c of [...e.changes].reverse()) {
    const step = describe(c);
    try {
      if (c.kind === 'file') {
        if (c.before.exists) {
          const bytes = await readBackup(e.rootPath, c.before.backup!);
          const w = await atomicWriteFile(c.path, bytes, {
            mode: c.before.mode,
            owner: c.before.uid !== undefined ? { uid: c.before.uid, gid: c.before.gid! } : null,
            exact: c.before.mode !== undefined ? { mode: c.before.mode, uid: c.before.uid, gid: c.before.gid } : null,
          });
          result.warnings.push(...w.warnings);
          const now = await currentAfter(c.path);
          if (now.sha256 !== c.before.sha256) verified = false;
        } else {
          await durableUnlink(c.path);
          if ((await currentAfter(c.path)).exists) verified = false;
        }
        result.steps.push({ step, ok: true, message: c.before.exists ? 'restored' : 'removed' });
      } else if (c.kind === 'mkdir') {
        try {
          await fsp.rmdir(c.path);
          await fsyncDir(path.dirname(c.path));
          result.steps.push({ step, ok: true, message: 'removed' });
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          const msg = code === 'ENOENT' ? 'already gone' : code === 'ENOTEMPTY' || code === 'EEXIST' ? 'kept: not empty' : String(err);
          result.steps.push({ step, ok: code === 'ENOENT' || code === 'ENOTEMPTY' || code === 'EEXIST', message: msg });
        }
      } else {
        const toThere = await fsp.access(c.to).then(
          () => true,
          () => false,
        );
        if (toThere) await durableMove(c.to, c.from);
        result.steps.push({ step, ok: true, message: toThere ? 'moved back' : 'nothing to move back' });
      }
    } catch (err) {
      verified = false;
      result.steps.push({ step, ok: false, message: (err as Error).message });
    }
  }
  result.applied = true;
  result.verified = verified && result.steps.every((s) => s.ok);
  result.undoId = e.id;
  const touched = e.changes.flatMap((c) => (c.kind === 'move' ? [c.from, c.to] : [c.path]));
  const changed = await watch.warning(touched, 'the undo');
  if (changed) result.warnings.push(changed);
  if (!result.verified) {
    // Not recorded as undone: the next `undo` retries this action instead of silently moving on to an older one.
    await appendLine(last.journal, {
      type: 'undo-failed',
      id: e.id,
      at: new Date().toISOString(),
      message: result.steps
        .filter((s) => !s.ok)
        .map((s) => `${s.step.target}: ${s.message}`)
        .join('; '),
    });
    result.summary = `Undo of ${e.action} ${e.id} is INCOMPLETE (see the failed steps); it stays the last action: fix the cause and run undo again.`;
    return result;
  }
  await appendLine(last.journal, { type: 'undone', id: e.id, at: new Date().toISOString() });
  result.summary = `Undid ${e.action} ${e.id}.`;
  return result;
}

/** Plan + apply in one call. */
export async function undoLast(storePath: string, opts: { force?: boolean; skipProcessCheck?: boolean; hooks?: WriteTestHooks } = {}): Promise<RepairResult> {
  return applyUndo(await planUndo(storePath, opts), opts);
}
