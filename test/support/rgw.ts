/**
 * A real S3 server for tests: single-node Ceph RGW (mon + osd + radosgw) on 127.0.0.1.
 *
 *   startRgw()               start a private cluster in a temp dir; `stop()` ends it and removes the dir
 *   readHealthyRgw()         the shared server described by the state file, if it answers
 *   npx tsx test/support/rgw.ts start|stop|status
 *                            keep ONE shared server running across test runs
 *                            (state: $STORE_DOCTOR_RGW_DIR or /tmp/store-doctor-rgw/state.json)
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { cephConf, pickPorts } from './rgw-conf';

export const RGW_HOME = process.env.STORE_DOCTOR_RGW_DIR ?? join(tmpdir(), 'store-doctor-rgw');
export const RGW_STATE_FILE = join(RGW_HOME, 'state.json');
export const RGW_APT_COMMAND = 'apt-get install -y radosgw ceph-mon ceph-osd';
const BINARIES = ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'monmaptool', 'ceph'];
const DAEMONS = { mon: 'ceph-mon', osd: 'ceph-osd', rgw: 'radosgw' } as const;
type Daemon = keyof typeof DAEMONS;

export interface RgwState {
  dir: string;
  endpoint: string;
  region: string;
  /** Owner of every test bucket. */
  accessKeyId: string;
  secretAccessKey: string;
  /** A second user with no access to the first user's buckets (AccessDenied tests). */
  otherAccessKeyId: string;
  otherSecretAccessKey: string;
  pids: Record<Daemon, number>;
  startedAt: string;
}

export interface RgwServer extends RgwState {
  stop(): Promise<void>;
}

export function missingRgwBinaries(): string[] {
  const path = (process.env.PATH ?? '/usr/bin').split(':').concat('/usr/bin', '/usr/sbin');
  return BINARIES.filter((b) => !path.some((p) => p && existsSync(join(p, b))));
}

