/**
 * The documented shape of `store-doctor report --format json` (the app's "Export report"): the
 * scan report (as `scan --json`), the engine's diagnosis, the Fluent Bit config as read and a
 * summary of the bucket evidence. Scripts may rely on every field named here; objects carry more
 * (informative). `docs/report.schema.json` is generated from this file (`npm run schema`).
 */
import { z } from 'zod';
import { scanReportSchema } from '../scan-schema';
import { configWarningSchema, diagnosisSchema } from './diagnosis';
import { storagePathReportSchema } from './storage-path';

const s3SettingsSchema = z
  .object({
    bucket: z.string(),
    region: z.string(),
    endpoint: z.string().nullable(),
    storeDir: z.string(),
    rootPath: z.string().describe('<store_dir>/<bucket> exactly as Fluent Bit concatenates it'),
    s3KeyFormat: z.string(),
    keyFormatIsDefault: z.boolean(),
    usePutObjectEffective: z.boolean(),
    compression: z.enum(['none', 'gzip', 'zstd', 'snappy', 'arrow', 'parquet']),
    hasIndex: z.boolean().describe('s3_key_format uses $INDEX'),
  })
  .loose();

export const configSchema = z
  .object({
    files: z.array(z.string()).describe('every file read, main file first'),
    format: z.enum(['classic', 'yaml']),
    outputs: z.array(
      z
        .object({
          id: z.number().int().min(0).describe('0-based position among all outputs'),
          plugin: z.string(),
          alias: z.string().nullable(),
          displayName: z.string(),
          match: z.string().nullable(),
          source: z.object({ file: z.string(), line: z.number().int() }).loose(),
          properties: z.record(z.string(), z.string()).describe('every key as written (lower-cased names), after @SET/${ENV} expansion'),
          s3: s3SettingsSchema.optional().describe('S3 outputs: the settings with defaults filled in'),
        })
        .loose(),
    ),
    warnings: z.array(configWarningSchema),
  })
  .loose();

export const evidenceSummarySchema = z
  .object({
    source: z.enum(['live', 'offline']),
    bucket: z.string().nullable(),
    scope: z.array(z.string()).describe('prefixes listed (live) or files read (offline)'),
    objects: z.number().int().min(0).describe('number of objects listed'),
    complete: z.boolean().describe('false: the listing was cut, conclusions may be incomplete'),
    notes: z.array(z.string()),
  })
  .loose();

export const storeReportDocumentSchema = z
  .object({
    tool: z.literal('store-doctor'),
    version: z.string(),
    generatedAt: z.string().describe('ISO-8601 time, UTC'),
    report: scanReportSchema.describe('the scan report, as scan --json prints it'),
    diagnosis: diagnosisSchema.nullable(),
    config: configSchema.nullable().describe('null: no --config'),
    evidence: evidenceSummarySchema.nullable().describe('null: no bucket evidence'),
    storagePath: storagePathReportSchema.nullable().optional().describe("the config's [SERVICE] storage.path (absent: the config sets none; null: not read)"),
    storagePathError: z.string().nullable().optional().describe('why the storage.path could not be read'),
  })
  .loose();

/** `report` on a storage.path folder: that engine buffer's report. */
export const storagePathReportDocumentSchema = z
  .object({
    tool: z.literal('store-doctor'),
    version: z.string(),
    generatedAt: z.string().describe('ISO-8601 time, UTC'),
    kind: z.literal('storage-path'),
    storagePath: storagePathReportSchema,
  })
  .loose();

export const reportDocumentSchema = z.union([storeReportDocumentSchema, storagePathReportDocumentSchema]);
