/**
 * One real Fluent Bit process: started on a config with its stdout+stderr in a log file, watched
 * for log lines, stopped by PID with SIGTERM (graceful) or SIGKILL, and always reaped.
 *
 * Every process started here is registered until it has exited; `reapAll()` (called from the
 * suite's afterEach/afterAll and on process exit) SIGKILLs the survivors by PID and waits for them,
 * so a failing test never leaks a Fluent Bit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export interface StartOptions {
  bin: string;
  config: string;
  /** stdout+stderr go here (appended). */
  logFile: string;
  /** Only these are added to a minimal environment (credentials for this child only). */
  env: Record<string, string>;
  cwd?: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const live = new Set<FluentBitProcess>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class FluentBitProcess {
  readonly pid: number;
  readonly startedAt = new Date();
  readonly exited: Promise<Exit>;
  exit: Exit | null = null;
  private readonly child: ChildProcess;
  private readonly logStart: number;

  constructor(readonly opts: StartOptions) {
    let start = 0;
    try {
      start = readFileSync(opts.logFile).length;
    } catch {
      /* new file */
    }
    this.logStart = start;
    const fd = openSync(opts.logFile, 'a');
    try {
      this.child = spawn(opts.bin, ['-c', opts.config], {
        cwd: opts.cwd,
        stdio: ['ignore', fd, fd],
        // PATH only for the dynamic loader's sake; TZ=UTC so stream names (local time) match key dates.
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TZ: 'UTC', ...opts.env },
      });
    } finally {
      closeSync(fd);
    }
    if (!this.child.pid) throw new Error(`could not start ${opts.bin}`);
    this.pid = this.child.pid;
    live.add(this);
    this.exited = new Promise<Exit>((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.exit = { code, signal };
        live.delete(this);
        resolve(this.exit);
      });
      this.child.on('error', () => {
        this.exit ??= { code: null, signal: null };
        live.delete(this);
        resolve(this.exit);
      });
    });
  }

  get running(): boolean {
    return this.exit === null;
  }

  /** This process's part of the log file. */
  log(): string {
    try {
      return readFileSync(this.opts.logFile).subarray(this.logStart).toString('utf8');
    } catch {
      return '';
    }
  }

  tail(lines = 30): string {
    return this.log().trimEnd().split('\n').slice(-lines).join('\n');
  }

  /** Resolves with the first `count` matches of `re` (global flag added) in this run's log. */
  async waitFor(re: RegExp, opts: { count?: number; timeoutMs?: number } = {}): Promise<RegExpMatchArray[]> {
    const count = opts.count ?? 1;
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hits = [...this.log().matchAll(g)];
      if (hits.length >= count) return hits.slice(0, count);
      if (!this.running) throw new Error(`Fluent Bit (pid ${this.pid}) exited (${JSON.stringify(this.exit)}) before ${count}× ${re}; log:\n${this.tail()}`);
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${count}× ${re} (saw ${hits.length}); log:\n${this.tail()}`);
      await sleep(100);
    }
  }

  matches(re: RegExp): RegExpMatchArray[] {
    return [...this.log().matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g'))];
  }

  /**
   * Send `signal` by PID and wait for the exit. A graceful stop that outlives `timeoutMs` is ended
   * with SIGKILL and reported as an error (the test must not pass on a hung Fluent Bit).
   */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM', timeoutMs = 30_000): Promise<Exit> {
    if (!this.running) return this.exit!;
    process.kill(this.pid, signal);
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([this.exited, new Promise<null>((r) => (timer = setTimeout(() => r(null), timeoutMs)))]);
    clearTimeout(timer);
    if (done) return done;
    process.kill(this.pid, 'SIGKILL');
    await this.exited;
    throw new Error(`Fluent Bit (pid ${this.pid}) did not exit within ${timeoutMs} ms of ${signal}; killed. log:\n${this.tail()}`);
  }
}

export function startFluentBit(opts: StartOptions): FluentBitProcess {
  return new FluentBitProcess(opts);
}

/** SIGKILL every Fluent Bit started here that is still running, by PID, and wait until reaped. */
export async function reapAll(): Promise<number> {
  const left = [...live];
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  await Promise.all(left.map((p) => p.exited));
  return left.length;
}

process.on('exit', () => {
  for (const p of live) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});
