/**
 * The single executable (`npm run package:cli`, Node SEA) on a host without Node: built, copied
 * into an empty folder, and run with `env -i` and a PATH that has no node: --version, scan,
 * diagnose, repair-index (plan) on an extracted real Fluent Bit store, serve (the embedded UI,
 * token required; the embedded demo), and a folder scan big enough for the scan worker threads,
 * which in the executable run from the embedded worker code — same report as the npm CLI's.
 *
 * Runs as its own step of `npm test` (vitest.package.config.mts): the build takes ~15 s.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeChunk } from '../../electron/engine/chunk';
import { ScanPool } from '../../electron/engine/store/scan-pool';
import { runJob } from '../../electron/engine/store/scan-worker';
import { checkCommands, checkServe, extractRealStore, ROOT, startServe, stop, type RealStore, type Run } from './support';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-sea-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let exe: string;
let real: RealStore;
/** A PATH with the usual tools and no node. */
const noNode = path.join(tmp, 'path');
const env = () => ['-i', `PATH=${noNode}`, `HOME=${path.join(tmp, 'home')}`];

beforeAll(async () => {
  // @ts-expect-error -- a plain .mjs build script without type declarations
  const { packageCli } = (await import('../../scripts/package-cli.mjs')) as {
    packageCli: (o: { quiet: boolean }) => Promise<{ file: string; size: number; seconds: number }>;
  };
  const built = await packageCli({ quiet: true });
  console.log(`${path.relative(ROOT, built.file)}: ${(built.size / 1048576).toFixed(1)} MiB, built in ${built.seconds.toFixed(1)} s`);
  const dir = path.join(tmp, 'opt');
  fs.mkdirSync(dir);
  exe = path.join(dir, 'store-doctor');
  fs.copyFileSync(built.file, exe);
  fs.chmodSync(exe, 0o755);
  fs.mkdirSync(noNode);
  for (const tool of ['sh', 'ls', 'cat', 'tar', 'gzip']) {
    const at = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (at) fs.symlinkSync(at, path.join(noNode, tool));
  }
  real = extractRealStore(path.join(tmp, 'real'));
}, 300_000);

const run = (args: string[], extraEnv: string[] = []): Run => {
  const r = spawnSync('env', [...env(), ...extraEnv, exe, ...args], { cwd: tmp, encoding: 'utf8', timeout: 60_000, maxBuffer: 256 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('the single executable, with no node on PATH', () => {
  it('really has no node to fall back on', () => {
    const r = spawnSync('env', [...env(), 'sh', '-c', 'command -v node || echo none'], { encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('none');
  });

  it('--version and --help', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(run(['--version'])).toEqual({ status: 0, stdout: `${pkg.version}\n`, stderr: '' });
    expect(run(['diagnose', '--help']).stdout).toMatch(/^Usage: store-doctor diagnose \[options\] <store>/);
  });

  it('runs on the supported Node 24 LTS it embeds (not the Node that built it), and names it in version --json', async () => {
    const { NODE_RUNTIME } = await import('../../scripts/node-runtime.mjs');
    const r = run(['version', '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ node: NODE_RUNTIME.version, platform: 'linux-x64', commit: expect.stringMatching(/^[0-9a-f]{40}(-dirty)?$/) });
    expect(NODE_RUNTIME.version).toMatch(/^24\./);
  });

  it('scan, diagnose and repair-index (plan) on a real Fluent Bit store', () => {
    checkCommands(run, real);
  });

  it('serve: the embedded UI, only with the token; its temp folder is gone after it stops', async () => {
    const before = new Set(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('store-doctor-ui-')));
    const { child, url } = await startServe('env', [...env(), `TMPDIR=${tmp}`, exe, 'serve', real.store], {});
    const ui = fs.readdirSync(tmp).filter((f) => f.startsWith('store-doctor-ui-'));
    try {
      expect(ui).toHaveLength(1);
      expect(fs.statSync(path.join(tmp, ui[0])).mode & 0o777).toBe(0o700);
      await checkServe(url);
    } finally {
      expect(await stop(child)).toBe(0);
    }
    expect(fs.existsSync(path.join(tmp, ui[0]))).toBe(false);
    expect(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('store-doctor-ui-') && !before.has(f))).toEqual([]);
  });

  it('serve demo opens the embedded demo store', async () => {
    const { child, url } = await startServe('env', [...env(), `TMPDIR=${tmp}`, exe, 'serve', 'demo'], {});
    try {
      const page = await fetch(url);
      const cookie = page.headers.get('set-cookie')!.split(';')[0];
      const list = await fetch(new URL('/api/store.list', url.origin), {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, origin: url.origin },
        body: JSON.stringify({ input: {} }),
      });
      expect(list.status).toBe(200);
      expect(JSON.stringify(await list.json())).toMatch(/store-during-run2\.tar\.gz/);
    } finally {
      await stop(child);
    }
  });

  it('a folder store big enough for the worker threads: the same report as the npm CLI', () => {
    const store = path.join(tmp, 'many', 'bucket', '2026-01-01T00:00:00');
    fs.mkdirSync(store, { recursive: true });
    for (let i = 0; i < 5000; i++) fs.writeFileSync(path.join(store, `${1000 + i}-${i}.flb`), encodeChunk({ meta: `app.${i % 7}`, content: `{"i":${i}}\n` }));
    const root = path.join(tmp, 'many');
    const sea = run(['scan', root, '--json'], ['STORE_DOCTOR_SCAN_WORKERS=2']);
    expect(sea.stderr).toBe('');
    const npm = spawnSync(process.execPath, [path.join(ROOT, 'out/cli/store-doctor.cjs'), 'scan', root, '--json'], {
      encoding: 'utf8',
      env: { ...process.env, STORE_DOCTOR_SCAN_WORKERS: '0' },
      maxBuffer: 256 * 1024 * 1024,
    });
    expect(sea.status).toBe(npm.status);
    const { scannedAt: _a, ...report } = JSON.parse(sea.stdout);
    const { scannedAt: _b, ...expected } = JSON.parse(npm.stdout);
    expect(report.roots[0].totals.chunks).toBe(5000);
    expect(report).toEqual(expected);
  });

  it('the embedded worker code (out/sea/scan-worker.js) runs as a worker from a string, as in the executable', async () => {
    const file = path.join(tmp, 'w.flb');
    fs.writeFileSync(file, encodeChunk({ meta: 'app.web', content: '{"a":1}\n{"a":2}\n' }));
    const pool = new ScanPool(1, { source: fs.readFileSync(path.join(ROOT, 'out/sea/scan-worker.js'), 'utf8') });
    try {
      const job = { kind: 'data' as const, records: true, keep: 0, paths: [file] };
      expect(await pool.run(job)).toEqual(runJob(job));
      expect(pool.batches).toBe(1);
    } finally {
      pool.close();
    }
  });
});
