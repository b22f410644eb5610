/**
 * Requests about opened stores: app.info, store.open/openDemo/rescan/close/recent/list.
 * Directories are watched live; an archive never changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Door, EngineContext, EngineHandlers } from '../../../shared/contract';
import { scanStore, watchStore } from '../store';
import { parseOfflineEvidence } from '../s3';
import { loadConfigFile } from './config';
import { readDemo, demoAvailable } from './demo';
import { EngineError } from './errors';
import { isStoragePath } from '../storage-path';
import type { EngineEvents } from './events';
import type { PlanStore } from './plans';
import type { RecentStores } from './recent';
import { toOpened, withoutRows, type SessionRegistry, type StoreSession } from './registry';
import { isInside } from './confine';
import { escapeField } from '../../../shared/escape';
import { BinaryVersionError, versionFromBinary } from '../fluentbit/binary-version';
import { resolveVersion } from '../fluentbit/versions';

export interface SessionContext {
  registry: SessionRegistry;
  plans: PlanStore;
  events: EngineEvents;
  recent: RecentStores;
  door: Door;
  version: string;
  demoDir?: string;
  /** Watch opened directories for changes (default true). */
  watch: boolean;
}

type StoreHandlers = Pick<
  EngineHandlers,
  'app.info' | 'store.open' | 'store.openDemo' | 'store.rescan' | 'store.close' | 'store.recent' | 'store.list' | 'store.fluentBitVersion'
>;

function checkExists(p: string): void {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new EngineError('not-found', `${escapeField(p)}: no such file or directory`, p);
    if (code === 'EACCES' || code === 'EPERM') throw new EngineError('failed', `${escapeField(p)}: permission denied`, p);
    throw err;
  }
  if (!st.isDirectory() && !st.isFile()) throw new EngineError('invalid-input', `${escapeField(p)}: not a folder or an archive`, p);
}

/**
 * Is this change our own repair writing (its targets, or Store Doctor's own dot-folders in the
 * store)? Judged on the path relative to the store: a store that lives under a dot-directory
 * (`/var/lib/.snapshots/…`) must still see Fluent Bit's writes.
 */
export function isOwnWrite(s: Pick<StoreSession, 'ownWrites' | 'path'> & { ownGone?: Set<string> }, changed: string[]): boolean {
  const gone = (p: string) => !!s.ownGone?.has(p) && !fs.existsSync(p);
  if (changed.every(gone)) return true;
  const own = s.ownWrites;
  if (!own || Date.now() > own.until) return false;
  return changed.every((p) => {
    if (gone(p)) return true;
    if (own.paths.has(p) || [...own.paths].some((t) => isInside(t, p))) return true;
    const rel = path.relative(s.path, p);
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return false;
    return rel.split(path.sep).some((seg) => seg.startsWith('.') && seg.length > 1);
  });
}

function startWatch(ctx: SessionContext, s: StoreSession): void {
  if (!ctx.watch || s.report.source.kind === 'archive') return;
  try {
    const watcher = watchStore(s.path, (paths) => {
      if (isOwnWrite(s, paths)) return;
      s.changedSinceScan = true;
      s.lastChangeAt = new Date().toISOString();
      ctx.events.emit('store.changed', { storeId: s.storeId, paths: paths.slice(0, 200), at: s.lastChangeAt });
    });
    s.stopWatch = () => watcher.close();
  } catch {
    s.stopWatch = null; // watching is a convenience; the store is still usable
  }
}

async function scan(p: string, ec: EngineContext, records?: boolean) {
  return scanStore(p, { onProgress: ec.onProgress, signal: ec.signal, records });
}

export async function openStore(ctx: SessionContext, p: string, ec: EngineContext, opts: { isDemo?: boolean; records?: boolean } = {}): Promise<StoreSession> {
  const abs = path.resolve(p);
  checkExists(abs);
  const existing = ctx.registry.findByPath(abs);
  const report = await scan(abs, ec, opts.records);
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

    'store.open': async (input, ec) => {
      // An engine buffer is not an S3 root: never read it as one named after its folder.
      if (await isStoragePath(path.resolve(input.path)))
        throw new EngineError(
          'invalid-input',
          `${escapeField(input.path)} is a Fluent Bit storage.path (engine buffer: input folders with *.flb chunks), not an S3 store_dir: open it with \`store-doctor salvage <path>\` (undo: \`salvage <path> --undo\`; docs/storage-path.md)`,
          input.path,
        );
      const opened = await openStore(ctx, input.path, ec, { records: input.records });
      if (input.evidenceMaxAgeMinutes !== undefined) opened.evidenceMaxAgeMs = input.evidenceMaxAgeMinutes * 60_000;
      return toOpened(opened);
    },

    'store.openDemo': async (_input, ec) => {
      const demo = readDemo(ctx.demoDir);
      const s = await openStore(ctx, demo.storePath, ec, { isDemo: true });
      if (demo.configPath && !s.config) s.config = await loadConfigFile(demo.configPath);
      if (demo.listingPaths.length && !s.evidence && !s.evidenceByOutput.size) {
        const documents = demo.listingPaths.map((f) => ({ name: path.basename(f), text: fs.readFileSync(f, 'utf8') }));
        const evidence = parseOfflineEvidence(documents);
        if (demo.outputId !== undefined) s.evidenceByOutput.set(demo.outputId, evidence);
        else s.evidence = evidence;
      }
      return toOpened(s);
    },

    'store.rescan': async (input, ec) => {
      const s = ctx.registry.get(input.storeId);
      checkExists(s.path);
      s.report = await scan(s.path, ec);
      s.changedSinceScan = false;
      s.diagnosis = null;
      return toOpened(s);
    },

    'store.close': async (input) => {
      ctx.plans.dropStore(input.storeId);
      return { closed: await ctx.registry.remove(input.storeId) };
    },

    'store.recent': async () => ({ recent: await ctx.recent.list() }),

    'store.list': async (input) => ({ stores: ctx.registry.list().map((s) => (input.rows === false ? withoutRows(toOpened(s)) : toOpened(s))) }),

    'store.fluentBitVersion': async (input) => {
      const s = ctx.registry.get(input.storeId);
      if (input.binary !== undefined) {
        if (ctx.door !== 'cli')
          throw new EngineError('forbidden', 'a Fluent Bit binary can only be named on the command line (--fluent-bit-bin): reading its version runs it');
        try {
          s.fluentBit = await versionFromBinary(input.binary, { insideStore: (p) => ctx.registry.confinement.contains(p) });
        } catch (err) {
          if (err instanceof BinaryVersionError) throw new EngineError(err.kind === 'invalid' ? 'invalid-input' : 'failed', err.message, input.binary);
          throw err;
        }
      } else if (input.version === null || input.version === undefined) s.fluentBit = null;
      else {
        const version = input.version.replace(/^v/, '');
        s.fluentBit = { source: 'given', version, evidence: [`given: Fluent Bit ${version}`] };
      }
      s.diagnosis = null;
      return resolveVersion(s.fluentBit, s.report).info;
    },
  };
}
