/**
 * Who uses a guarded root: the processes the guard waits for before it restores. Each look is a
 * session request (`store.processes`, the one running-process check); waiting is a cheap poll of
 * `/proc/<pid>/stat` (./pids.ts). The write pipeline still checks every process before it writes.
 */
import type { CliSession } from '../session';
import { processesGone } from './pids';
import type { RootWatch } from './root-watch';

export interface UsersContext {
  call: CliSession['call'];
  storeId: string;
  note: (line: string) => void;
}

/** No process uses the root now (and the ones that do are remembered to wait for). */
export async function noUsers(ctx: UsersContext, w: RootWatch): Promise<boolean> {
  const r = await ctx.call('store.processes', { storeId: ctx.storeId, rootPath: w.rootPath });
  if (r.uninspectable)
    ctx.note(`${r.uninspectable} processes could not be inspected: run the guard as Fluent Bit's user (or root) so it sees when Fluent Bit exits`);
  w.pids = r.processes.map((p) => p.pid);
  w.learned = r.processes.length > 0;
  return r.processes.length === 0;
}

/**
 * Learn which Fluent Bit uses the root while it runs, to wait for it after a graceful stop: only the
 * processes named like Fluent Bit (a millisecond, not a scan of every process) — another user of
 * the root is found when the restore is refused for it (waitForUsers). Learnt only when one is
 * found: Fluent Bit often holds no file of the root between uploads.
 */
export function learnUsers(ctx: UsersContext, w: RootWatch): void {
  w.learning = true;
  void ctx
    .call('store.processes', { storeId: ctx.storeId, rootPath: w.rootPath, fluentBitOnly: true })
    .then((r) => {
      if (w.restoring) return;
      w.pids = r.processes.map((p) => p.pid);
      w.learned = w.pids.length > 0;
    })
    .catch(() => undefined)
    .finally(() => (w.learning = false));
}

/** Wait for the processes learnt while Fluent Bit ran, then forget them (the next run is learnt anew). */
export async function waitForLearnt(w: RootWatch): Promise<void> {
  if (w.pids.length) await processesGone(w.pids, 60_000);
  w.pids = [];
  w.learned = false;
}

/**
 * After a refused restore: the processes using the root now (a Fluent Bit still exiting, not seen
 * while it ran). True when there were some and they have exited — plan again at once.
 */
export async function waitForUsers(ctx: UsersContext, w: RootWatch): Promise<boolean> {
  const use = await ctx.call('store.processes', { storeId: ctx.storeId, rootPath: w.rootPath });
  if (!use.processes.length) return false;
  ctx.note(`waiting for ${use.processes.map((p) => `${p.command} (pid ${p.pid})`).join(', ')} to exit`);
  return processesGone(
    use.processes.map((p) => p.pid),
    60_000,
  );
}
