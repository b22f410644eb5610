/** undo: put back what the newest not-yet-undone action of a root changed. */
import { applyUndo, journalRoot, planUndo } from '../undo';
import { currentEvidence, sourceFlags } from './context';
import { noRequestRefusal, type ActionDef } from './types';

export const undo: ActionDef = {
  name: 'undo',
  kinds: ['undo'],
  writes: ['store'],
  journaled: false,
  bucket: { plan: false, apply: false },
  prefersIndexOutput: false,
  refuseRequest: noRequestRefusal,
  plan: (ctx, opts) =>
    planUndo(ctx.storePath, {
      ...sourceFlags(ctx),
      skipProcessCheck: opts.skipProcessCheck,
      force: opts.force,
      currentEvidence: (rootPath) => currentEvidence(ctx, rootPath),
    }),
  writeRoot: (plan) => (plan.details?.kind === 'undo' ? journalRoot(plan.details.journal) : null),
  apply: (plan, opts, root) => applyUndo(plan, { ...opts, writeRoot: root ?? undefined }),
};
