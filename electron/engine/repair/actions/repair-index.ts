/** repair-index: write the next `$INDEX` the bucket evidence calls safe (or a value the operator chose). */
import { applyIndexPlan, planIndexRepair } from '../index-actions';
import { usedEvidenceOf } from '../undo';
import { indexWhy, sourceFlags, targetOf } from './context';
import { indexRefusal, indexWriteRoot } from './index-common';
import type { ActionDef } from './types';

export const repairIndex: ActionDef = {
  name: 'repair-index',
  kinds: ['index'],
  writes: ['store'],
  journaled: true,
  bucket: { plan: false, apply: false },
  prefersIndexOutput: true,
  refuseRequest: (q) => indexRefusal(q, 'repair'),
  async plan(ctx, opts) {
    const { t, root, out, ev } = targetOf(ctx, opts, repairIndex);
    return planIndexRepair({
      storePath: ctx.storePath,
      rootPath: root.path,
      outputId: t.id,
      safeNextIndex: out?.safeNextIndex ?? null,
      lowerBound: out?.lowerBoundNextIndex ?? 0,
      evidenceText: out?.indexEvidence.text ?? 'no diagnosis of this output',
      evidenceListed: !!ev,
      why: indexWhy(out),
      value: opts.value,
      bucket: t.bucket,
      evidence: out ? usedEvidenceOf(out, ev) : undefined,
      ...sourceFlags(ctx),
      skipProcessCheck: opts.skipProcessCheck,
      force: opts.force,
    });
  },
  writeRoot: indexWriteRoot,
  apply: (plan, opts) => applyIndexPlan(plan, opts),
};
