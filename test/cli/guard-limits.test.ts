/**
 * Issue 17 case 4: the guard's HTTP endpoint under 1,100 idle connections, the guard limited to
 * 1,024 descriptors as in the shipped DaemonSet's runtime. Connections beyond its limit are closed
 * at once and idle ones after the idle timeout; a graceful stop's deletion of sequence/ meanwhile
 * (the folder removed as Fluent Bit removes it) is still restored, and /healthz still answers.
 * The guard runs as shipped (bin/store-doctor.cjs), in a shell with `ulimit -n 1024`.
 */
import { until as waitUntil } from '../support/wait';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GUARD_HTTP_LIMITS } from '../../electron/cli/guard/server';
import { extractFixture, tempDir, type Extracted } from '../engine/repair/helpers';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/store-doctor.cjs');

let fx: Extracted | null = null;
let t: ReturnType<typeof tempDir> | null = null;
let guard: ChildProcess | null = null;
const sockets: net.Socket[] = [];
/** Sockets the guard closed before sending anything (the connection limit), and after a response (a timeout's 408). */
const closedSilently = new Set<net.Socket>();
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  if (guard && guard.exitCode === null && guard.signalCode === null) {
    const exited = new Promise((r) => guard!.once('exit', r));
    guard.kill('SIGKILL');
    await exited;
  }
  guard = null;
  fx?.cleanup();
  t?.cleanup();
  fx = t = null;
});

const until = <T>(what: string, fn: Parameters<typeof waitUntil<T>>[1], timeoutMs = 60_000) => waitUntil<T>(what, fn, timeoutMs);

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.on('error', () => undefined);
    let got = 0;
    s.on('data', (d: Buffer) => (got += d.length)); // reads what the guard sends (a 408 before it closes), so its close is seen
    s.once('close', () => {
      if (got === 0) closedSilently.add(s);
    });
    s.once('connect', () => resolve(s));
    s.once('close', () => resolve(s));
    sockets.push(s);
  });
}

describe('store-doctor guard: 1,100 idle connections to /metrics', { timeout: 180_000 }, () => {
  it('are closed by its limits and timeouts; a deletion of sequence/ meanwhile is restored and /healthz answers', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    t = tempDir('sd-guard-limits-');
    const conf = path.join(t.dir, 'fb.conf');
    writeFileSync(
      conf,
      `[OUTPUT]\n    name s3\n    match *\n    bucket fb-crash\n    region us-east-1\n    store_dir ${fx.storeDir}\n    s3_key_format /$TAG/%Y/%m/%d/$INDEX\n`,
    );
    const seq = path.join(fx.root, 'sequence/index_metadata/seq_index_0');
    const value = readFileSync(seq, 'latin1');
    const args = [BIN, 'guard', fx.storeDir, '--config', conf, '--state-dir', path.join(t.dir, 'state'), '--metrics', '127.0.0.1:0', '--poll-ms', '200'];
    guard = spawn('sh', ['-c', 'ulimit -n 1024 && exec "$0" "$@"', process.execPath, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    guard.stderr!.on('data', (d) => (err += String(d)));
    const port = Number(await until('the endpoint', () => /on http:\/\/127\.0\.0\.1:(\d+)\/metrics/.exec(err)?.[1]));
    await until('the final value kept', () => /kept \d+ \(final\)/.test(err));

    const CONNECTIONS = 1100; // more than its descriptors
    for (let i = 0; i < CONNECTIONS; i++) await connect(port);
    rmSync(path.join(fx.root, 'sequence'), { recursive: true }); // as a graceful stop of Fluent Bit does
    // beyond the limit, connections are closed as they come, before any timeout (nothing sent on them)
    const open = () => sockets.filter((s) => !s.destroyed && s.readyState === 'open').length;
    await until(`at most ${GUARD_HTTP_LIMITS.maxConnections} connections left open`, () => open() <= GUARD_HTTP_LIMITS.maxConnections);
    expect(closedSilently.size).toBeGreaterThanOrEqual(CONNECTIONS - GUARD_HTTP_LIMITS.maxConnections);

    await until('the restore', () => existsSync(seq) && readFileSync(seq, 'latin1') === value);
    expect(err).not.toMatch(/EMFILE|no value known/);

    // the idle ones go after the idle timeout (not a wall-clock assertion: waited for)
    await until('every idle connection closed', () => open() === 0);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { restores: number }).restores).toBe(1);
  });
});
