/**
 * The documented shape of every repair command's `--json` (repair-index, protect-index,
 * restore-index, undo, recover-versions, replay, multipart) and of `apply <plan.json> --json`:
 * a dry run `{ dryRun: true, plan }`, an apply `{ dryRun: false, plan, result }`, a failure
 * `{ dryRun, plan?, error }` — or, when the command line itself is wrong, the bare error document
 * (./error.ts). Scripts may rely on every field named here; objects carry more (informative).
 * `docs/repair.schema.json`, `docs/replay.schema.json` and `docs/multipart.schema.json` are
 * generated from this file (`npm run schema`).
 */
import { z } from 'zod';
import { repairActionSchema } from '../contract';
import { scanRootSchema, scanSeqIndexSchema, scanStreamSchema } from '../scan-schema';
import { cliErrorSchema, errorDocumentSchema } from './error';

const int = z.number().int().min(0);
const hexOrNull = z.string().nullable();

export const planStepSchema = z
  .object({
    kind: z.string().describe('write-file, mkdir, move, delete-file, put-object, complete-upload, abort-upload, copy-object, …'),
    target: z.string().describe('absolute local path, or s3://bucket/key'),
    description: z.string(),
    before: z.string().nullable().optional().describe('writes: the previous content (null: absent)'),
    after: z.string().nullable().optional().describe('writes: the new content (null: absent)'),
  })
  .loose()
  .meta({ id: 'PlanStep' });

export const replayItemSchema = z
  .object({
    chunkPath: z.string().describe('<stream>/<name>, relative to the root'),
    stream: z.string(),
    tag: z.string(),
    key: z.string().describe('the S3 key it is (or was) uploaded to'),
    index: int.nullable().describe('the $INDEX the key uses; null: the key format has none'),
    bytes: int,
    records: int.nullable(),
    compression: z.string(),
    state: z.enum(['planned', 'uploaded', 'skipped', 'failed', 'done']),
    message: z.string().optional().describe('why skipped or failed'),
  })
  .loose()
  .meta({ id: 'ReplayItem' });

const settleItemSchema = z
  .object({
    recordPath: z.string().nullable().describe('the local multipart record; null: a server upload without one'),
    key: z.string(),
    uploadId: z.string(),
    op: z.enum(['complete', 'abort', 'forget', 'none']).describe('forget: the server has no such upload, the record is removed; none: left alone'),
    parts: z.array(z.object({ partNumber: int, etag: z.string() }).loose()),
    reason: z.string(),
  })
  .loose();

const indexDetails = z
  .object({
    kind: z.literal('index'),
    rootPath: z.string(),
    outputId: int,
    value: int.describe('the next $INDEX written'),
    file: z.string().describe('the seq_index_<id> file'),
    expectedBeforeHex: hexOrNull,
    noChange: z.boolean(),
  })
  .loose();

export const detailsKinds = ['index', 'restore', 'protect-marker', 'protect-shadow', 'undo', 'replay', 'multipart', 'recover', 'salvage'] as const;

export const salvageDetails = z
  .object({
    kind: z.literal('salvage'),
    rootPath: z.string(),
    layout: z.enum(['storage-path', 'store-dir']),
    chunks: z.array(
      z
        .object({
          path: z.string(),
          beforeSha256: z.string(),
          afterSha256: z.string(),
          records: int,
          cutBytes: int.describe('bytes of a torn last record cut'),
        })
        .loose(),
    ),
  })
  .loose();

const replayDetails = z
  .object({
    kind: z.literal('replay'),
    rootPath: z.string(),
    bucket: z.string(),
    keyFormat: z.string(),
    compression: z.enum(['none', 'gzip']),
    outputId: int.nullable(),
    firstIndex: int,
    items: z.array(replayItemSchema),
  })
  .loose();

const multipartDetails = z.object({ kind: z.literal('multipart'), rootPath: z.string(), bucket: z.string(), settle: z.array(settleItemSchema) }).loose();

