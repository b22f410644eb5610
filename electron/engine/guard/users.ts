/**
 * Who uses a guarded root: the processes the guard waits for before it restores. Each look is a
 * session request (`store.processes`, the one running-process check); waiting is a cheap poll of
 * `/proc/<pid>/stat` (./pids.ts). The write pipeline still checks every process before it writes.
 * What is learnt goes into the root's users state (./root-state.ts) through `root.sendUsers`.
 */
import { processesGone } from './pids';
import type { GuardedRoot } from './guarded-root';
import type { GuardCall } from './call';

export interface UsersContext {
  call: GuardCall;
  storeId: string;
  note: (line: string) => void;
}

/** No process uses the root now (and the ones that do are remembered to wait for). */
export async function noUsers(ctx: UsersContext, w: GuardedRoot): Promise<boolean> {
  const r = await ctx.call('store.processes', { storeId: ctx.storeId, rootPath: w.rootPath });
  if (r.uninspectable)
    ctx.note(`${r.uninspectable} processes could not be inspected: run the guard as Fluent Bit's user (or root) so it sees when Fluent Bit exits`);
  w.sendUsers({ kind: 'seen', pids: r.processes.map((p) => p.pid) });
  return r.processes.length === 0;
}

/**
 * Learn which Fluent Bit uses the root while it runs, to wait for it after a graceful stop: only the
 * processes named like Fluent Bit (a millisecond, not a scan of every process) — another user of
 * the root is found when the restore is refused for it (waitForUsers). Learnt only when one is
 * found: Fluent Bit often holds no file of the root between uploads.
 */
export function learnUsers(ctx: UsersContext, w: GuardedRoot): void {
  w.sendUsers({ kind: 'learning' });
  let pids: number[] = [];
  void ctx
    .call('store.processes', { storeId: ctx.storeId, rootPath: w.rootPath, fluentBitOnly: true })
    .then((r) => {
      if (!w.restoring) pids = r.processes.map((p) => p.pid);
    })
    .catch(() => undefined)
    .finally(() => w.sendUsers({ kind: 'seen', pids }));
}

/** Wait for the processes learnt while Fluent Bit ran, then forget them (the next run is learnt anew). */
export async function waitForLearnt(w: GuardedRoot): Promise<void> {
  if (w.users.kind === 'known') await processesGone(w.users.pids, 60_000);
  w.sendUsers({ kind: 'gone' });
}

/**
 * After a refused restore: the processes using the root now (a Fluent Bit still exiting, not seen
 * while it ran). True when there were some and they have exited — plan again at once.
 */
export async function waitForUsers(ctx: UsersContext, w: GuardedRoot): Promise<boolean> {
  const use = await ctx.call('store.processes', { storeId: ctx.storeId, rootPath: w.rootPath });
  if (!use.processes.length) return false;
  ctx.note(`waiting for ${use.processes.map((p) => `${p.command} (pid ${p.pid})`).join(', ')} to exit`);
  return processesGone(
    use.processes.map((p) => p.pid),
    60_000,
  );
}
