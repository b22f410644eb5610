/** salvage: rewrite damaged chunks to what Fluent Bit accepts (planned by storagePath.salvagePlan, not by planAction). */
import { applySalvage } from '../salvage';
import { noRequestRefusal, type ActionDef } from './types';

export const salvage: ActionDef = {
  name: 'salvage',
  kinds: ['salvage'],
  writes: ['store'],
  journaled: true,
  bucket: { plan: false, apply: false },
  prefersIndexOutput: false,
  refuseRequest: noRequestRefusal,
  writeRoot: (plan) => (plan.details?.kind === 'salvage' ? plan.details.rootPath : null),
  apply: (plan, opts) => applySalvage(plan, opts),
};
