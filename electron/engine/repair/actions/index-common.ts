/** What the index actions (repair-index, restore-index, protect-index) share. */
import type { RepairPlan } from '../../../../shared/model';
import type { RequestFacts } from './types';

/** An index action on an output whose key format has no `$INDEX`: there is no index to act on. */
export function indexRefusal(q: RequestFacts, verb: string): string | null {
  const t = q.target;
  return t && !t.hasIndex ? `${t.displayName} has no $INDEX in its s3_key_format (${t.keyFormat || 'unknown'}): there is no index to ${verb} for it` : null;
}

/** The root an index, marker or shadow plan writes to (null: nothing to change). */
export function indexWriteRoot(plan: RepairPlan): string | null {
  const d = plan.details;
  if (d?.kind === 'index' || d?.kind === 'protect-marker' || d?.kind === 'protect-shadow') return d.noChange ? null : d.rootPath;
  return null;
}
