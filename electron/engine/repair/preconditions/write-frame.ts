/**
 * The write frame: the prologue and epilogue every applier runs around its write, written once.
 * Prologue: the source check (an archive or read-only source is never written), the process
 * check right before writing (refused unless forced; the forced warning names what the force
 * overrides) and the start of the before/after snapshot of the store. Epilogue: the snapshot's
 * diff ("the store changed during …"), added to the result's warnings.
 *
 * applyPlan (repair/apply.ts) makes one frame per action from its options and hands it to the
 * applier; an applier called without one (tests) makes it here from the same options, so the
 * rule lives in this file alone. Appliers never call checkWriteAllowed or watchStore themselves
 * (test/structure/write-frame.test.ts).
 */
import { assertNotRefused, forcedWarning } from '../outcome';
import { checkWriteAllowed, watchStore, type WriteTestHooks } from './write-check';

type Refusal = { reason: string; forceable: boolean };

export interface WriteFrameOptions {
  force?: boolean;
  /** Tests only: do not look for processes using the store. */
  skipProcessCheck?: boolean;
  /** Tests: e.g. change the store while an action runs. */
  hooks?: WriteTestHooks;
  /** The frame applyPlan made for this action; absent: made from the options above. */
  frame?: WriteFrame;
}

export interface WriteCheckOutcome {
  /** The process check's warnings (a shell whose working directory is in the root…). */
  warnings: string[];
  /** The forced warning when `force` overrides a refusal right before writing, else null. */
  forced: string | null;
}

export interface FrameWatch {
  /** Epilogue: the snapshot's diff after the write; its warning (if any) is added to `into.warnings`. */
  end(into: { warnings: string[] }, expected: string[], what: string): Promise<void>;
}

export interface WriteFrame {
  /** An archive or read-only source is refused (never forceable); no process check. */
  assertSource(root: string): Promise<void>;
  /**
   * Right before writing: the process check of `root`, refused unless forced. `also`: the
   * action's own refusals of this moment, blocking by the same rule (after the check's own).
   * `skipProcessCheck`: this action needs no process check now (nothing local to write).
   */
  checkWrite(root: string, o?: { also?: Refusal[]; skipProcessCheck?: boolean }): Promise<WriteCheckOutcome>;
  /** Start the before/after snapshot of `root` (`scope`: only these top-level folders). */
  watch(root: string, scope?: string[]): Promise<FrameWatch>;
}

/** The frame of an applier: the one applyPlan handed it, else one made from its options. */
export function writeFrame(opts: WriteFrameOptions = {}): WriteFrame {
  if (opts.frame) return opts.frame;
  return {
    async assertSource(root) {
      assertNotRefused((await checkWriteAllowed(root, { skipProcessCheck: true })).refusals, false);
    },
    async checkWrite(root, o = {}) {
      const g = await checkWriteAllowed(root, { skipProcessCheck: opts.skipProcessCheck || o.skipProcessCheck });
      const refusals = [...g.refusals, ...(o.also ?? [])];
      assertNotRefused(refusals, opts.force);
      return { warnings: g.warnings, forced: opts.force ? forcedWarning(refusals) : null };
    },
    async watch(root, scope) {
      const w = await watchStore(root, opts.hooks, scope);
      return {
        async end(into, expected, what) {
          const changed = await w.warning(expected, what);
          if (changed) into.warnings.push(changed);
        },
      };
    },
  };
}
