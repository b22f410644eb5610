/**
 * guard.start / guard.stop / guard.status: the session hosts a guard daemon (engine/guard/) on an
 * opened live store, as `store-doctor guard` hosts one on the CLI's session. The daemon reaches the
 * disk only through this session's own requests (`call`: the same dispatch — validation,
 * confinement, the one write pipeline — as every door), keeps its shadow folders under the
 * engine's state folder (one folder per store), and stops when its store is closed or the session
 * ends.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { EngineHandlers } from '../../../shared/contract';
import { GUARD_OFF, type GuardStatus } from '../../../shared/guard-status';
import type { Guard, GuardCall } from '../guard';
import { EngineError } from './errors';
import type { SessionContext } from './handlers-store';

type GuardHandlers = Pick<EngineHandlers, 'guard.start' | 'guard.stop' | 'guard.status'>;

export function guardStatusOf(g: Guard | undefined): GuardStatus {
  if (!g) return GUARD_OFF;
  return {
    running: !g.stopped,
    state: g.state,
    stateReason: g.stateReason,
    startedAt: g.startedAt,
    stateDir: g.opts.stateDir,
    restores: g.restores,
    lastRestoreAt: g.lastRestoreAt,
    lastRestoreLatencyMs: g.lastRestoreLatencyMs,
    roots: [...g.roots.values()].map((w) => ({
      bucket: w.bucket,
      rootPath: w.rootPath,
      phase: w.phase.kind,
      problem: w.problem,
      outputs: w.outputs.map((o) => ({
        id: o.id,
        displayName: o.displayName,
        kept: w.guarded.get(o.id)?.value ?? null,
        final: w.guarded.get(o.id)?.final ?? false,
        restores: w.restores.get(o.id) ?? 0,
      })),
      lastRestoreAt: w.lastRestoreAt,
    })),
    messages: g.messages.slice(-50),
  };
}

/** The session's guards, one per opened store at most. */
export class SessionGuards {
  private readonly guards = new Map<string, Guard>();

  get(storeId: string): Guard | undefined {
    return this.guards.get(storeId);
  }

  set(storeId: string, g: Guard): void {
    this.guards.set(storeId, g);
  }

  async stop(storeId: string): Promise<Guard | undefined> {
    const g = this.guards.get(storeId);
    this.guards.delete(storeId);
    await g?.stop();
    return g;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.guards.keys()].map((id) => this.stop(id)));
  }
}

export function guardHandlers(ctx: SessionContext, guards: SessionGuards, call: GuardCall, stateDir: string | undefined): GuardHandlers {
  return {
    'guard.start': async (input) => {
      // loaded when a guard starts: its metrics pull prom-client in, which no other request needs
      // (test/cli/entry.test.ts: a scan loads neither the SDK nor prom-client)
      const { Guard } = await import('../guard');
      const s = ctx.registry.get(input.storeId);
      const running = guards.get(s.storeId);
      if (running && !running.stopped) return guardStatusOf(running);
      if (s.report.source.kind === 'archive') throw new EngineError('refused', 'an archive never changes: there is nothing to guard', s.path);
      if (!s.config) throw new EngineError('refused', 'load the Fluent Bit config first: the guard keeps the index of every $INDEX output of the config');
      if (!stateDir) throw new EngineError('refused', 'this session keeps no state folder: the guard needs one for its shadow copies of the index');
      const dir = path.join(stateDir, 'guard', createHash('sha256').update(s.realPath).digest('hex').slice(0, 16));
      const g = new Guard(
        { store: s.path, storeId: s.storeId, stateDir: dir, marker: input.marker, rescanBeforeWrite: ctx.watch, log: () => undefined },
        { call },
      );
      guards.set(s.storeId, g);
      try {
        await g.start();
      } catch (err) {
        await guards.stop(s.storeId);
        throw err;
      }
      return guardStatusOf(g);
    },

    'guard.stop': async (input) => {
      ctx.registry.get(input.storeId);
      const g = await guards.stop(input.storeId);
      return g ? { ...guardStatusOf(g), running: false } : GUARD_OFF;
    },

    'guard.status': async (input) => {
      ctx.registry.get(input.storeId);
      return guardStatusOf(guards.get(input.storeId));
    },
  };
}
