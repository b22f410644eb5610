/**
 * Requests on a Fluent Bit engine buffer (`storage.path`): open (scan + diagnosis), plan the
 * salvage, apply exactly that plan — for every door (CLI, loopback host, Electron IPC). The plan is
 * kept in the session's PlanStore, shown with the same bookkeeping and process check as every
 * plan, and applied once, through repair/ applyPlan (write lock, process check, journal, atomic
 * writes, verify, undo).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EngineHandlers, RepairPlanRequest } from '../../../shared/contract';
import type { FluentBitConfig, RepairPlan } from '../../../shared/model';
import { loadFluentBitConfig } from '../fluentbit';
import { applyPlan, planSalvage, planStoreSalvage, planUndo, storeRootOf } from '../repair';
import { configuredStoragePath, isStoragePath, readEngineRecords, scanStoragePath, scanStoragePathArchive } from '../storage-path';
import { isInside, realPathOf } from './confine';
import { EngineError } from './errors';
import { exportStoragePath } from './export-storage-path';
import type { SessionContext } from './handlers-store';
import { bookkeepingSteps, processCheckOf } from './plan-notes';
import { markOwnWrites } from './own-writes';
import { changedPaths } from './plans';
import { updateReport } from './repair';

type Handlers = Pick<
  EngineHandlers,
  | 'storagePath.open'
  | 'storagePath.configured'
  | 'storagePath.undoPlan'
  | 'storagePath.salvagePlan'
  | 'storagePath.salvageApply'
  | 'storagePath.export'
  | 'storagePath.records'
>;

const keyOf = (p: string) => `storage-path:${realPathOf(p) ?? path.resolve(p)}`;

/**
 * The report of the storage.path a store's config sets, for the store's report; undefined when the
 * config sets none. Reads only; an unreadable folder or one that is no storage.path is said, not thrown.
 */
export async function configuredStoragePathReport(config: FluentBitConfig | null | undefined) {
  const dir = configuredStoragePath(config);
  if (!dir) return undefined;
  try {
    if (!(await isStoragePath(dir))) return { report: null, error: `${dir} (the config's storage.path) holds no input folder with a *.flb chunk` };
    return { report: await scanStoragePath(dir, { config }), error: null };
  } catch (e) {
    return { report: null, error: `${dir} (the config's storage.path): ${(e as Error).message}` };
  }
}

async function open(ctx: SessionContext, p: string, configPath?: string) {
  const abs = path.resolve(p);
  let config: FluentBitConfig | null = null;
  if (configPath) config = await loadFluentBitConfig(path.resolve(configPath));
  let st: fs.Stats;
  try {
    st = await fs.promises.stat(abs);
  } catch {
    throw new EngineError('not-found', `${abs}: no such file or directory`);
  }
  const report = st.isFile() ? await scanStoragePathArchive(abs, { config }) : (await isStoragePath(abs)) ? await scanStoragePath(abs, { config }) : null;
  if (!report)
    throw new EngineError(
      'invalid-input',
      `${abs} is not a Fluent Bit storage.path (no input folder holds a *.flb chunk)${st.isFile() ? ' nor an archive of one' : ''}; open a store_dir with store.open`,
    );
  ctx.registry.confinement.add(abs);
  return { report, archive: st.isFile(), config };
}

