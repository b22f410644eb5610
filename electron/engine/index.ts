/**
 * The engine as the doors see it: `createEngine()` returns the object that implements every
 * request of `shared/contract.ts` over one session of opened stores. Each handler runs as a task
 * (cancellable with `task.cancel`, progress pushed as `progress` events); `isPathInOpenedStores`
 * is the realpath-based confinement the doors apply to paths in requests.
 */
import path from 'node:path';
import type { Door, Engine, EngineContext, EngineHandlers, RequestName } from '../../shared/contract';
import type { Progress } from '../../shared/model';
import pkg from '../../package.json';
import { EngineEvents } from './session/events';
import { consoleHandlers } from './session/handlers-console';
import { inspectHandlers } from './session/handlers-inspect';
import { fleetPromHandlers } from './session/handlers-fleet-prom';
import { liveHandlers } from './session/handlers-live';
import { guardHandlers, SessionGuards } from './session/handlers-guard';
import { dispatchRequest } from './session/dispatch';
import { EngineError } from './session/errors';
import type { GuardCall } from './guard';
import { storagePathHandlers } from './session/handlers-storage-path';
import { repairHandlers } from './session/handlers-repair';
import { storeHandlers, type SessionContext } from './session/handlers-store';
import { RecentStores } from './session/recent';
import { PlanStore } from './session/plans';
import { SessionRegistry } from './session/registry';
import { SavedConnections } from './session/connections';
import { TaskRegistry } from './session/tasks';

export interface CreateEngineOptions {
  /** Which door serves this engine (reported by `app.info`); default `host`. */
  door?: Door;
  /** Folder with `demo.json` (the built-in demo store); default `<project>/demo`. */
  demoDir?: string;
  /** Where the engine keeps its own small state (recent stores). None: nothing is remembered. */
  stateDir?: string;
  /** Watch opened folders for changes (default true). */
  watch?: boolean;
  /** Minimum time between two progress events of one task (default 100 ms; the last one always goes). */
  progressIntervalMs?: number;
}

export { dispatchRequest, checkConfinement } from './session/dispatch';
export { toContractError, EngineError } from './session/errors';
/** What a door needs to decide before it opens a session: is this folder an engine buffer, is a path inside another. */
export { isStoragePath } from './storage-path';
export { isInside, realPathOf } from './session/confine';

function throttledProgress(intervalMs: number, send: (p: Progress) => void): (p: Progress) => void {
  let last = 0;
  return (p) => {
    const now = Date.now();
    const final = p.total !== null && p.done >= p.total;
    if (final || now - last >= intervalMs) {
      last = now;
      send(p);
    }
  };
}

export function createEngine(opts: CreateEngineOptions = {}): Engine {
  const events = new EngineEvents();
  const tasks = new TaskRegistry();
  const registry = new SessionRegistry();
  const ctx: SessionContext = {
    registry,
    plans: new PlanStore(),
    events,
    recent: new RecentStores(opts.stateDir),
    door: opts.door ?? 'host',
    version: pkg.version,
    demoDir: opts.demoDir ?? path.resolve(__dirname, '..', '..', 'demo'),
    watch: opts.watch ?? true,
  };
  const guards = new SessionGuards();
  // A guard hosted by this session sends its requests through this engine's own dispatch, as a door does.
  const guardCall: GuardCall = async (name, input) => {
    const reply = await dispatchRequest(engine, name, input);
    if (!reply.ok) throw new EngineError(reply.error.code, reply.error.message, reply.error.file);
    return reply.value as never;
  };
  const raw: EngineHandlers = {
    ...storeHandlers(ctx),
    ...inspectHandlers(ctx),
    ...repairHandlers(ctx, tasks),
    ...consoleHandlers(ctx, new SavedConnections(opts.stateDir)),
    ...liveHandlers(ctx),
    ...guardHandlers(ctx, guards, guardCall, opts.stateDir),
    ...fleetPromHandlers(),
    ...storagePathHandlers(ctx),
  };
  // A store's guard stops before its store closes.
  const close = raw['store.close'];
  raw['store.close'] = async (input, ec) => {
    await guards.stop(input.storeId);
    return close(input, ec);
  };
  const interval = opts.progressIntervalMs ?? 100;

  // Every handler runs as a task: its own abort signal (linked to the door's) and progress events.
  const handlers = Object.fromEntries(
    (Object.keys(raw) as RequestName[]).map((name) => {
      const run = raw[name] as (input: unknown, ec: EngineContext) => Promise<unknown>;
      const wrapped = async (input: unknown, ec: EngineContext) => {
        if (name === 'task.cancel') return run(input, ec);
        const task = tasks.start(ec.taskId, name, ec.signal);
        const onProgress = throttledProgress(interval, (progress) => {
          ec.onProgress(progress);
          events.emit('progress', { taskId: ec.taskId, request: name, progress });
        });
        try {
          return await run(input, { taskId: ec.taskId, signal: task.signal, onProgress });
        } catch (err) {
          if (task.signal.aborted) throw Object.assign(new Error(`${name} cancelled`), { name: 'AbortError' });
          throw err;
        } finally {
          task.finish();
        }
      };
      return [name, wrapped];
    }),
  ) as unknown as EngineHandlers;

  const engine: Engine = {
    handlers,
    onEvent: (event, listener) => events.on(event, listener),
    isPathInOpenedStores: (absPath) => registry.confinement.contains(absPath),
    async dispose() {
      await guards.stopAll();
      tasks.cancelAll();
      await registry.clear();
      events.clear();
    },
  };
  return engine;
}