/** Data the apply step needs, by `kind` (UIs show `steps`, not this): informative, may change between versions. */
export const planDetailsSchema = z
  .discriminatedUnion('kind', [
    indexDetails,
    z
      .object({
        kind: z.literal('restore'),
        subplans: z
          .array(z.object({ action: repairActionSchema, steps: z.array(planStepSchema), details: indexDetails.optional() }).loose())
          .describe('one index plan per output of the root'),
        unresolved: z.array(int).optional().describe('$INDEX output ids with no value anywhere: nothing was invented for them'),
      })
      .loose(),
    z
      .object({ kind: z.literal('protect-marker'), rootPath: z.string(), marker: z.string(), noChange: z.boolean(), expectedBeforeHex: hexOrNull.optional() })
      .loose(),
    z
      .object({
        kind: z.literal('protect-shadow'),
        rootPath: z.string(),
        shadowDir: z.string(),
        writes: z.array(z.object({ id: int, value: int }).loose()),
        noChange: z.boolean(),
      })
      .loose(),
    z
      .object({
        kind: z.literal('undo'),
        journal: z.string(),
        id: z.string().describe('the journal entry undone'),
        atRisk: z
          .array(
            z
              .object({
                outputId: int,
                file: z.string(),
                restored: z.string().nullable().describe('the value the undo puts back; null: the file is removed (Fluent Bit starts at 0)'),
                highestIndex: int.describe('the highest $INDEX used, per the evidence recorded with the action and the current evidence (in what each covers)'),
                keys: z.array(z.string()).describe('listed keys with $INDEX >= the value put back (at most 200): overwritten when Fluent Bit makes them again'),
              })
              .loose(),
          )
          .optional()
          .describe('index files the undo puts back at or below an index in use: refused without --force while any is listed'),
      })
      .loose(),
    replayDetails,
    multipartDetails,
    salvageDetails,
    z
      .object({
        kind: z.literal('recover'),
        bucket: z.string(),
        recoveryPrefix: z.string(),
        copies: z.array(
          z
            .object({
              sourceKey: z.string(),
              versionId: z.string(),
              lastModified: z.string().nullable(),
              size: int,
              etag: z.string().nullable(),
              targetKey: z.string(),
            })
            .loose(),
        ),
      })
      .loose(),
  ])
  .meta({ id: 'PlanDetails', description: `what apply needs, by kind (${detailsKinds.join(', ')}); informative, may change between versions` });

const basisSchema = z
  .object({
    store: z.string().describe('sha256 of the scan of the plan’s root'),
    config: z.string().nullable(),
    evidence: z.string().nullable(),
    files: z.array(z.object({ path: z.string(), state: z.string().describe('sha256:<hex>, stat:<size>:<mtimeMs>:<ino>, dir or absent') }).loose()),
    root: z
      .object({
        path: z.string(),
        folder: z.object({ real: z.string(), dev: z.number(), ino: z.number() }).loose().nullable().describe('what the root resolved to; null: unresolved'),
        problem: z.string().optional(),
      })
      .loose()
      .optional()
      .describe('the folder the plan’s root resolved to when planned (a symlinked root swapped since makes the plan stale)'),
  })
  .loose()
  .describe('what the plan rests on; applying refuses when any of it changed');

export function planShape<A extends z.ZodType, D extends z.ZodType>(action: A, details: D) {
  return z
    .object({
      action,
      storePath: z.string(),
      rootPath: z.string().nullable().describe('the bucket root acted on; null: not one root (recover-versions)'),
      summary: z.string().describe('one sentence'),
      why: z.array(z.string()),
      steps: z.array(planStepSchema).describe('what applying does, in order; empty: nothing to do'),
      warnings: z.array(z.string()),
      refusals: z
        .array(z.object({ reason: z.string(), forceable: z.boolean().describe('--force overrides it') }).loose())
        .describe('why the plan cannot be applied; a refusal blocks unless forceable and forced'),
      details: details.optional(),
      planId: z.string().optional().describe('the id of the plan in the session that made it (a CLI session ends with the command)'),
      confirm: z.string().optional().describe('the phrase an apply is confirmed with: the bucket (bucket/alias when outputs share it)'),
      basis: basisSchema.optional(),
      forced: z.boolean().optional().describe('planned with --force'),
    })
    .loose();
}

