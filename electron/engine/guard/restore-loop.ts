/**
 * The one restore loop and its one retry policy, behind both `store-doctor guard` (the daemon,
 * ./daemon.ts) and `guard --once` (cli/commands/guard.ts): try; when the attempt says "retry",
 * wait (25 ms, doubled per attempt, up to 30 s — never past the deadline, and cut short by
 * `wait`'s own wake-up), then try again; "again" tries again at once (something changed: a
 * deletion seen meanwhile, the processes it waited for exited). The waits are effects the caller
 * gives, so the loop itself has no clock of its own beyond the deadline it is handed.
 */

/** The first wait before a refused restore is planned again; doubled per attempt up to `maxMs`. */
export const RESTORE_RETRY = { firstMs: 25, maxMs: 30_000 } as const;

export type AttemptOutcome = 'done' | 'again' | 'retry';

/** The wait after attempt `n` (0-based) was refused. */
export function retryDelay(n: number, firstMs: number = RESTORE_RETRY.firstMs): number {
  return Math.min(RESTORE_RETRY.maxMs, firstMs * 2 ** Math.min(n, 10));
}

export interface RestoreLoopOptions {
  /** One attempt; its errors are the caller's to turn into an outcome. */
  attempt: (n: number) => Promise<AttemptOutcome>;
  /** False once the loop must end (the guard stopped). */
  going: () => boolean;
  /** Wait `ms` (may end sooner: a wake-up). */
  wait: (ms: number) => Promise<void>;
  /** The first retry wait (default RESTORE_RETRY.firstMs). */
  firstMs?: number;
  /** No wait goes past this time (ms since the epoch); the attempt decides what a late try does. */
  deadline?: number;
  now?: () => number;
}

export async function restoreLoop(o: RestoreLoopOptions): Promise<void> {
  const now = o.now ?? Date.now;
  for (let n = 0; o.going(); n++) {
    const outcome = await o.attempt(n);
    if (outcome === 'done') return;
    if (outcome === 'again' || !o.going()) continue;
    const ms = retryDelay(n, o.firstMs);
    await o.wait(o.deadline === undefined ? ms : Math.max(0, Math.min(ms, o.deadline - now())));
  }
}

/** A wait that `wake()` ends early (the daemon's: another deletion seen meanwhile). */
export function wakeableWait(setWake: (wake: (() => void) | null) => void): (ms: number) => Promise<void> {
  return async (ms) => {
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      setWake(() => {
        clearTimeout(t);
        resolve();
      });
    });
    setWake(null);
  };
}
