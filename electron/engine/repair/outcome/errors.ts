/** Errors of the repair engine that the doors map to exit codes / contract error codes. */
import { blockingRefusals } from '../../../../shared/refusals';

/** A plan was applied while it has refusals the caller did not (or cannot) override → exit 5. */
export class RefusedError extends Error {
  constructor(readonly reasons: string[]) {
    super(`refused: ${reasons.join(' ')}`);
    this.name = 'RefusedError';
  }
}

/** Throw RefusedError for every refusal not overridden by `force` (forceable ones only): the one rule, shared/refusals.ts. */
export function assertNotRefused(refusals: { reason: string; forceable: boolean }[], force?: boolean): void {
  const blocking = blockingRefusals(refusals, force);
  if (blocking.length) throw new RefusedError(blocking.map((r) => r.reason));
}

/**
 * The warning a forced plan carries: which checks the force overrides, each by its own sentence
 * (door-neutral: no command-line flag in it). Null when nothing forceable stands against the plan.
 */
export function forcedWarning(refusals: { reason: string; forceable: boolean }[]): string | null {
  const over = refusals.filter((r) => r.forceable);
  if (!over.length) return null;
  const list = over.map((r, i) => `(${i + 1}) ${r.reason}`).join(' ');
  return `Forced: overriding ${over.length === 1 ? 'this check' : `these ${over.length} checks`}: ${list} You take responsibility for the result.`;
}
