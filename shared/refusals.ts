/**
 * The one rule for which refusals block applying a plan, for the engine, the CLI and the app: a
 * refusal that is not forceable always blocks; a forceable one blocks unless the plan is forced.
 */
export interface Refusal {
  reason: string;
  forceable: boolean;
}

export function blockingRefusals<R extends Refusal>(refusals: readonly R[], force: boolean | undefined): R[] {
  return refusals.filter((r) => !r.forceable || !force);
}
