/** recover-versions: copy overwritten object versions back under a recovery prefix (writes only the bucket). */
import { applyRecoverVersions, planRecoverVersions } from '../bucket';
import { pickTarget, sourceFlags } from './context';
import { needClient, type ActionDef } from './types';

export const recoverVersions: ActionDef = {
  name: 'recover-versions',
  kinds: ['recover'],
  writes: ['bucket'],
  journaled: false,
  bucket: { plan: true, apply: true },
  prefersIndexOutput: false,
  refuseRequest: (q) => (q.connection || (q.target && q.versionsEvidence) ? null : 'recover-versions asks the bucket while it plans: give the S3 connection'),
  async plan(ctx, opts) {
    const t = pickTarget(ctx, opts, recoverVersions.prefersIndexOutput);
    const flags = sourceFlags(ctx);
    return planRecoverVersions({
      storePath: ctx.storePath,
      bucket: t.bucket,
      client: opts.client ?? null,
      prefix: opts.prefix,
      recoveryPrefix: opts.recoveryPrefix,
      versions: ctx.evidence.get(t.id)?.versions ?? null,
      archive: flags.archive,
      readOnlySource: flags.readOnlySource,
      signal: opts.signal,
    });
  },
  writeRoot: () => null,
  apply: (plan, opts) => applyRecoverVersions(plan, { ...opts, client: needClient(plan, opts) }),
};