function run(cmd: string, args: string[], timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${String(stderr).trim()}`));
      else resolve(String(stdout));
    });
  });
}

function tail(file: string, lines = 25): string {
  try {
    const text = readFileSync(file, 'utf8').trimEnd().split('\n');
    return `--- last lines of ${file} ---\n${text.slice(-lines).join('\n')}`;
  } catch {
    return `(no ${file})`;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The process is alive and is the ceph daemon we started (guards against pid reuse). */
export function daemonAlive(pid: number, daemon: Daemon): boolean {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return cmdline.includes(DAEMONS[daemon]) && state !== 'Z';
  } catch {
    return false;
  }
}

async function stopPids(pids: Partial<Record<Daemon, number>>): Promise<void> {
  const order: Daemon[] = ['rgw', 'osd', 'mon'];
  const live = order.filter((d) => pids[d] && daemonAlive(pids[d]!, d));
  for (const d of live) process.kill(pids[d]!, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && live.some((d) => daemonAlive(pids[d]!, d))) await sleep(100);
  for (const d of live) if (daemonAlive(pids[d]!, d)) process.kill(pids[d]!, 'SIGKILL');
}

async function httpUp(endpoint: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await fetch(endpoint, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.status < 500;
  } catch {
    return false;
  }
}

/** The shared server from the state file when all three daemons live and RGW answers; else null. */
export async function readHealthyRgw(stateFile = RGW_STATE_FILE): Promise<RgwState | null> {
  let state: RgwState;
  try {
    state = JSON.parse(await readFile(stateFile, 'utf8')) as RgwState;
  } catch {
    return null;
  }
  const alive = (Object.keys(DAEMONS) as Daemon[]).every((d) => daemonAlive(state.pids?.[d], d));
  return alive && (await httpUp(state.endpoint)) ? state : null;
}

export interface StartOptions {
  /** Cluster directory (created; removed by stop). Default: a new temp dir. */
  dir?: string;
  /** Daemons outlive this process (for the `start` command). */
  detached?: boolean;
  log?: (line: string) => void;
}

export async function startRgw(opts: StartOptions = {}): Promise<RgwServer> {
  const missing = missingRgwBinaries();
  if (missing.length) throw new Error(`rgw: missing ${missing.join(', ')}; install them with: ${RGW_APT_COMMAND}`);
  const log = opts.log ?? (() => {});
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'store-doctor-rgw-')));
  for (const sub of ['run', 'log', 'mon', 'osd/ceph-0', 'rgw']) mkdirSync(join(dir, sub), { recursive: true });
  const conf = join(dir, 'ceph.conf');
  const ports = await pickPorts();
  const fsid = randomUUID();
  await writeFile(conf, cephConf(dir, fsid, ports));
  const children: Partial<Record<Daemon, ChildProcess>> = {};
  const pids: Partial<Record<Daemon, number>> = {};
  const c = ['-c', conf];
  const t0 = Date.now();

  const launch = (d: Daemon, args: string[]) => {
    const out = openSync(join(dir, 'log', `${d}.out`), 'a');
    const child = spawn(DAEMONS[d], [...c, ...args, '-f'], { detached: !!opts.detached, stdio: ['ignore', out, out] });
    closeSync(out);
    child.on('error', () => {});
    if (opts.detached) child.unref();
    children[d] = child;
    pids[d] = child.pid!;
  };
  const died = (): string | null => {
    for (const d of Object.keys(children) as Daemon[]) {
      const ch = children[d]!;
      if (ch.exitCode !== null || ch.signalCode !== null) {
        const logName = d === 'mon' ? 'mon.a' : d === 'osd' ? 'osd.0' : 'client.rgw.a';
        return `rgw: ${DAEMONS[d]} exited (${ch.exitCode ?? ch.signalCode}) during start\n${tail(join(dir, 'log', `${d}.out`))}\n${tail(join(dir, 'log', `${logName}.log`))}`;
      }
    }
    return null;
  };
  const waitFor = async (what: string, timeoutMs: number, check: () => Promise<boolean>) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const dead = died();
      if (dead) throw new Error(dead);
      if (await check().catch(() => false)) return;
      if (Date.now() > deadline) throw new Error(`rgw: timed out after ${timeoutMs / 1000}s waiting for ${what} (dir ${dir})`);
      await sleep(250);
    }
  };

  const cleanup = async () => {
    await stopPids(pids);
    if (!process.env.STORE_DOCTOR_RGW_KEEP) await rm(dir, { recursive: true, force: true });
  };
  const onExit = () => {
    for (const [d, pid] of Object.entries(pids)) if (daemonAlive(pid, d as Daemon)) process.kill(pid, 'SIGTERM');
  };
  if (!opts.detached) process.on('exit', onExit);

  try {
    const monmap = join(dir, 'monmap');
    await run('monmaptool', ['--create', '--clobber', '--fsid', fsid, '--addv', 'a', `[v2:127.0.0.1:${ports.mon}]`, monmap]);
    await run('ceph-mon', [...c, '--mkfs', '-i', 'a', '--monmap', monmap]);
    launch('mon', ['-i', 'a']);
    await waitFor('the monitor', 30_000, async () => (await run('ceph', [...c, '--connect-timeout', '3', 'mon', 'stat'], 10_000), true));
    log(`rgw: monitor up (${Date.now() - t0} ms)`);
    const osdUuid = randomUUID();
    const osdId = (await run('ceph', [...c, 'osd', 'new', osdUuid])).trim();
    if (osdId !== '0') throw new Error(`rgw: expected osd id 0, got "${osdId}"`);
    await run('ceph-osd', [...c, '-i', '0', '--mkfs', '--osd-uuid', osdUuid], 120_000);
    launch('osd', ['-i', '0']);
    await waitFor('the OSD to be up', 60_000, async () => {
      const st = JSON.parse(await run('ceph', [...c, '--connect-timeout', '3', 'osd', 'stat', '-f', 'json'], 10_000));
      return (st.num_up_osds ?? st.osdmap?.num_up_osds) === 1;
    });
    log(`rgw: osd up (${Date.now() - t0} ms)`);
    const user = { accessKeyId: `SDTEST${randomBytes(7).toString('hex').toUpperCase()}`, secretAccessKey: randomBytes(20).toString('hex') };
    const other = { accessKeyId: `SDOTHER${randomBytes(7).toString('hex').toUpperCase()}`, secretAccessKey: randomBytes(20).toString('hex') };
    for (const [uid, u] of [
      ['store-doctor', user],
      ['other', other],
    ] as const) {
      await run(
        'radosgw-admin',
        [...c, 'user', 'create', `--uid=${uid}`, `--display-name=${uid}`, `--access-key=${u.accessKeyId}`, `--secret=${u.secretAccessKey}`],
        120_000,
      );
    }
    launch('rgw', ['-n', 'client.rgw.a']);
    const endpoint = `http://127.0.0.1:${ports.rgw}`;
    await waitFor('radosgw to answer HTTP', 60_000, () => httpUp(endpoint));
    log(`rgw: radosgw up at ${endpoint} (${Date.now() - t0} ms)`);
    const state: RgwState = {
      dir,
      endpoint,
      region: 'us-east-1',
      accessKeyId: user.accessKeyId,
      secretAccessKey: user.secretAccessKey,
      otherAccessKeyId: other.accessKeyId,
      otherSecretAccessKey: other.secretAccessKey,
      pids: pids as Record<Daemon, number>,
      startedAt: new Date().toISOString(),
    };
    await warmUp(state);
    log(`rgw: warmed up (${Date.now() - t0} ms)`);
    writeFileSync(join(dir, 'state.json'), JSON.stringify(state, null, 2));
    return {
      ...state,
      stop: async () => {
        process.off('exit', onExit);
        await stopPids(pids);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    process.off('exit', onExit);
    await cleanup();
    throw err;
  }
}

/** First CreateBucket and PUT take seconds while RGW creates its pools: do them once here. */
async function warmUp(s: RgwState): Promise<void> {
  const client = new S3Client({
    endpoint: s.endpoint,
    region: s.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: 'warmup' }));
    await client.send(new PutObjectCommand({ Bucket: 'warmup', Key: 'warmup', Body: 'ok' }));
  } finally {
    client.destroy();
  }
}

