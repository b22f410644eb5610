/** `store-doctor salvage <storage.path> --json`: the engine buffer's report, the salvage plan and (with --apply) its result. */
import { z } from 'zod';
import { planDetailsSchema, planShape, repairDocument, resultShape } from './repair';

const int = z.number().int();
const time = z.string().nullable();
const fate = z.enum(['load', 'reject', 'unknown']);

const engineChunkSchema = z
  .object({
    path: z.string(),
    stream: z.string(),
    name: z.string(),
    fileSize: int,
    mtime: time,
    headerStatus: z.string(),
    headerMessage: z.string(),
    crc: z.enum(['valid', 'invalid', 'absent']),
    tag: z.string().nullable(),
    eventType: z.enum(['logs', 'metrics', 'traces', 'profiles', 'blobs', 'unknown']).nullable(),
    format: z.enum(['v1', 'v2', 'mixed', 'none']).describe('v1: [ts, record]; v2: [[ts, metadata], record]'),
    records: int,
    tornBytes: int,
    badAt: int.nullable(),
    firstTime: time,
    lastTime: time,
    fateChecksumOn: fate,
    fateChecksumOff: fate,
    fateText: z.string(),
    salvageable: z.boolean(),
  })
  .loose();

export const storagePathReportSchema = z
  .object({
    kind: z.literal('storage-path'),
    path: z.string(),
    streams: z.array(
      z
        .object({
          name: z.string(),
          plugin: z.string().nullable(),
          instance: int.nullable(),
          chunks: z.array(engineChunkSchema),
          records: int,
          bytes: int,
          oldestTime: time,
          newestTime: time,
        })
        .loose(),
    ),
    ignored: z.array(z.object({ path: z.string(), reason: z.string() }).loose()),
    totals: z.object({ chunks: int, bytes: int, records: int, rejected: int, rejectedRecords: int, torn: int }).loose(),
    limits: z
      .object({
        checksum: z.boolean().nullable(),
        totalLimitSize: int.nullable(),
        maxChunksUp: int.nullable(),
        backlogMemLimit: int.nullable(),
        effects: z.array(z.string()),
      })
      .loose(),
    findings: z.array(z.string()),
  })
  .loose()
  .meta({ id: 'StoragePathReport' });

export const salvageDocumentSchema = z.intersection(
  repairDocument(
    planShape(z.enum(['salvage', 'undo']).describe('undo with --undo'), planDetailsSchema).meta({ id: 'SalvagePlan' }),
    resultShape(z.enum(['salvage', 'undo'])).meta({ id: 'SalvageResult' }),
    'salvage --json: the storage.path report, the plan (dry run) and the result (--apply); with --undo the undo plan and result',
  ),
  z.object({ report: storagePathReportSchema.optional() }).loose(),
);
