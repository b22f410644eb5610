/**
 * The write lock (`.store-doctor/write.lock`): one writer per root. A dead holder's lock is taken
 * over — atomically, so two runs that find the same stale lock at the same moment never both win.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { takeWriteLock } from '../../../electron/engine/repair/preconditions/write-lock';
import { RefusedError } from '../../../electron/engine/repair/outcome/errors';
import { toolDir } from '../../../electron/engine/repair/journal/journal';
import { applyPlan } from '../../../electron/engine/repair/apply';
import { planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { extractFixture, planBacklogReplay, tempDir } from './helpers';
import { newBucket, testClient } from './s3env';
import { s3Enabled } from '../../support/s3';

let t: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  t?.cleanup();
  t = null;
});

/** The pid of a process that has exited (a stale lock's holder). */
function deadPid(): number {
  const r = spawnSync('sh', ['-c', 'echo $$']);
  return Number(String(r.stdout).trim());
}

function staleLock(root: string, content = String(deadPid())): string {
  mkdirSync(toolDir(root), { recursive: true });
  const lock = path.join(toolDir(root), 'write.lock');
  writeFileSync(lock, content);
  return lock;
}

function barrier(n: number): { arrive: () => Promise<void> } {
  let count = 0;
  let open!: () => void;
  const all = new Promise<void>((r) => (open = r));
  return {
    arrive: async () => {
      if (++count === n) open();
      await all;
    },
  };
}

