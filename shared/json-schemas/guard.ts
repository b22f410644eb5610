/** The guard's documents: GET /report.json (shared/fleet.ts), `fleet --json`, `guard --once --json`. */
import { z } from 'zod';
import { GUARD_STATES, nodeReportSchema } from '../fleet';
import { repairPlanSchema, repairResultSchema } from './repair';

const count = z.number().int().min(0);

export { nodeReportSchema };

export const nodeCollisionSchema = z
  .object({
    code: z.literal('COLLISION_ACROSS_NODES'),
    bucket: z.string(),
    endpoint: z.string().nullable(),
    keyFormat: z.string(),
    nodes: z.array(z.string()).describe('the nodes that write these keys, sorted'),
    summary: z.string(),
  })
  .strict();

export const fleetDocumentSchema = z
  .object({
    folder: z.string(),
    nodes: z
      .array(
        z
          .object({
            file: z.string().describe('the report file, relative to the folder'),
            node: z.string(),
            generatedAt: z.string(),
            guardState: z.enum(GUARD_STATES),
            outputs: count,
            outputsAtRisk: count,
            risks: z.array(z.string()).describe('"<output>: <why>" for every output at risk'),
            backlogChunks: count,
            backlogBytes: count,
            oldestBacklogSeconds: z.number().nullable(),
            quarantineChunks: count,
            damagedChunks: count,
            restores: count,
            report: nodeReportSchema,
          })
          .strict(),
      )
      .describe('most at risk first'),
    skipped: z.array(z.object({ file: z.string(), error: z.string() }).strict()).describe('files that are not node reports, with why'),
    collisions: z.array(nodeCollisionSchema).describe('COLLISION_ACROSS_NODES: nodes whose keys overwrite each other, most nodes first'),
    totals: z
      .object({
        nodes: count,
        nodesAtRisk: count,
        outputsAtRisk: count,
        backlogChunks: count,
        backlogBytes: count,
        quarantineChunks: count,
        damagedChunks: count,
      })
      .strict(),
  })
  .strict();

export const guardOnceDocumentSchema = z
  .object({
    once: z.literal(true),
    refused: z.array(z.string()).describe('why an output was not restored (exit 5 when not empty)'),
    results: z.array(z.object({ plan: repairPlanSchema, result: repairResultSchema.optional() }).strict()).describe('one restore-index plan per $INDEX output'),
  })
  .strict();
