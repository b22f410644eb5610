/**
 * The documented shape of a diagnosis: `store-doctor diagnose --json` (findings with their command
 * lines, config warnings) and the `diagnosis` of `report --format json` (the engine's Diagnosis,
 * findings with `outputId`). Scripts may rely on every field named here; objects carry more, which
 * scripts should treat as informative. `docs/diagnose.schema.json` is generated from this file
 * (`npm run schema`); test/cli/json-schemas.test.ts checks real outputs against it.
 */
import { z } from 'zod';
import { repairActionSchema } from '../contract';
import { FINDING_CODES } from '../model/diagnosis';

const id = z.number().int().min(0).describe('output instance id: 0-based position among all [OUTPUT]s');
/** An `$INDEX` as the JSON holds it: a JS number, rounded up (never down) above 2^53 - 1. */
const indexNumber = z.number().min(0);
const isoTime = z.string().describe('ISO-8601 time, UTC');

export const severitySchema = z.enum(['critical', 'error', 'warning', 'info']);
export const coverageSchema = z
  .enum(['complete', 'window', 'incomplete', 'none', 'unusable', 'stale'])
  .describe(
    'how far the bucket evidence goes: complete (a full listing: every reachable key listed), window (a focused listing: complete for keys dated `from` on), incomplete (listing cut), none (no listing), unusable (keys cannot be matched), stale (older than a write Store Doctor made to the bucket, or than the age limit: list again)',
  );

const outputRef = z.number().int().min(0).optional();
/** A request a finding recommends, as data (the app shows a button, the CLI a command line). */
export const suggestedRequestSchema = z.discriminatedUnion('name', [
  z
    .object({
      name: z.literal('repair.plan'),
      input: z
        .object({
          action: repairActionSchema,
          outputId: outputRef,
          method: z.enum(['marker', 'shadow']).optional(),
          includeActive: z.boolean().optional(),
          multipartDecision: z.enum(['complete', 'abort']).optional(),
          abortOrphans: z.boolean().optional(),
        })
        .loose(),
    })
    .loose(),
  z.object({ name: z.literal('evidence.live'), input: z.object({ outputId: id, fullListing: z.boolean().optional() }).loose() }).loose(),
  z
    .object({
      name: z.literal('evidence.importOffline'),
      input: z.object({ outputId: outputRef, kind: z.enum(['listing', 'versions', 'multipart']), bucket: z.string() }).loose(),
    })
    .loose(),
  z.object({ name: z.literal('config.load'), input: z.object({}).loose() }).loose(),
  z.object({ name: z.literal('store.rescan'), input: z.object({}).loose() }).loose(),
]);

export const nextStepSchema = z
  .object({ label: z.string().describe('button text'), request: suggestedRequestSchema })
  .loose()
  .meta({ id: 'NextStep', description: 'a request a finding recommends, as data (the CLI renders it as a command line, the app as a button)' });

/** A finding as the engine makes it (report --format json); `diagnose --json` drops `outputId` and adds `commands`. */
export const findingSchema = z
  .object({
    code: z.enum(FINDING_CODES).describe('stable machine-readable code'),
    severity: severitySchema,
    summary: z.string().describe('one sentence'),
    evidence: z.array(z.string()).describe('facts that prove the finding, one per line'),
    action: z.string().describe('what to do, in words (no command lines)'),
    next: z.array(nextStepSchema).describe('the requests that do it, best first; empty when there is nothing to run'),
    outputId: z.number().int().min(0).nullable().optional(),
    data: z.record(z.string(), z.unknown()).optional().describe('structured details (keys at risk, time window, …); informative'),
  })
  .loose()
  .meta({ id: 'Finding' });

export const indexEvidenceSchema = z
  .object({
    coverage: coverageSchema,
    from: isoTime.optional().describe('window: the earliest key time the listing is complete for'),
    text: z.string().describe('one sentence for the operator'),
  })
  .loose();

export const checksSchema = z
  .object({
    store: z.boolean().describe('a store (at least one bucket root) was found'),
    config: z.array(z.string()).nullable().describe('config files read; null: no config (outputs inferred from seq_index files)'),
    outputs: z.array(
      z
        .object({
          id,
          displayName: z.string(),
          listing: coverageSchema,
          versions: z.boolean().describe('object versions were listed (false: overwritten versions are unknown)'),
          multipart: z.boolean().describe('in-progress multipart uploads were listed'),
        })
        .loose(),
    ),
    roots: z
      .array(
        z
          .object({
            bucket: z.string().describe("the root's folder name: the bucket"),
            path: z.string(),
            index: z.enum(['known', 'unknown']).describe('unknown: no config and no seq_index file (INDEX_STATE_UNKNOWN)'),
          })
          .loose(),
      )
      .describe('every bucket root and whether its $INDEX state is known'),
    complete: z.boolean().describe("false while a root's index state is unknown: the result is incomplete (diagnose exits 7)"),
  })
  .loose()
  .describe('what the diagnosis looked at: never read "no findings" into what was not checked');

