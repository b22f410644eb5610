/**
 * A guarded root's life as explicit states, and every transition in one function (`step`): the
 * guard daemon (./daemon.ts) only sends events and runs the effects (watch, wait, plan, apply).
 *
 *   watching ──deleted──▶ restoring ──refused/failed──▶ refused ──(retry)──▶ … ──restored──▶ restoring
 *      ▲                      │                             │                                    │
 *      └────────done──────────┴──────────done───────────────┘◀───────────────done────────────────┘
 *   any ──replaced──▶ replaced (terminal: nothing is written there until the guard restarts)
 *
 * "refused" is kept through the retries until a restore succeeds, so the guard's state says
 * "refused" (and why) while it tries again — never "restoring". Who uses the root (the Fluent Bit
 * to wait for after a graceful stop) is a second, small state of its own (`UsersPhase`).
 */
import type { GuardState } from '../../../shared/fleet';

export interface OutputWatch {
  id: number;
  displayName: string;
  bucket: string;
  /** The output's s3_key_format and endpoint (null: AWS): its key identity across nodes. */
  keyFormat: string;
  endpoint: string | null;
}

export interface KeptValue {
  value: number;
  final: boolean;
}

export type RootPhase =
  /** idle: no process used the root when last checked, and no in-place write was seen since. problem: why the last restore stopped short (the root vanished after a refusal). */
  | { kind: 'watching'; idle: boolean; problem: string | null }
  /** A restore under way with no refusal yet. again: another deletion was seen meanwhile (go round once more). */
  | { kind: 'restoring'; deletedAt: number | null; again: boolean }
  /** A restore refused (or failed): tried again — after a backoff, or when the processes using the root exit. */
  | { kind: 'refused'; deletedAt: number | null; again: boolean; why: string }
  /** The root is no longer the folder the guard started on: nothing is written there. */
  | { kind: 'replaced'; why: string };

export type RootEvent =
  /** The process check at start (or after a restore): idle when no process uses the root. */
  | { kind: 'checked'; idle: boolean }
  /** Fluent Bit wrote the index in place. */
  | { kind: 'written' }
  /** sequence/ (or an index file) deleted — or found missing at start (at: null). */
  | { kind: 'deleted'; at: number | null }
  /** An attempt starts: a deletion seen before it is taken into account by it. */
  | { kind: 'attempt' }
  | { kind: 'refused'; why: string }
  /** Every output is restored (or had nothing to restore). */
  | { kind: 'restored' }
  /** The restore loop ended (restored, root absent, stopped). */
  | { kind: 'done' }
  | { kind: 'replaced'; why: string };

/** Who uses the root: unknown, being looked up (Fluent Bit only, while it runs), or known (to wait for). */
export type UsersPhase = { kind: 'unknown' } | { kind: 'learning' } | { kind: 'known'; pids: number[] };

export type UsersEvent = { kind: 'learning' } | { kind: 'seen'; pids: number[] } | { kind: 'gone' };

export const WATCHING: RootPhase = { kind: 'watching', idle: false, problem: null };

/** The one transition function of a root's phase. */
export function step(p: RootPhase, e: RootEvent): RootPhase {
  if (p.kind === 'replaced') return p;
  switch (e.kind) {
    case 'replaced':
      return { kind: 'replaced', why: e.why };
    case 'checked':
      return p.kind === 'watching' ? { ...p, idle: e.idle } : p;
    case 'written':
      return p.kind === 'watching' ? { ...p, idle: false } : p;
    case 'deleted':
      if (p.kind === 'watching') return { kind: 'restoring', deletedAt: e.at, again: false };
      return { ...p, deletedAt: e.at ?? p.deletedAt, again: true };
    case 'attempt':
      return p.kind === 'watching' ? p : { ...p, again: false };
    case 'refused':
      return p.kind === 'watching' ? p : { kind: 'refused', deletedAt: p.deletedAt, again: p.again, why: e.why };
    case 'restored':
      return p.kind === 'watching' ? p : { kind: 'restoring', deletedAt: p.deletedAt, again: p.again };
    case 'done':
      return { kind: 'watching', idle: true, problem: p.kind === 'refused' ? p.why : p.kind === 'watching' ? p.problem : null };
  }
}

export function stepUsers(u: UsersPhase, e: UsersEvent): UsersPhase {
  switch (e.kind) {
    case 'learning':
      return { kind: 'learning' };
    case 'seen':
      return e.pids.length ? { kind: 'known', pids: e.pids } : { kind: 'unknown' };
    case 'gone':
      return { kind: 'unknown' };
  }
}

/** Why the root is not guarded as it should be (shown as a risk and in the guard's state), or null. */
export function problemOf(p: RootPhase): string | null {
  return p.kind === 'refused' || p.kind === 'replaced' ? p.why : p.kind === 'watching' ? p.problem : null;
}

export const isRestoring = (p: RootPhase): boolean => p.kind === 'restoring' || p.kind === 'refused';

/**
 * The guard's state from its roots': stopped; waiting for the store; "refused" when a root has a
 * problem (with each root's reason, also while it retries); "restoring" while a restore with no
 * refusal is under way; else "watching".
 */
export function guardStateOf(
  life: 'waiting-for-store' | 'open' | 'stopped',
  roots: Iterable<{ bucket: string; phase: RootPhase }>,
): { state: GuardState; reason: string | null } {
  const all = [...roots];
  const refused = all.filter((r) => problemOf(r.phase) !== null);
  const reason = refused.length ? refused.map((r) => `${r.bucket}: ${problemOf(r.phase)}`).join(' / ') : null;
  if (life !== 'open') return { state: life, reason };
  if (refused.length) return { state: 'refused', reason };
  return { state: all.some((r) => isRestoring(r.phase)) ? 'restoring' : 'watching', reason };
}
