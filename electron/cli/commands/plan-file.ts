/**
 * Saved plans (`--plan-out plan.json`, then `store-doctor apply plan.json`), like `terraform plan
 * -out` / `terraform apply plan`: the file records the store, the evidence sources and the request
 * the plan was made from, and the plan itself. Applying it later plans the same request again on
 * the store as it is then, and writes only when that gives the very same plan (see the session's
 * `repair.import`) — a stale or edited plan file is refused, never trusted.
 */
import { promises as fsp, constants as fsc } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { RepairPlanRequest } from '../../../shared/contract';
import type { RepairPlan } from '../../../shared/model';
import type { EvidenceSources } from '../evidence-options';
import { CliError, EXIT } from '../output';

export const PLAN_FILE_FORMAT = 'store-doctor-plan/1';
const MAX_PLAN_BYTES = 64 * 1024 * 1024;

const planFileSchema = z
  .object({
    format: z.literal(PLAN_FILE_FORMAT),
    createdAt: z.string(),
    store: z.string().min(1).max(4096),
    sources: z.object({
      configPath: z.string().max(4096).optional(),
      outputId: z.number().int().min(0).optional(),
      listing: z.array(z.string().max(4096)).max(1000),
      versions: z.array(z.string().max(4096)).max(1000),
      multipart: z.array(z.string().max(4096)).max(1000),
      live: z
        .object({ profile: z.string().optional(), region: z.string().optional(), endpoint: z.string().optional(), pathStyle: z.boolean().optional() })
        .nullable(),
      fullListing: z.boolean(),
      at: z.string().optional(),
      fluentBitVersion: z.string().max(20).optional(),
      fluentBitBin: z.string().max(4096).optional(),
    }),
    request: z.record(z.string(), z.unknown()),
    plan: z.record(z.string(), z.unknown()),
  })
  .strict();

export type PlanFile = z.infer<typeof planFileSchema>;

export async function writePlanFile(file: string, v: { store: string; sources: EvidenceSources; request: RepairPlanRequest; plan: RepairPlan }): Promise<void> {
  const abs = (p: string) => path.resolve(p);
  const { outputName: _name, ...src } = v.sources;
  const doc: PlanFile = {
    format: PLAN_FILE_FORMAT,
    createdAt: new Date().toISOString(),
    store: abs(v.store),
    sources: {
      ...src,
      configPath: src.configPath ? abs(src.configPath) : undefined,
      listing: src.listing.map(abs),
      versions: src.versions.map(abs),
      multipart: src.multipart.map(abs),
    },
    request: v.request as Record<string, unknown>,
    plan: v.plan as unknown as Record<string, unknown>,
  };
  try {
    await fsp.writeFile(file, JSON.stringify(doc, null, 2) + '\n', { mode: 0o600 });
  } catch (err) {
    throw new CliError(`--plan-out ${file}: ${(err as Error).message}`, EXIT.FAILED);
  }
}

export async function readPlanFile(file: string): Promise<PlanFile> {
  let text: string;
  try {
    const fh = await fsp.open(file, fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK);
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw new CliError(`${file}: not a regular file`, EXIT.USAGE);
      if (st.size > MAX_PLAN_BYTES) throw new CliError(`${file}: larger than ${MAX_PLAN_BYTES} bytes; not a plan file`, EXIT.USAGE);
      text = await fh.readFile('utf8');
    } finally {
      await fh.close();
    }
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(`${file}: ${code === 'ENOENT' ? 'no such file' : code === 'ELOOP' ? 'is a symlink' : (err as Error).message}`, EXIT.USAGE);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(`${file}: not JSON; give a file written by --plan-out`, EXIT.USAGE);
  }
  const r = planFileSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new CliError(`${file}: not a Store Doctor plan file (${i?.path.join('.') || 'document'}: ${i?.message ?? 'invalid'})`, EXIT.USAGE);
  }
  return r.data;
}
