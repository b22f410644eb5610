/**
 * Saved plans (`--plan-out plan.json`, then `store-doctor apply plan.json`), like `terraform plan
 * -out` / `terraform apply plan`: the file records the store, the evidence sources and the request
 * the plan was made from, and the plan itself. Applying it later plans the same request again on
 * the store as it is then, and writes only when that gives the very same plan (see the session's
 * `repair.import`) — a stale or edited plan file is refused, never trusted. Its schema:
 * shared/json-schemas/plan-file.ts (docs/plan-file.schema.json).
 */
import { promises as fsp, constants as fsc } from 'node:fs';
import * as path from 'node:path';
import type { RepairPlanRequest } from '../../../shared/contract';
import type { RepairPlan } from '../../../shared/model';
import { PLAN_FILE_FORMAT, planFileSchema, type PlanFile } from '../../../shared/json-schemas/plan-file';
import type { EvidenceSources } from '../evidence-options';
import { CliError, EXIT } from '../output';

export { PLAN_FILE_FORMAT, planFileSchema, type PlanFile };
const MAX_PLAN_BYTES = 64 * 1024 * 1024;

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
      fluentBitBin: src.fluentBitBin ? abs(src.fluentBitBin) : undefined,
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