describe('write lock', () => {
  it('takes a free lock, refuses while it is held (naming the pid), and releases it', async () => {
    t = tempDir();
    mkdirSync(toolDir(t.dir));
    const release = await takeWriteLock(t.dir);
    const lock = path.join(toolDir(t.dir), 'write.lock');
    expect(readFileSync(lock, 'utf8')).toContain(String(process.pid));
    const second = await takeWriteLock(t.dir).catch((e: Error) => e);
    expect(second).toBeInstanceOf(RefusedError);
    expect((second as Error).message).toContain(`pid ${process.pid}`);
    await release();
    expect(existsSync(lock)).toBe(false);
    await (
      await takeWriteLock(t.dir)
    )();
  });

  it('refuses a lock held by another live process', async () => {
    t = tempDir();
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      staleLock(t.dir, String(sleeper.pid));
      const r = await takeWriteLock(t.dir).catch((e: Error) => e);
      expect(r).toBeInstanceOf(RefusedError);
      expect((r as Error).message).toContain(`pid ${sleeper.pid}`);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('takes over the lock of a dead replay (old pid-only format too)', async () => {
    t = tempDir();
    const lock = staleLock(t.dir);
    const release = await takeWriteLock(t.dir);
    expect(readFileSync(lock, 'utf8')).toContain(String(process.pid));
    await release();
    expect(readdirSync(toolDir(t.dir))).toEqual([]);
  });

  it("two racing takeovers of the same stale lock: exactly one wins, the lock stays the winner's", async () => {
    t = tempDir();
    const lock = staleLock(t.dir);
    const b = barrier(2);
    const race = [0, 1].map((rank) =>
      takeWriteLock(t!.dir, {
        staleSeen: async () => {
          await b.arrive();
          await new Promise((r) => setTimeout(r, rank * 100)); // the second acts after the first has won
        },
      }),
    );
    const out = await Promise.allSettled(race);
    const won = out.filter((o) => o.status === 'fulfilled');
    const lost = out.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0].reason).toBeInstanceOf(RefusedError);
    expect(existsSync(lock)).toBe(true);
    await (won[0] as PromiseFulfilledResult<() => Promise<void>>).value();
    expect(existsSync(lock)).toBe(false);
  });

  it('a takeover interrupted by a crash (its claim left behind by a dead pid) does not block the next run', async () => {
    t = tempDir();
    const text = String(deadPid());
    const lock = staleLock(t.dir, text);
    // what a run killed between claiming the takeover and replacing the lock leaves behind
    const id = createHash('sha256').update(text).digest('hex').slice(0, 16);
    const claim = `${lock}.takeover-${id}-0`;
    writeFileSync(claim, JSON.stringify({ pid: deadPid(), start: null, token: 'dead-claimant' }));
    const release = await takeWriteLock(t.dir);
    expect(readFileSync(lock, 'utf8')).toContain(String(process.pid));
    expect(readdirSync(toolDir(t.dir))).toEqual(['write.lock']); // claims cleaned up
    await release();
  });

  it('never replaces a lock that changed after it was found stale (compare before replace)', async () => {
    t = tempDir();
    const lock = staleLock(t.dir);
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const live = JSON.stringify({ pid: sleeper.pid, start: null, token: 'live-holder' });
      // another run takes the lock over between our stale check and our takeover
      const r = await takeWriteLock(t.dir, { staleSeen: () => writeFileSync(lock, live) }).catch((e: Error) => e);
      expect(r).toBeInstanceOf(RefusedError);
      expect((r as Error).message).toContain(`pid ${sleeper.pid}`);
      expect(readFileSync(lock, 'utf8')).toBe(live);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('child processes racing for one stale lock: exactly one wins', async () => {
    t = tempDir();
    staleLock(t.dir);
    const bar = path.join(t.dir, 'barrier');
    mkdirSync(bar);
    const out = path.join(t.dir, 'lock-child.js');
    const esbuild = path.resolve(__dirname, '../../../node_modules/.bin/esbuild');
    execFileSync(esbuild, [path.join(__dirname, 'lock-child.ts'), '--bundle', '--platform=node', '--format=cjs', `--outfile=${out}`, '--log-level=warning']);
    const N = 3;
    const kids = Array.from({ length: N }, (_, rank) =>
      spawn(process.execPath, [out, t!.dir, bar, String(N), String(rank)], { stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    try {
      const lines = kids.map(
        (k) =>
          new Promise<string>((resolve) => {
            let buf = '';
            k.stdout!.on('data', (d: Buffer) => {
              buf += String(d);
              if (buf.includes('\n')) resolve(buf.split('\n')[0]);
            });
            k.on('exit', () => resolve(buf.split('\n')[0] || 'EXITED'));
          }),
      );
      writeFileSync(path.join(bar, 'go'), '');
      const said = await Promise.all(lines);
      expect(said.filter((s) => s === 'WON')).toHaveLength(1);
      expect(said.filter((s) => s.startsWith('REFUSED'))).toHaveLength(N - 1);
      const winner = kids[said.indexOf('WON')];
      expect(readFileSync(path.join(toolDir(t.dir), 'write.lock'), 'utf8')).toContain(String(winner.pid));
    } finally {
      for (const k of kids) k.stdin!.end();
      await Promise.all(kids.map((k) => new Promise((r) => (k.exitCode !== null ? r(null) : k.on('exit', r)))));
    }
  }, 60_000);
});

describe.skipIf(!s3Enabled())('a replay holds the write lock for its whole run (RGW)', () => {
  it('an index repair planned meanwhile is refused naming the replay; after it, the lock is free', async () => {
    const fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const client = testClient();
    try {
      const bucket = await newBucket(client, 'sd-lock');
      const plan = await planBacklogReplay(fx, bucket);
      let refused: unknown = null;
      let tried = false;
      const result = await applyPlan(plan, {
        client,
        skipProcessCheck: true,
        hooks: {
          afterSnapshot: async () => {
            if (tried) return;
            tried = true;
            const repair = await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: 99, skipProcessCheck: true });
            refused = await applyPlan(repair, { skipProcessCheck: true }).catch((e: Error) => e);
          },
        },
      });
      expect(tried).toBe(true);
      expect(refused).toBeInstanceOf(RefusedError);
      expect((refused as Error).message).toMatch(new RegExp(`another Store Doctor replay \\(pid ${process.pid}\\)`));
      expect(result.verified).toBe(true);
      expect(existsSync(path.join(toolDir(fx.root), 'write.lock'))).toBe(false);
      await (
        await takeWriteLock(fx.root)
      )();
    } finally {
      client.destroy();
      fx.cleanup();
    }
  }, 60_000);
});
