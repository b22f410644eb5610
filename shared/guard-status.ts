/**
 * What the app's Guard panel shows of a guard daemon hosted by the session (`guard.start`,
 * `guard.stop`, `guard.status`): its state and why, per root the state, the values kept in the
 * shadow folder (final or not) and the restores, and the guard's recent log lines.
 */
import type { GuardState } from './fleet';

export interface GuardRootStatus {
  bucket: string;
  rootPath: string;
  /** The root's own state (engine/guard/root-state.ts). */
  phase: 'watching' | 'restoring' | 'refused' | 'replaced';
  /** Why it is refused or replaced (or why its last restore stopped short), else null. */
  problem: string | null;
  outputs: {
    id: number;
    displayName: string;
    /** The value kept in the shadow folder (never lower), null when none yet. */
    kept: number | null;
    /** Known to be final (read after Fluent Bit's exit flush, or while no process used the root). */
    final: boolean;
    restores: number;
  }[];
  lastRestoreAt: string | null;
}

export interface GuardStatus {
  /** A guard runs on this store in this session. */
  running: boolean;
  /** 'off' when none runs. */
  state: GuardState | 'off';
  stateReason: string | null;
  startedAt: string | null;
  /** Where it keeps its shadow folders (the app's own state folder). */
  stateDir: string | null;
  restores: number;
  lastRestoreAt: string | null;
  lastRestoreLatencyMs: number | null;
  roots: GuardRootStatus[];
  /** Its last log lines, oldest first (at most 50). */
  messages: string[];
}

/** The status of a store no guard runs on. */
export const GUARD_OFF: GuardStatus = {
  running: false,
  state: 'off',
  stateReason: null,
  startedAt: null,
  stateDir: null,
  restores: 0,
  lastRestoreAt: null,
  lastRestoreLatencyMs: null,
  roots: [],
  messages: [],
};
