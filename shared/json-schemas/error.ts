/**
 * The document every command prints on stdout with `--json` (and `report --format json` without
 * `--out`) when it fails: exactly one JSON document, also for bad usage. Repair commands add
 * `dryRun` and, when a plan was made, `plan` (see ./repair.ts). `docs/error.schema.json` is
 * generated from this file (`npm run schema`).
 */
import { z } from 'zod';

export const cliErrorSchema = z
  .object({
    exitCode: z.literal([1, 2, 5]).describe('the process exit code: 1 failed (S3 error, write failed), 2 bad usage or unreadable input, 5 refused'),
    message: z.string().describe('what went wrong, naming the file or flag'),
  })
  .loose()
  .meta({ id: 'CliError' });

export const errorDocumentSchema = z.object({ error: cliErrorSchema }).loose();
