/**
 * The documented shape of the plan file `--plan-out <file>` writes: ./plan-file.ts (what `apply`
 * accepts) with `request` and `plan` typed. `docs/plan-file.schema.json` is generated from this
 * (`npm run schema`); test/cli/json-schemas.test.ts checks real plan files against it.
 */
import { repairPlanRequestSchema } from '../contract';
import { planFileSchema } from './plan-file';
import { repairPlanSchema } from './repair';

export const planFileDocumentSchema = planFileSchema.extend({
  request: repairPlanRequestSchema.describe('the repair.plan request (action, outputId, value, …): apply plans it again'),
  plan: repairPlanSchema.describe('the plan as reviewed, as --json prints it: apply writes only when planning again gives the same'),
});
