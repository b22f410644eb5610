/** protect-index: keep the index across Fluent Bit's graceful stop (a marker chunk, or a shadow copy outside the store). */
import { applyProtectPlan, planProtectIndex } from '../index-actions';
import { outputsOnRoot, sourceFlags, targetOf } from './context';
import { indexWriteRoot } from './index-common';
import { noRequestRefusal, type ActionDef } from './types';

export const protectIndex: ActionDef = {
  name: 'protect-index',
  kinds: ['protect-marker', 'protect-shadow'],
  writes: ['store', 'shadow'],
  journaled: true,
  bucket: { plan: false, apply: false },
  prefersIndexOutput: true,
  refuseRequest: noRequestRefusal,
  async plan(ctx, opts) {
    const { root } = targetOf(ctx, opts, protectIndex);
    const on = outputsOnRoot(ctx, root);
    const markerSafe = !!on && on.every((o) => o.hasIndex);
    return planProtectIndex({
      storePath: ctx.storePath,
      rootPath: root.path,
      method: opts.method ?? (markerSafe ? 'marker' : 'shadow'),
      outputsOnRoot: on,
      shadowDir: opts.shadowDir,
      ...sourceFlags(ctx),
      skipProcessCheck: opts.skipProcessCheck,
      force: opts.force,
    });
  },
  writeRoot: indexWriteRoot,
  apply: (plan, opts) => applyProtectPlan(plan, opts),
};