export const repairPlanSchema = planShape(repairActionSchema, planDetailsSchema)
  .extend({ replayItems: z.array(replayItemSchema).optional().describe('replay: every chunk considered, planned or skipped (with why)') })
  .meta({ id: 'RepairPlan' });

/** The parts of the store report an apply changed, re-read after writing (scan --json shapes). */
export const storeUpdateSchema = z
  .object({
    rootPath: z.string(),
    seqIndex: z.array(scanSeqIndexSchema).optional().describe('the root’s seq_index files now'),
    sequence: scanRootSchema.shape.sequence.optional(),
    streams: z.array(scanStreamSchema).optional().describe('streams whose chunks changed, as they are now'),
    removedStreams: z.array(z.string()).optional(),
    totals: z.object({ chunks: int, bytes: int, records: int, damaged: int, quarantined: int, pending: int }).loose().optional(),
  })
  .loose()
  .meta({ id: 'StoreUpdate' });

export function resultShape<A extends z.ZodType>(action: A) {
  return z
    .object({
      action,
      applied: z.boolean().describe('something was written'),
      summary: z.string(),
      steps: z.array(z.object({ step: planStepSchema, ok: z.boolean(), message: z.string() }).loose()).describe('each step done, in order'),
      undoId: z.string().nullable().describe('the undo-journal entry written; null: none (nothing written, or not undoable)'),
      verified: z.boolean().describe('read back after writing and found as planned'),
      warnings: z.array(z.string()),
      storeUpdate: z.array(storeUpdateSchema).optional(),
    })
    .loose();
}

export const repairResultSchema = resultShape(repairActionSchema)
  .extend({
    items: z.array(replayItemSchema).optional().describe('replay: every chunk with its state after the run'),
    manifestKey: z.string().nullable().optional().describe('recover-versions: the key of the manifest written (null: none)'),
  })
  .meta({ id: 'RepairResult' });

/** The document of one repair command, for a plan and a result schema. */
export function repairDocument<P extends z.ZodType, R extends z.ZodType>(plan: P, result: R, note: string) {
  return z
    .union([
      z
        .object({ dryRun: z.literal(true), plan })
        .loose()
        .describe('dry run (without --apply): exit 0, or 5 when a refusal blocks the plan'),
      z
        .object({ dryRun: z.literal(false), plan, result })
        .loose()
        .describe('applied: exit 0, or 1 when a step failed or was not verified'),
      z
        .object({ dryRun: z.boolean(), plan: plan.optional().describe('present when the plan was made'), error: cliErrorSchema })
        .loose()
        .describe('refused (exit 5) or failed (exit 1, 2) after the command started'),
      errorDocumentSchema.describe('the command line was wrong (exit 2) or failed before planning'),
    ])
    .describe(note);
}

export const repairDocumentSchema = repairDocument(
  repairPlanSchema,
  repairResultSchema,
  'repair-index, protect-index, restore-index, undo, recover-versions, replay, multipart and apply <plan.json> with --json',
);

export const replayDocumentSchema = repairDocument(
  planShape(z.literal('replay'), replayDetails)
    .extend({ replayItems: z.array(replayItemSchema).optional().describe('every chunk considered, planned or skipped (with why)') })
    .meta({ id: 'ReplayPlan' }),
  resultShape(z.literal('replay'))
    .extend({ items: z.array(replayItemSchema).optional().describe('every chunk with its state after the run') })
    .meta({ id: 'ReplayResult' }),
  'replay --json (dry run: the per-chunk plan; --apply --live: the upload result)',
);

export const multipartDocumentSchema = repairDocument(
  planShape(z.literal('multipart'), multipartDetails).meta({ id: 'MultipartPlan' }),
  resultShape(z.literal('multipart')).meta({ id: 'MultipartResult' }),
  'multipart --json (needs --live): how each upload is settled (details.settle), and the result',
);
