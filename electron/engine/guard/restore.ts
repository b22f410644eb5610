/**
 * The daemon's restore of a root, through the one restore loop (./restore-loop.ts) and the one
 * write pipeline (repair.plan restore-index → repair.apply). Each attempt sends its outcome to the
 * root's state (./root-state.ts): refused (and why), restored; waits and retries happen outside the
 * request queue, so the report keeps being refreshed meanwhile.
 */
import type { RepairPlan, RepairResult } from '../../../shared/model';
import type { Guard } from './daemon';
import type { GuardedRoot } from './guarded-root';
import { indexOnDisk } from './root-check';
import { restoreLoop, wakeableWait, type AttemptOutcome } from './restore-loop';
import { waitForLearnt, waitForUsers } from './users';

/** Restore the root's index files once no process uses the root; retried until restored (or the root is gone, replaced, or the guard stopped). */
export async function restoreRoot(g: Guard, w: GuardedRoot): Promise<void> {
  const attempt = async (): Promise<AttemptOutcome> => {
    w.send({ kind: 'attempt' });
    try {
      if (!(await g.rootStillOurs(w))) return 'done';
      if (!(await g.rootKnown(w))) {
        g.note(`${w.rootPath} does not exist (yet): nothing to restore into; Fluent Bit creates it at its start`);
        return 'done';
      }
      // the Fluent Bit seen while it ran: wait for it cheaply, then plan (the pipeline checks every process)
      await waitForLearnt(w);
      await g.beforeWrite();
      const ok = await restoreOnce(g, w);
      const again = w.phase.kind !== 'watching' && w.phase.kind !== 'replaced' && w.phase.again;
      if (ok && !again) return 'done';
      g.changed();
      if (again || (await waitForUsers(g.users(), w))) return 'again';
    } catch (err) {
      const why = (err as Error).message;
      if (w.problem !== why) g.note(`restore in ${w.bucket} failed: ${why}`);
      w.send({ kind: 'refused', why });
    }
    g.changed(); // refused while it waits to try again: says so, and why
    return 'retry';
  };
  try {
    await restoreLoop({ attempt, going: () => !g.stopped, wait: wakeableWait((wake) => (w.wake = wake)), firstMs: g.opts.retryMs });
    g.restoreEnded(w);
    if (g.opts.marker && !g.stopped && !w.replaced) await protectRoot(g, w).catch((err: Error) => g.note(`marker: ${err.message}`));
  } finally {
    w.send({ kind: 'done' });
  }
}

/** One plan + apply per output of the root. True when nothing is left to try. */
async function restoreOnce(g: Guard, w: GuardedRoot): Promise<boolean> {
  let ok = true;
  for (const o of w.outputs) {
    const plan: RepairPlan = await g.call('repair.plan', { storeId: g.storeId!, action: 'restore-index', outputId: o.id, shadowDir: w.shadowDir });
    const unresolved = plan.details?.kind === 'restore' ? (plan.details.unresolved ?? []) : [];
    if (plan.refusals.length || unresolved.length) {
      // repaired meanwhile (restore-index, repair-index by hand): the file holds at least what the guard keeps
      const disk = await indexOnDisk(w.rootPath, o.id);
      const kept = w.guarded.get(o.id)?.value;
      if (disk !== null && (kept === undefined || disk >= kept)) continue;
      const why = unresolved.length ? `no value known for seq_index_${o.id} (the guard invents none)` : plan.refusals.map((r) => r.reason).join(' / ');
      if (w.problem !== why) g.note(`restore of seq_index_${o.id} in ${w.bucket} refused: ${why}`);
      w.send({ kind: 'refused', why });
      g.changed();
      ok = false;
      continue;
    }
    if (!plan.steps.length) continue;
    if (!(await g.rootStillOurs(w))) return true; // swapped while planning: nothing is written
    const result = await applyPlanned(g, plan);
    if (!result.applied || !result.verified) {
      const why = `restore of seq_index_${o.id} not verified: ${result.summary}`;
      g.note(why);
      w.send({ kind: 'refused', why });
      ok = false;
      continue;
    }
    const latency = w.deletedAt !== null ? Date.now() - w.deletedAt : null;
    const restored = w.guarded.get(o.id);
    if (restored) {
      w.ownWrites.set(o.id, restored.value);
      await g.keep(w, o.id, restored.value, true, 'restored after no process used the root');
    }
    w.restores.set(o.id, (w.restores.get(o.id) ?? 0) + 1);
    w.lastRestoreAt = g.lastRestoreAt = new Date().toISOString();
    g.restores++;
    if (latency !== null) {
      g.lastRestoreLatencyMs = latency;
      g.latencies.push(latency);
    }
    g.note(
      `restored seq_index_${o.id} of ${w.bucket}: ${result.summary}${latency !== null ? ` (${latency} ms after the deletion)` : ''} [journal ${result.undoId ?? '-'}]`,
    );
    for (const warning of result.warnings) g.note(`  ! ${warning}`);
  }
  // nothing left to restore (also when someone repaired the root meanwhile): no longer refused
  if (ok) w.send({ kind: 'restored' });
  return ok;
}

/** `--marker`: keep a marker chunk in sequence/ where it is safe (protect-index --method marker, through the pipeline). */
export async function protectRoot(g: Guard, w: GuardedRoot): Promise<void> {
  await g.beforeWrite();
  const plan = await g.call('repair.plan', { storeId: g.storeId!, action: 'protect-index', method: 'marker', outputId: w.outputs[0].id });
  if (plan.refusals.length) {
    const why = `marker not placed in ${w.bucket}: ${plan.refusals.map((r) => r.reason).join(' / ')}`;
    if (!g.messages.some((m) => m.endsWith(why))) g.note(why);
    return;
  }
  if (!plan.steps.length) return;
  g.note(`marker: ${(await applyPlanned(g, plan)).summary}`);
}

/** Apply a reviewed plan through the pipeline (the daemon merges what it changed into its report). */
function applyPlanned(g: Guard, plan: RepairPlan): Promise<RepairResult> {
  return g.call('repair.apply', { storeId: g.storeId!, planId: plan.planId!, confirm: plan.confirm ?? '' });
}
