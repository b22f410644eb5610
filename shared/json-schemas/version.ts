/** `store-doctor version --json` (electron/cli/version-info.ts). */
import { z } from 'zod';

export const versionDocumentSchema = z
  .object({
    version: z.string().describe('the Store Doctor version (package.json)'),
    node: z.string().describe('the Node runtime this process runs on, e.g. 24.22.3 (the single executable embeds its own)'),
    platform: z.string().describe('<os>-<arch> as Node names them, e.g. linux-x64'),
    commit: z.string().nullable().describe('the git commit the build was made from (-dirty: with local changes); null when run from the sources'),
  })
  .strict();
