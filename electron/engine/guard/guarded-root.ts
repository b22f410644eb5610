/**
 * One root the guard daemon guards: where it is, its outputs, the values it keeps, its restores —
 * and its state (./root-state.ts), changed only by `send` (the one transition function). The
 * folder's device and inode are fixed when the guard first sees it (./root-check.ts).
 */
import {
  isRestoring,
  problemOf,
  step,
  stepUsers,
  WATCHING,
  type KeptValue,
  type OutputWatch,
  type RootEvent,
  type RootPhase,
  type UsersEvent,
  type UsersPhase,
} from './root-state';

export class GuardedRoot {
  phase: RootPhase = WATCHING;
  users: UsersPhase = { kind: 'unknown' };
  /** The values kept in the shadow folder (never lower), final where known. */
  readonly guarded = new Map<number, KeptValue>();
  readonly restores = new Map<number, number>();
  lastRestoreAt: string | null = null;
  /** Values the guard restored itself, until a different one is read (reading them back is not Fluent Bit at work). */
  readonly ownWrites = new Map<number, number>();
  /** Device and inode of the root folder, fixed when the guard first saw it (at its start, or when Fluent Bit created it). */
  folder: { dev: number; ino: number } | null = null;
  /** Ends the wait between two restore attempts (set while the restore loop waits). */
  wake: (() => void) | null = null;

  constructor(
    readonly bucket: string,
    readonly rootPath: string,
    readonly shadowDir: string,
    readonly outputs: OutputWatch[],
    values: Map<number, number | null>,
    finals: Map<number, number | null>,
  ) {
    for (const [id, v] of values) if (v !== null) this.guarded.set(id, { value: v, final: finals.get(id) === v });
  }

  send(e: RootEvent): void {
    this.phase = step(this.phase, e);
    if (e.kind === 'deleted' || e.kind === 'replaced') this.wake?.();
  }

  sendUsers(e: UsersEvent): void {
    this.users = stepUsers(this.users, e);
  }

  /** Why the root is not guarded as it should be, or null. */
  get problem(): string | null {
    return problemOf(this.phase);
  }

  get restoring(): boolean {
    return isRestoring(this.phase);
  }

  get replaced(): string | null {
    return this.phase.kind === 'replaced' ? this.phase.why : null;
  }

  get deletedAt(): number | null {
    return this.restoring ? (this.phase as { deletedAt: number | null }).deletedAt : null;
  }
}
