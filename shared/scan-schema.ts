/**
 * The documented shape of `store-doctor scan --json` (a StoreReport). Scripts may rely on every
 * field named here; the report carries more (see shared/model.ts), which scripts should treat as
 * informative. `docs/scan.schema.json` is generated from this schema (`npm run schema`), and a test
 * checks that real scans conform and that the committed file is current.
 */
import { z } from 'zod';

const chunkStatus = z.enum(['ok', 'legacy-length', 'zero-byte', 'too-short', 'bad-magic', 'truncated', 'crc-mismatch', 'unreadable']);
const nullableInt = z.number().int().min(0).nullable();
const isoTime = z.string().nullable().describe('ISO-8601 time, UTC');

export const scanChunkSchema = z
  .object({
    name: z.string().describe('file name inside its stream'),
    path: z.string().describe('<stream>/<name>, relative to the root'),
    fileSize: z.number().int().min(0),
    metaLength: nullableInt.describe('uint16 BE at offset 22; null when the file is shorter than 24 bytes'),
    contentLength: nullableInt.describe('content length as Fluent Bit resolves it (legacy rule when the field is 0)'),
    contentLengthField: nullableInt.describe('raw uint32 BE at offset 10'),
    crcField: z.string().nullable().describe('bytes 2..5 as 8 hex digits'),
    tag: z.string().nullable().describe('metadata as text: the tag for data chunks, "<key>\\n<uploadId>" for multipart records'),
    status: chunkStatus,
    message: z.string(),
    records: nullableInt.describe('JSON-lines record count (data chunks)'),
    firstRecordTime: isoTime,
    lastRecordTime: isoTime,
    fluentBitAction: z.string().describe('what Fluent Bit does with this file at its next start / graceful stop'),
  })
  .loose();

export const scanStreamSchema = z
  .object({
    name: z.string(),
    kind: z.enum(['data', 'multipart', 'quarantine', 'sequence']),
    startTime: z.string().nullable().describe('local time from a %Y-%m-%dT%H:%M:%S stream name (no zone)'),
    chunks: z.array(scanChunkSchema),
    fateOnGracefulStop: z.string(),
  })
  .loose();

export const scanSeqIndexSchema = z
  .object({
    outputId: z.number().int().min(0).nullable().describe('<id> of seq_index_<id>: the output instance id'),
    raw: z.string().describe('file content, control bytes escaped as \\xNN'),
    value: z.number().int().min(0).nullable().describe('next $INDEX as Fluent Bit reads it; null when Fluent Bit fails to start'),
    valueText: z.string().nullable().describe('exact uint64 decimal of value'),
    status: z.enum(['ok', 'empty', 'not-a-number', 'trailing-bytes', 'unreadable', 'not-regular', 'too-large']),
  })
  .loose();

export const scanRootSchema = z
  .object({
    bucket: z.string(),
    path: z.string().describe('root directory; inside an archive "<archive>!/<path in archive>"'),
    streams: z.array(scanStreamSchema),
    seqIndex: z.array(scanSeqIndexSchema),
    sequence: z.object({ present: z.boolean(), markerChunks: z.array(z.string()), deletedOnGracefulStop: z.boolean() }).loose(),
  })
  .loose();

export const scanReportSchema = z
  .object({
    source: z.object({ kind: z.enum(['store_dir', 'root', 'archive']), path: z.string(), readOnly: z.boolean(), description: z.string() }).loose(),
    roots: z.array(scanRootSchema),
    problems: z.array(z.object({ severity: z.enum(['error', 'warning', 'info']), path: z.string(), message: z.string() }).loose()),
  })
  .loose();

export function scanJsonSchema(): unknown {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'store-doctor scan --json',
    ...(z.toJSONSchema(scanReportSchema) as Record<string, unknown>),
  };
}
