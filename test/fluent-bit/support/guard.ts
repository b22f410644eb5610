/**
 * The guard as an operator runs it next to Fluent Bit: `store-doctor guard <store_dir> --config …
 * --state-dir … --metrics 127.0.0.1:0` as its own process (README: "Guard the index"), its
 * /report.json and /metrics read over HTTP, stopped by PID with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { NodeReport } from '../../../shared/fleet';
import { REPO } from './cli';
import type { Lab } from './lab';

export interface GuardProcess {
  pid: number;
  url: string;
  stateDir: string;
  log(): string;
  report(): Promise<NodeReport>;
  metrics(): Promise<string>;
  /** Resolves when `fn(report)` holds (polls /report.json), rejects after `timeoutMs`. */
  until(what: string, fn: (r: NodeReport) => boolean, timeoutMs?: number): Promise<NodeReport>;
  stop(): Promise<number | null>;
}

export async function startGuard(
  lab: Lab,
  config: string,
  opts: { stateDir?: string; extra?: string[]; env?: Record<string, string> } = {},
): Promise<GuardProcess> {
  const stateDir = opts.stateDir ?? path.join(lab.dir, 'guard-state');
  const args = ['guard', lab.storeDir, '--config', config, '--state-dir', stateDir, '--metrics', '127.0.0.1:0', '--node', lab.name, ...(opts.extra ?? [])];
  const child: ChildProcess = spawn(process.execPath, [path.join(REPO, 'bin', 'store-doctor.cjs'), ...args], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', TZ: 'UTC', NO_COLOR: '1', ...opts.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const deadline = Date.now() + 30_000;
    const tick = setInterval(() => {
      const m = /on (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(log);
      if (m && /(guarding |nothing to guard|waiting for the store)/.test(log)) resolve(m[1]);
      else if (child.exitCode !== null || Date.now() > deadline) reject(new Error(`the guard did not start:\n${log}`));
      else return;
      clearInterval(tick);
    }, 50);
  });
  const report = async () => (await (await fetch(`${url}/report.json`)).json()) as NodeReport;
  return {
    pid: child.pid!,
    url,
    stateDir,
    log: () => log,
    report,
    metrics: async () => (await fetch(`${url}/metrics`)).text(),
    async until(what, fn, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const r = await report();
        if (fn(r)) return r;
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; guard log:\n${log.split('\n').slice(-30).join('\n')}`);
        await new Promise((res) => setTimeout(res, 50));
      }
    },
    async stop() {
      if (child.exitCode === null) process.kill(child.pid!, 'SIGTERM');
      const code = await exited;
      writeFileSync(path.join(lab.dir, 'guard.log'), log);
      return code;
    },
  };
}
