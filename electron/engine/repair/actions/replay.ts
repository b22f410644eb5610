/** replay: upload the chunks Fluent Bit gave up on, each under the key it would have written, create-only. */
import { applyReplay, planReplay } from '../bucket';
import { ActionInputError, indexWhy, sourceFlags, targetOf } from './context';
import { needClient, noRequestRefusal, type ActionDef } from './types';

export const replay: ActionDef = {
  name: 'replay',
  kinds: ['replay'],
  writes: ['store', 'bucket'],
  journaled: true,
  bucket: { plan: false, apply: true },
  prefersIndexOutput: true,
  refuseRequest: noRequestRefusal,
  async plan(ctx, opts) {
    const { t, root, out } = targetOf(ctx, opts, replay);
    if (!t.keyFormat) throw new ActionInputError("replay needs the output's s3_key_format: load the Fluent Bit config first");
    const safe = out?.safeNextIndex ?? null;
    const plan = await planReplay({
      storePath: ctx.storePath,
      root,
      rootPath: root.path,
      target: {
        bucket: t.bucket,
        keyFormat: t.keyFormat,
        tagDelimiters: t.tagDelimiters,
        staticFilePath: t.s3?.staticFilePath,
        compression: opts.compression ?? t.s3?.compression ?? 'none',
        outputId: t.hasIndex ? t.id : null,
      },
      safeNextIndex: safe ?? out?.lowerBoundNextIndex ?? 0,
      includeActive: opts.includeActive,
      time: opts.time,
      ...sourceFlags(ctx),
      skipProcessCheck: opts.skipProcessCheck,
      force: opts.force,
    });
    plan.why.push(...indexWhy(out));
    if (t.hasIndex && safe === null) {
      plan.refusals.push({
        reason: `No bucket evidence covers the key format (${out?.indexEvidence.text ?? 'not diagnosed'}): $INDEX values cannot be allocated safely. Give a listing (the create-only check still protects existing keys), or force.`,
        forceable: true,
      });
    }
    return plan;
  },
  writeRoot: (plan) => (plan.details?.kind === 'replay' ? plan.details.rootPath : null),
  apply: (plan, opts) => applyReplay(plan, { ...opts, client: needClient(plan, opts) }),
};
