/** `store-doctor fleet --prometheus URL --json` (shared/fleet-prom.ts). */
import { z } from 'zod';
import { GUARD_STATES } from '../fleet';
import { PROM_FLEET_SCHEMA } from '../fleet-prom';
import { nodeCollisionSchema } from './guard';

const count = z.number().min(0);

export const promFleetDocumentSchema = z
  .object({
    schema: z.literal(PROM_FLEET_SCHEMA),
    prometheus: z.string().describe('the Prometheus URL queried'),
    queriedAt: z.string(),
    nodes: z
      .array(
        z
          .object({
            node: z.string().describe("the guard's --node (store_doctor_guard_up's node label)"),
            instance: z.string().describe('scrape target host:port; its /report.json is at http://<instance>/report.json'),
            job: z.string(),
            guardState: z.enum([...GUARD_STATES, 'down']).describe('"down": seen in the last hour, not in the last scrape'),
            outputs: count,
            outputsAtRisk: count,
            indexesAtRisk: count.describe('index files missing or below the guarded value'),
            risks: z.array(z.string()),
            indexes: z.array(
              z
                .object({
                  bucket: z.string(),
                  output: z.string(),
                  persisted: z.number().nullable(),
                  guarded: z.number().nullable(),
                  present: z.boolean(),
                  atRisk: z.boolean(),
                })
                .strict(),
            ),
            backlogChunks: count,
            backlogBytes: count,
            oldestBacklogSeconds: z.number().nullable(),
            quarantineChunks: count,
            damagedChunks: count,
            restores: count,
            scrapeAgeSeconds: z.number().nullable(),
          })
          .strict(),
      )
      .describe('most at risk first (after --at-risk-only and --node)'),
    collisions: z.array(nodeCollisionSchema),
    warnings: z.array(z.string()).describe("Prometheus's warnings: the data may be partial"),
    queryMs: count,
    totals: z
      .object({
        nodes: count,
        nodesAtRisk: count,
        outputsAtRisk: count,
        guardsDown: count,
        backlogChunks: count,
        backlogBytes: count,
        quarantineChunks: count,
        damagedChunks: count,
      })
      .strict(),
  })
  .strict();