// ───────────── CLI: npx tsx test/support/rgw.ts start|stop|status ─────────────

async function cli(cmd: string | undefined): Promise<number> {
  const running = await readHealthyRgw();
  if (cmd === 'status') {
    console.log(running ? JSON.stringify({ ...running, secretAccessKey: '…', otherSecretAccessKey: '…' }, null, 2) : 'rgw: not running');
    return running ? 0 : 1;
  }
  if (cmd === 'start') {
    if (running) {
      console.log(`rgw: already running at ${running.endpoint} (state ${RGW_STATE_FILE})`);
      return 0;
    }
    await stopFromStateFile(); // a stale or half-dead server
    mkdirSync(RGW_HOME, { recursive: true });
    const lock = join(RGW_HOME, '.starting');
    try {
      mkdirSync(lock);
    } catch {
      throw new Error(`rgw: another start is in progress (remove ${lock} if not)`);
    }
    try {
      const server = await startRgw({ dir: join(RGW_HOME, 'cluster'), detached: true, log: (l) => console.log(l) });
      const { stop: _stop, ...state } = server;
      writeFileSync(RGW_STATE_FILE, JSON.stringify(state, null, 2));
      console.log(`rgw: running at ${state.endpoint}; state in ${RGW_STATE_FILE}; stop with: npx tsx test/support/rgw.ts stop`);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    return 0;
  }
  if (cmd === 'stop') {
    const stopped = await stopFromStateFile();
    console.log(stopped ? 'rgw: stopped' : 'rgw: nothing to stop');
    return 0;
  }
  console.error('usage: npx tsx test/support/rgw.ts start|stop|status');
  return 2;
}

async function stopFromStateFile(): Promise<boolean> {
  let state: RgwState;
  try {
    state = JSON.parse(readFileSync(RGW_STATE_FILE, 'utf8')) as RgwState;
  } catch {
    return false;
  }
  await stopPids(state.pids ?? {});
  if (state.dir) rmSync(state.dir, { recursive: true, force: true });
  rmSync(RGW_STATE_FILE, { force: true });
  return true;
}

if (/[\\/]rgw\.ts$/.test(process.argv[1] ?? '')) {
  cli(process.argv[2]).then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
