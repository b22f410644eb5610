/** multipart: settle the uploads Fluent Bit left open, from the server's parts and the local records. */
import { applyMultipart, planMultipart } from '../bucket';
import { sourceFlags, targetOf } from './context';
import { parseKey } from '../../../../shared/keyformat';
import { needClient, type ActionDef } from './types';

export const multipart: ActionDef = {
  name: 'multipart',
  kinds: ['multipart'],
  writes: ['store', 'bucket'],
  journaled: true,
  bucket: { plan: true, apply: true },
  prefersIndexOutput: false,
  refuseRequest: (q) => (q.connection ? null : 'multipart asks the bucket while it plans: give the S3 connection'),
  async plan(ctx, opts) {
    const { t, root } = targetOf(ctx, opts, multipart);
    return planMultipart({
      storePath: ctx.storePath,
      rootPath: root.path,
      root,
      bucket: t.bucket,
      client: opts.client ?? null,
      decision: opts.decision,
      abortOrphans: opts.abortOrphans,
      prefix: opts.prefix,
      ownsKey: ownsKeyOf(t),
      ...sourceFlags(ctx),
      skipProcessCheck: opts.skipProcessCheck,
      force: opts.force,
      signal: opts.signal,
    });
  },
  writeRoot: (plan) => (plan.details?.kind === 'multipart' ? plan.details.rootPath : null),
  apply: (plan, opts) => applyMultipart(plan, { ...opts, client: needClient(plan, opts) }),
};

/** Does `key` belong to the output with this key format (multipart settles only its own uploads)? */
function ownsKeyOf(t: { keyFormat: string; tagDelimiters?: string }): ((k: string) => boolean) | undefined {
  return t.keyFormat ? (k) => !!parseKey(t.keyFormat, k, { tagDelimiters: t.tagDelimiters }) : undefined;
}
