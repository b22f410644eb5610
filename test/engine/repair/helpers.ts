/** Re-exports the one fixture helper (test/support/fixtures.ts) for the repair tests. */
export { extractFixture, FIXTURES, tempDir, type Extracted } from '../../support/fixtures';
import type { RecoveryCopy, RepairPlan, SettleItem } from '../../../shared/model';

/** The uploads a multipart plan settles (its details). */
export function settleOf(plan: RepairPlan): SettleItem[] {
  if (plan.details?.kind !== 'multipart') throw new Error(`not a multipart plan: ${plan.details?.kind}`);
  return plan.details.settle;
}

/** The copies a recover-versions plan makes (its details). */
export function copiesOf(plan: RepairPlan): RecoveryCopy[] {
  if (plan.details?.kind !== 'recover') throw new Error(`not a recover-versions plan: ${plan.details?.kind}`);
  return plan.details.copies;
}
