/**
 * The plan file `--plan-out <file>` writes and `store-doctor apply <file>` reads: the store, the
 * evidence sources and the request the plan was made from, and the plan itself (as `--json`
 * prints it). This is what `apply` accepts (electron/cli/commands/plan-file.ts reads with it): the
 * top level is strict; `plan` and `request` are checked by the session, which plans the same
 * request anew and accepts only the same plan. ./plan-file-document.ts types them for the docs.
 * Kept free of the other document schemas: every CLI command loads it.
 */
import { z } from 'zod';

export const PLAN_FILE_FORMAT = 'store-doctor-plan/1';

const filePath = z.string().max(4096);

export const planFileSchema = z
  .object({
    format: z.literal(PLAN_FILE_FORMAT),
    createdAt: z.string().describe('ISO-8601 time, UTC'),
    store: z.string().min(1).max(4096).describe('the store as given (absolute)'),
    sources: z
      .object({
        configPath: filePath.optional().describe('--config (absolute)'),
        outputId: z.number().int().min(0).optional().describe('--output'),
        listing: z.array(filePath).max(1000).describe('--listing files (absolute)'),
        versions: z.array(filePath).max(1000).describe('--versions files (absolute)'),
        multipart: z.array(filePath).max(1000).describe('--multipart files (absolute)'),
        live: z
          .object({ profile: z.string().optional(), region: z.string().optional(), endpoint: z.string().optional(), pathStyle: z.boolean().optional() })
          .nullable()
          .describe('--live and its connection flags; null: offline'),
        fullListing: z.boolean(),
        at: z.string().optional().describe('--at: the assumed restart time'),
        fluentBitVersion: z.string().max(20).optional().describe('--fluent-bit-version'),
        fluentBitBin: filePath.optional().describe('--fluent-bit-bin (absolute)'),
      })
      .describe('the evidence options the plan was made with; apply reads them again'),
    request: z.record(z.string(), z.unknown()).describe('the repair.plan request (action, outputId, value, …)'),
    plan: z.record(z.string(), z.unknown()).describe('the plan, as --json prints it'),
  })
  .strict();

export type PlanFile = z.infer<typeof planFileSchema>;