const collisionSchema = z
  .object({
    format: z.string(),
    hasIndex: z.boolean(),
    hasUuid: z.boolean(),
    hasTag: z.boolean(),
    timeResolutionSeconds: z.number().nullable(),
    risk: z.enum(['always', 'same-window', 'practically-never', 'never']).describe('how likely a reused $INDEX overwrites an object'),
    explanation: z.string(),
    literalPrefix: z.string(),
  })
  .loose();

function outputShape<F extends z.ZodType>(finding: F) {
  return z
    .object({
      id,
      displayName: z.string().describe('the alias, or s3.<id>'),
      bucket: z.string(),
      keyFormat: z.string().describe('s3_key_format ("" when unknown: no config)'),
      rootPath: z.string().nullable().describe('<store_dir>/<bucket>; null: not in the store'),
      persistedNextIndex: indexNumber.nullable().describe('seq_index_<id> as Fluent Bit reads it; null: missing or unreadable'),
      highestIndexInBucket: indexNumber.nullable().describe('highest $INDEX in the bucket evidence (in what it covers: highestIndexScope); null: none'),
      highestIndexScope: z
        .enum(['bucket', 'listed-partitions', 'listed-keys', 'stale-listing', 'not-listed'])
        .optional()
        .describe(
          'what highestIndexInBucket is the highest of: the bucket (a full listing), the listed partitions (a focused listing), the listed keys (an incomplete listing), a stale listing, or nothing listed',
        ),
      safeNextIndex: z
        .number()
        .int()
        .min(0)
        .nullable()
        .describe('the next $INDEX that reuses no key — only when indexEvidence.coverage is complete or window; null: not known'),
      lowerBoundNextIndex: indexNumber.describe('what the evidence at hand rules out: the next index is at least this; never "safe" by itself'),
      indexEvidence: indexEvidenceSchema,
      highestIndexInBucketText: z.string().optional().describe('exact decimal, only when above 2^53 - 1'),
      lowerBoundNextIndexText: z.string().optional().describe('exact decimal, only when above 2^53 - 1'),
      persistedNextIndexText: z.string().optional().describe('exact decimal of seq_index_<id>, only when above 2^53 - 1 (persistedNextIndex is then null)'),
      collision: collisionSchema,
      resets: z.array(z.object({ time: isoTime, from: indexNumber, to: indexNumber }).loose()).describe('where the index went down over time'),
      timeline: z.array(z.object({ time: isoTime, index: indexNumber, key: z.string(), tag: z.string().optional() }).loose()),
      findings: z.array(finding),
    })
    .loose();
}

/** The engine's Diagnosis (`diagnosis` in report --format json). */
export const diagnosisSchema = z
  .object({
    at: isoTime.describe('assumed restart time'),
    checks: checksSchema,
    outputs: z.array(outputShape(findingSchema)),
    storeFindings: z.array(findingSchema).describe('findings not tied to one output'),
  })
  .loose();

export const configWarningSchema = z
  .object({ file: z.string(), line: z.number().int(), message: z.string(), fatal: z.boolean().optional().describe('Fluent Bit would refuse to start') })
  .loose();

const cliFindingSchema = findingSchema
  .omit({ outputId: true })
  .extend({ commands: z.array(z.string()).describe('the next steps as store-doctor command lines, best first') })
  .meta({ id: 'DiagnoseFinding' });

export const diagnoseDocumentSchema = z
  .object({
    at: isoTime.describe('assumed restart time'),
    checks: checksSchema,
    configWarnings: z.array(configWarningSchema).describe('problems in the Fluent Bit config (also printed on stderr without --json)'),
    outputs: z.array(outputShape(cliFindingSchema)).describe('one per S3 output'),
    storeFindings: z.array(cliFindingSchema).describe('findings not tied to one output'),
  })
  .loose()
  .describe('Exit code: 0 nothing above warning, 4 a critical or error finding, 2 bad usage or input (then the error document).');
