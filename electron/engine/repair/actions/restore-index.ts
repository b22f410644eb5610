/** restore-index: write back the highest of shadow copy, disk and bucket evidence before Fluent Bit starts. */
import { selectTargets } from '../../diagnose/targets';
import { applyRestorePlan, planRestoreIndex } from '../index-actions';
import { sourceFlags, targetOf } from './context';
import { indexRefusal } from './index-common';
import type { ActionDef } from './types';

export const restoreIndex: ActionDef = {
  name: 'restore-index',
  kinds: ['restore'],
  writes: ['store'],
  journaled: true,
  bucket: { plan: false, apply: false },
  prefersIndexOutput: true,
  refuseRequest: (q) => indexRefusal(q, 'restore'),
  async plan(ctx, opts) {
    const { t, root } = targetOf(ctx, opts, restoreIndex);
    const ids = ctx.config
      ? selectTargets(ctx.report, ctx.config, opts.outputId)
          .filter((x) => x.hasIndex && x.root === root)
          .map((x) => x.id)
      : [t.id];
    const bucketSafe = new Map<number, number>();
    const evidenceText = new Map<number, string>();
    for (const o of ctx.diagnosis.outputs) {
      if (o.safeNextIndex !== null) bucketSafe.set(o.id, o.safeNextIndex);
      evidenceText.set(o.id, o.indexEvidence.text);
    }
    return planRestoreIndex({
      storePath: ctx.storePath,
      rootPath: root.path,
      outputIds: ids,
      shadowDir: opts.shadowDir,
      shadowFinal: opts.shadowFinal,
      bucketSafe,
      evidenceText,
      ...sourceFlags(ctx),
      skipProcessCheck: opts.skipProcessCheck,
      force: opts.force,
    });
  },
  writeRoot(plan) {
    const d = plan.details;
    if (d?.kind !== 'restore') return null;
    const sub = d.subplans.find((s) => s.details?.kind === 'index' && !s.details.noChange)?.details;
    return sub?.kind === 'index' ? sub.rootPath : null;
  },
  apply: (plan, opts) => applyRestorePlan(plan, opts),
};
