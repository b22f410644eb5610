/**
 * Requests of a live store and the fleet view (named "live", not "guard": the guard daemon's own
 * requests are guard.*): long-running doors such as the guard daemon use store.refresh (re-read only
 * what changed, merged into the session's report), store.processes (who uses a root: the one
 * check repair/preconditions/write-check.ts makes before every write), fleet.open (a folder of node reports).
 */
import path from 'node:path';
import type { EngineHandlers } from '../../../shared/contract';
import type { StoreUpdate } from '../../../shared/model';
import { mergeStoreUpdate } from '../../../shared/store-update';
import { escapeField } from '../../../shared/escape';
import { FleetFolderError, readFleetFolder } from '../guard/fleet-read';
import { findFluentBitProcesses, findProcessesUsing } from '../repair/preconditions';
import { refreshRoot } from '../store/refresh';
import { scanStore } from '../store';
import { isInside, realPathOf } from './confine';
import { EngineError } from './errors';
import type { SessionContext } from './handlers-store';
import { requireRoot } from './registry';

type LiveHandlers = Pick<EngineHandlers, 'store.refresh' | 'store.processes' | 'fleet.open'>;

export function liveHandlers(ctx: SessionContext): LiveHandlers {
  return {
    'store.refresh': async (input, ec) => {
      const s = ctx.registry.get(input.storeId);
      if (s.report.source.kind === 'archive') throw new EngineError('invalid-input', 'an archive never changes: nothing to refresh', s.path);
      const byRoot = new Map<string, string[]>();
      // An empty folder was read as a root (its name as the bucket): what appears in it decides what it is.
      const guessed =
        s.report.roots.length === 1 && s.report.roots[0].path === s.path && !s.report.roots[0].streams.length && !s.report.roots[0].seqIndex.length;
      let unknownRoot = guessed;
      for (const p of input.paths) {
        const abs = path.resolve(p);
        const real = realPathOf(abs);
        if (!real || !isInside(s.realPath, real))
          throw new EngineError('forbidden', `store.refresh: ${escapeField(p.slice(0, 300))} is outside the opened store`);
        const root = s.report.roots.find((r) => abs === r.path || abs.startsWith(r.path + path.sep));
        if (root) byRoot.set(root.path, [...(byRoot.get(root.path) ?? []), abs]);
        else if (abs !== s.path) unknownRoot = true;
      }
      if (unknownRoot) {
        s.report = await scanStore(s.path, { onProgress: ec.onProgress, signal: ec.signal });
        s.diagnosis = null;
        return { updates: [], rescanned: s.report };
      }
      const updates: StoreUpdate[] = [];
      for (const [rootPath, paths] of byRoot) updates.push((await refreshRoot(requireRoot(s, rootPath), paths)).update);
      s.report = mergeStoreUpdate(s.report, updates);
      s.diagnosis = null;
      return { updates, rescanned: null };
    },

    'store.processes': async (input) => {
      const s = ctx.registry.get(input.storeId);
      const root = requireRoot(s, input.rootPath);
      const only = input.fluentBitOnly ? (await findFluentBitProcesses()).map((p) => p.pid) : undefined;
      if (only && !only.length) return { processes: [], uninspectable: 0, supported: true };
      const r = await findProcessesUsing(root.path, only);
      return { processes: r.processes, uninspectable: r.uninspectable, supported: r.supported };
    },

    'fleet.open': async (input) => {
      try {
        return await readFleetFolder(input.path);
      } catch (err) {
        if (err instanceof FleetFolderError) throw new EngineError(err.code, err.message, input.path);
        throw err;
      }
    },
  };
}
