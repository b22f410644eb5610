/** Re-exports the one fixture helper (test/support/fixtures.ts) for the repair tests. */
export { extractFixture, FIXTURES, tempDir, type Extracted } from '../../support/fixtures';
import type { RecoveryCopy, RepairPlan, ReplayItem, SettleItem } from '../../../shared/model';
import { scanStore } from '../../../electron/engine/store/scan';
import { planReplay } from '../../../electron/engine/repair/bucket/replay-plan';
import type { Extracted } from '../../support/fixtures';

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

/** A replay plan of the extracted backlog fixture's whole root to `bucket` (/$TAG/$INDEX from 0, no process check). */
export async function planBacklogReplay(fx: Extracted, bucket: string): Promise<RepairPlan & { replayItems: ReplayItem[] }> {
  const report = await scanStore(fx.storeDir);
  return planReplay({
    storePath: fx.storeDir,
    root: report.roots[0],
    rootPath: fx.root,
    target: { bucket, keyFormat: '/$TAG/$INDEX', compression: 'none', outputId: 0 },
    safeNextIndex: 0,
    skipProcessCheck: true,
  });
}
