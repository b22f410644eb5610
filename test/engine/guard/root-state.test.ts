/**
 * A guarded root's states and the one restore loop, driven by events — no timer, no clock: the
 * waits are effects the test records (engine/guard/root-state.ts, restore-loop.ts).
 */
import { describe, expect, it } from 'vitest';
import { guardStateOf, restoreLoop, retryDelay, step, stepUsers, type AttemptOutcome, type RootEvent, type RootPhase } from '../../../electron/engine/guard';

const W: RootPhase = { kind: 'watching', idle: false, problem: null };
const run = (events: RootEvent[], from: RootPhase = W) => events.reduce(step, from);

describe('a root’s states (step)', () => {
  it('a graceful stop: watching → restoring → restored → watching, idle', () => {
    expect(run([{ kind: 'checked', idle: true }, { kind: 'written' }])).toEqual({ kind: 'watching', idle: false, problem: null });
    const r = run([{ kind: 'deleted', at: 1000 }, { kind: 'attempt' }]);
    expect(r).toEqual({ kind: 'restoring', deletedAt: 1000, again: false });
    expect(run([{ kind: 'restored' }, { kind: 'done' }], r)).toEqual({ kind: 'watching', idle: true, problem: null });
  });

  it('refused stays refused through every retry (the state never flips to restoring) until a restore succeeds', () => {
    const refused = run([{ kind: 'deleted', at: null }, { kind: 'attempt' }, { kind: 'refused', why: 'not final' }]);
    expect(refused).toEqual({ kind: 'refused', deletedAt: null, again: false, why: 'not final' });
    const retried = run([{ kind: 'attempt' }, { kind: 'refused', why: 'not final' }, { kind: 'attempt' }], refused);
    expect(retried.kind).toBe('refused');
    expect(guardStateOf('open', [{ bucket: 'b', phase: retried }])).toEqual({ state: 'refused', reason: 'b: not final' });
    const ok = run([{ kind: 'restored' }], retried);
    expect(ok).toEqual({ kind: 'restoring', deletedAt: null, again: false });
    expect(guardStateOf('open', [{ bucket: 'b', phase: ok }])).toEqual({ state: 'restoring', reason: null });
  });

  it('a deletion during a restore: the restore goes round again, with the newer deletion time', () => {
    const r = run([{ kind: 'deleted', at: 1 }, { kind: 'attempt' }, { kind: 'deleted', at: 2 }]);
    expect(r).toEqual({ kind: 'restoring', deletedAt: 2, again: true });
    expect(run([{ kind: 'attempt' }], r)).toEqual({ kind: 'restoring', deletedAt: 2, again: false });
  });

  it('the loop ending after a refusal (the root vanished) keeps the reason while watching', () => {
    const end = run([{ kind: 'deleted', at: 1 }, { kind: 'refused', why: 'in use' }, { kind: 'done' }]);
    expect(end).toEqual({ kind: 'watching', idle: true, problem: 'in use' });
    expect(guardStateOf('open', [{ bucket: 'b', phase: end }]).state).toBe('refused');
    // the next successful restore clears it
    expect(run([{ kind: 'deleted', at: 3 }, { kind: 'restored' }, { kind: 'done' }], end)).toEqual({ kind: 'watching', idle: true, problem: null });
  });

  it('replaced is terminal: no event moves a replaced root (nothing is written there until the guard restarts)', () => {
    const r = run([
      { kind: 'deleted', at: 1 },
      { kind: 'replaced', why: 'a symbolic link' },
    ]);
    expect(r).toEqual({ kind: 'replaced', why: 'a symbolic link' });
    for (const e of [
      { kind: 'deleted', at: 2 },
      { kind: 'restored' },
      { kind: 'done' },
      { kind: 'checked', idle: true },
      { kind: 'replaced', why: 'x' },
    ] as RootEvent[])
      expect(step(r, e)).toBe(r);
    expect(guardStateOf('open', [{ bucket: 'b', phase: r }])).toEqual({ state: 'refused', reason: 'b: a symbolic link' });
  });

  it('the guard’s state: stopped and waiting-for-store win; watching when no root is restoring', () => {
    const roots = [
      { bucket: 'a', phase: W },
      { bucket: 'b', phase: run([{ kind: 'deleted', at: 1 }]) },
    ];
    expect(guardStateOf('open', [roots[0]]).state).toBe('watching');
    expect(guardStateOf('open', roots).state).toBe('restoring');
    expect(guardStateOf('stopped', roots).state).toBe('stopped');
    expect(guardStateOf('waiting-for-store', []).state).toBe('waiting-for-store');
  });

  it('who uses the root: learnt, waited for, forgotten', () => {
    expect(stepUsers({ kind: 'unknown' }, { kind: 'learning' })).toEqual({ kind: 'learning' });
    expect(stepUsers({ kind: 'learning' }, { kind: 'seen', pids: [42] })).toEqual({ kind: 'known', pids: [42] });
    expect(stepUsers({ kind: 'learning' }, { kind: 'seen', pids: [] })).toEqual({ kind: 'unknown' });
    expect(stepUsers({ kind: 'known', pids: [42] }, { kind: 'gone' })).toEqual({ kind: 'unknown' });
  });
});

describe('the one restore loop', () => {
  it('retries with the one policy: 25 ms doubled per attempt, up to 30 s; "again" tries at once; "done" ends', async () => {
    const waits: number[] = [];
    const outcomes: AttemptOutcome[] = ['retry', 'retry', 'again', 'retry', ...Array<AttemptOutcome>(12).fill('retry'), 'done'];
    let n = 0;
    await restoreLoop({ attempt: async () => outcomes[n++], going: () => true, wait: async (ms) => void waits.push(ms) });
    expect(n).toBe(outcomes.length);
    expect(waits.slice(0, 4)).toEqual([25, 50, 200, 400]);
    expect(Math.max(...waits)).toBe(25_600);
    expect(retryDelay(20)).toBe(25_600);
    expect(retryDelay(20, 600_000)).toBe(30_000);
  });

  it('never waits past the deadline; the attempt decides what a late try does', async () => {
    let now = 0;
    const waits: number[] = [];
    let tries = 0;
    await restoreLoop({
      attempt: async () => (++tries, now >= 60 ? 'done' : 'retry'),
      going: () => true,
      wait: async (ms) => {
        waits.push(ms);
        now += ms;
      },
      deadline: 60,
      now: () => now,
    });
    expect(waits).toEqual([25, 35]);
    expect(tries).toBe(3);
  });

  it('stops when told to (the guard stopped), also between a refusal and its wait', async () => {
    let going = true;
    const waits: number[] = [];
    await restoreLoop({
      attempt: async () => ((going = false), 'retry'),
      going: () => going,
      wait: async (ms) => void waits.push(ms),
    });
    expect(waits).toEqual([]);
  });
});
