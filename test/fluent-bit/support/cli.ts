/**
 * The Store Doctor CLI as an operator runs it: `node bin/store-doctor.cjs <command> …` from the
 * checkout, as its own process, with the S3 credentials in that process's environment only.
 * Only flags documented in README.md are used, so the CLI can change inside without breaking this.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';

export const REPO = path.resolve(__dirname, '../../..');
const BIN = path.join(REPO, 'bin', 'store-doctor.cjs');

export interface CliResult {
  args: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface CliOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  /** SIGKILL the CLI when its stdout or stderr first matches (the "killed mid-write" case). */
  killWhen?: RegExp;
  /** SIGKILL the CLI this many ms after it started. */
  killAfterMs?: number;
}

export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', TZ: 'UTC', NO_COLOR: '1', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    const kill = () => {
      if (!killed && child.exitCode === null) {
        killed = true;
        child.kill('SIGKILL');
      }
    };
    const check = () => {
      if (opts.killWhen && (opts.killWhen.test(stdout) || opts.killWhen.test(stderr))) kill();
    };
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      check();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      check();
    });
    const killTimer = opts.killAfterMs !== undefined ? setTimeout(kill, opts.killAfterMs) : null;
    const timeout = setTimeout(() => {
      kill();
      reject(new Error(`store-doctor ${args.join(' ')} did not finish within ${opts.timeoutMs ?? 180_000} ms\n${stdout}\n${stderr}`));
    }, opts.timeoutMs ?? 180_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timeout);
      if (killTimer) clearTimeout(killTimer);
      resolve({ args, code, signal, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

export function describeCli(r: CliResult): string {
  return `store-doctor ${r.args.join(' ')} → exit ${r.code ?? r.signal} (${r.ms} ms)\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;
}
