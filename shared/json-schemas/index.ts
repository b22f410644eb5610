/**
 * Every JSON document the CLI prints for scripts, with the file its JSON Schema is generated to
 * (`npm run schema` writes `docs/<file>`; test/cli/json-schemas.test.ts checks that the committed
 * files are current and that real outputs conform). One zod schema per document.
 */
import { z } from 'zod';
import { scanReportSchema } from '../scan-schema';
import { diagnoseDocumentSchema } from './diagnosis';
import { errorDocumentSchema } from './error';
import { planFileDocumentSchema } from './plan-file-document';
import { multipartDocumentSchema, repairDocumentSchema, replayDocumentSchema } from './repair';
import { reportDocumentSchema } from './report';
import { salvageDocumentSchema } from './storage-path';
import { fleetDocumentSchema, guardOnceDocumentSchema, nodeReportSchema } from './guard';
import { versionDocumentSchema } from './version';
import { promFleetDocumentSchema } from './fleet-prom';

export interface JsonDocument {
  /** File name under docs/. */
  file: string;
  title: string;
  schema: z.ZodType;
}

export const JSON_DOCUMENTS = {
  scan: { file: 'scan.schema.json', title: 'store-doctor scan --json', schema: scanReportSchema },
  diagnose: { file: 'diagnose.schema.json', title: 'store-doctor diagnose --json', schema: diagnoseDocumentSchema },
  repair: {
    file: 'repair.schema.json',
    title: 'store-doctor repair-index | protect-index | restore-index | undo | recover-versions | replay | multipart | apply --json',
    schema: repairDocumentSchema,
  },
  replay: { file: 'replay.schema.json', title: 'store-doctor replay --json', schema: replayDocumentSchema },
  multipart: { file: 'multipart.schema.json', title: 'store-doctor multipart --json', schema: multipartDocumentSchema },
  report: { file: 'report.schema.json', title: 'store-doctor report --format json', schema: reportDocumentSchema },
  planFile: { file: 'plan-file.schema.json', title: 'store-doctor --plan-out <file> (read by store-doctor apply)', schema: planFileDocumentSchema },
  nodeReport: { file: 'node-report.schema.json', title: 'store-doctor guard: GET /report.json (read by store-doctor fleet)', schema: nodeReportSchema },
  fleet: { file: 'fleet.schema.json', title: 'store-doctor fleet --json', schema: fleetDocumentSchema },
  fleetPrometheus: { file: 'fleet-prometheus.schema.json', title: 'store-doctor fleet --prometheus <url> --json', schema: promFleetDocumentSchema },
  guardOnce: { file: 'guard-once.schema.json', title: 'store-doctor guard --once --json', schema: guardOnceDocumentSchema },
  version: { file: 'version.schema.json', title: 'store-doctor version --json', schema: versionDocumentSchema },
  salvage: { file: 'salvage.schema.json', title: 'store-doctor salvage --json', schema: salvageDocumentSchema },
  error: { file: 'error.schema.json', title: 'store-doctor <command> --json when it fails', schema: errorDocumentSchema },
} as const satisfies Record<string, JsonDocument>;

/** The JSON Schema (draft 2020-12) of one document, as written to docs/. */
export function jsonSchemaOf(doc: JsonDocument): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: doc.title,
    ...(z.toJSONSchema(doc.schema) as Record<string, unknown>),
  };
}
