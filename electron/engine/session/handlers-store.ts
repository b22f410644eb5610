/**
 * Requests about opened stores: app.info, store.open/openDemo/rescan/close/recent/list.
 * Directories are watched live; an archive never changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EngineContext, EngineHandlers } from '../../../shared/contract';
import type { EngineDeps } from './deps';
import { readDemo, demoAvailable } from './demo';
import { EngineError } from './errors';
import type { EngineEvents } from './events';
import type { RecentStores } from './recent';
import { toOpened, type SessionRegistry, type StoreSession } from './registry';
import { isInside } from './confine';

export interface SessionContext {
  deps: EngineDeps;
  registry: SessionRegistry;
  events: EngineEvents;
  recent: RecentStores;
  door: 'electron' | 'host';
  version: string;
  demoDir?: string;
  /** Watch opened directories for changes (default true). */
  watch: boolean;
}

type StoreHandlers = Pick<EngineHandlers, 'app.info' | 'store.open' | 'store.openDemo' | 'store.rescan' | 'store.close' | 'store.recent' | 'store.list'>;

function checkExists(p: string): void {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new EngineError('not-found', `${path.basename(p)}: no such file or directory (${p})`, p);
    if (code === 'EACCES' || code === 'EPERM') throw new EngineError('failed', `${path.basename(p)}: permission denied (${p})`, p);
    throw err;
  }
  if (!st.isDirectory() && !st.isFile()) throw new EngineError('invalid-input', `${path.basename(p)}: not a folder or an archive (${p})`, p);
}

/** Is this change our own repair writing (its targets, or the dot-directories it keeps backups in)? */
function isOwnWrite(s: StoreSession, changed: string[]): boolean {
  const own = s.ownWrites;
  if (!own || Date.now() > own.until) return false;
  return changed.every(
    (p) => own.paths.has(p) || [...own.paths].some((t) => isInside(t, p)) || p.split(path.sep).some((seg) => seg.startsWith('.') && seg.length > 1),
  );
}

function startWatch(ctx: SessionContext, s: StoreSession): void {
  if (!ctx.watch || s.report.source.kind === 'archive') return;
  try {
    s.stopWatch = ctx.deps.watchStore(s.path, (paths) => {
      if (isOwnWrite(s, paths)) return;
      s.changedSinceScan = true;
      s.lastChangeAt = new Date().toISOString();
      ctx.events.emit('store.changed', { storeId: s.storeId, paths: paths.slice(0, 200), at: s.lastChangeAt });
    });
  } catch {
    s.stopWatch = null; // watching is a convenience; the store is still usable
  }
}

async function scan(ctx: SessionContext, p: string, ec: EngineContext) {
  return ctx.deps.scanStore(p, { onProgress: ec.onProgress, signal: ec.signal });
}

export async function openStore(ctx: SessionContext, p: string, ec: EngineContext, opts: { isDemo?: boolean } = {}): Promise<StoreSession> {
  const abs = path.resolve(p);
  checkExists(abs);
  const existing = ctx.registry.findByPath(abs);
  const report = await scan(ctx, abs, ec);
  if (existing) {
    existing.report = report;
    existing.changedSinceScan = false;
    existing.openedAt = Date.now();
    existing.diagnosis = null;
    return existing;
  }
  const s = ctx.registry.add({ path: abs, report, isDemo: opts.isDemo });
  startWatch(ctx, s);
  if (!opts.isDemo) await ctx.recent.add(abs).catch(() => undefined);
  return s;
}

export function storeHandlers(ctx: SessionContext): StoreHandlers {
  return {
    'app.info': async () => ({ version: ctx.version, door: ctx.door, demoAvailable: demoAvailable(ctx.demoDir) }),

    'store.open': async (input, ec) => toOpened(await openStore(ctx, input.path, ec)),

    'store.openDemo': async (_input, ec) => {
      const demo = readDemo(ctx.demoDir);
      const s = await openStore(ctx, demo.storePath, ec, { isDemo: true });
      if (demo.configPath && !s.config) s.config = await ctx.deps.loadConfigFile(demo.configPath);
      if (demo.listingPaths.length && !s.evidence && !s.evidenceByOutput.size) {
        const documents = demo.listingPaths.map((f) => ({ name: path.basename(f), text: fs.readFileSync(f, 'utf8') }));
        const evidence = await ctx.deps.parseOfflineEvidence(documents);
        if (demo.outputId !== undefined) s.evidenceByOutput.set(demo.outputId, evidence);
        else s.evidence = evidence;
      }
      return toOpened(s);
    },

    'store.rescan': async (input, ec) => {
      const s = ctx.registry.get(input.storeId);
      checkExists(s.path);
      s.report = await scan(ctx, s.path, ec);
      s.changedSinceScan = false;
      s.diagnosis = null;
      return toOpened(s);
    },

    'store.close': async (input) => ({ closed: await ctx.registry.remove(input.storeId) }),

    'store.recent': async () => ({ recent: await ctx.recent.list() }),

    'store.list': async () => ({ stores: ctx.registry.list().map(toOpened) }),
  };
}