export function storagePathHandlers(ctx: SessionContext): Handlers {
  return {
    'storagePath.open': async (input) => (await open(ctx, input.path, input.configPath)).report,

    'storagePath.records': async (input) => {
      const dir = path.resolve(input.path);
      const parts = input.chunkPath.split('/');
      if (parts.length !== 2 || !parts[1].endsWith('.flb'))
        throw new EngineError('invalid-input', `${input.chunkPath}: not <input>/<chunk>.flb of a storage.path`);
      if (!(await fs.promises.stat(dir).catch(() => null))?.isDirectory())
        throw new EngineError('invalid-input', `${dir}: the records of an archived storage.path are not read (extract it)`);
      try {
        return await readEngineRecords(dir, parts[0], parts[1], input.offset, input.limit);
      } catch (e) {
        throw new EngineError('invalid-input', `${path.join(dir, input.chunkPath)}: ${(e as Error).message}`);
      }
    },

    'storagePath.configured': async (input) => ({ path: configuredStoragePath(await loadFluentBitConfig(path.resolve(input.configPath))) }),

    'storagePath.export': async (input) => {
      const { report, config } = await open(ctx, input.path, input.configPath);
      return exportStoragePath({ report, configFiles: config?.files ?? null, version: ctx.version }, input.format);
    },

    'storagePath.salvagePlan': async (input) => {
      const found = await storeRootOf(path.resolve(input.path));
      if (found && found.roots.length > 1)
        throw new EngineError('invalid-input', `${input.path} holds ${found.roots.length} bucket roots: salvage each one (${found.roots.join(', ')})`);
      let plan: RepairPlan;
      if (found?.roots.length) {
        ctx.registry.confinement.add(found.roots[0]);
        plan = await planStoreSalvage(found.roots[0], { storePath: path.resolve(input.path), force: input.force, only: input.chunks });
      } else {
        const { report, archive } = await open(ctx, input.path, input.configPath);
        plan = await planSalvage(report, { force: input.force, archive, only: input.chunks });
      }
      plan.bookkeeping = bookkeepingSteps(plan);
      const check = await processCheckOf(plan);
      if (check) plan.processCheck = check;
      if (input.force) plan.forced = true;
      ctx.plans.add({ storeId: keyOf(input.path), request: { action: 'salvage', force: input.force } as RepairPlanRequest, plan, outputId: null });
      return plan;
    },

    'storagePath.undoPlan': async (input) => {
      // A bucket root salvaged (store_dir): its journal is in the root.
      const found = await storeRootOf(path.resolve(input.path));
      if (found && found.roots.length > 1)
        throw new EngineError('invalid-input', `${input.path} holds ${found.roots.length} bucket roots: undo each one (${found.roots.join(', ')})`);
      if (found) ctx.registry.confinement.add(found.roots[0]);
      const archive = found ? false : (await open(ctx, input.path)).archive;
      const plan = await planUndo(found ? found.roots[0] : input.path, { force: input.force, archive });
      plan.confirm = path.basename(path.resolve(input.path));
      plan.bookkeeping = bookkeepingSteps(plan);
      if (input.force) plan.forced = true;
      ctx.plans.add({ storeId: keyOf(input.path), request: { action: 'undo', force: input.force } as RepairPlanRequest, plan, outputId: null });
      return plan;
    },

    'storagePath.salvageApply': async (input) => {
      const rec = ctx.plans.get(keyOf(input.path), input.planId);
      if (rec.plan.confirm !== undefined && input.confirm !== rec.plan.confirm)
        throw new EngineError('invalid-input', `type "${rec.plan.confirm}" to confirm the salvage (got "${input.confirm.slice(0, 80)}")`);
      ctx.plans.delete(input.planId);
      // A store open on this folder (a store_dir salvaged from the app's Chunks view): these writes are
      // the tool's own, not a change on disk that blocks its writes until a rescan.
      const paths = changedPaths(rec.plan);
      const root = rec.plan.rootPath;
      const open = root ? ctx.registry.list().filter((s) => isInside(s.realPath, realPathOf(root) ?? root)) : [];
      for (const s of open) markOwnWrites(s, paths, true);
      try {
        const result = await applyPlan(rec.plan, { force: rec.plan.forced });
        // What it wrote, read back into each open store's report; the result carries it for the app to merge.
        for (const s of open) {
          const update = await updateReport(s, rec, result);
          s.diagnosis = null;
          result.storeUpdate ??= update;
        }
        return result;
      } finally {
        for (const s of open) markOwnWrites(s, paths, false);
      }
    },
  };
}
