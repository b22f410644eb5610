/**
 * The npm package as an operator gets it: `npm pack` in this checkout (prepack builds the UI and
 * the CLI), then `npm install -g <tarball> --offline` into an empty prefix with an EMPTY npm
 * cache — no registry, nothing cached — and every command from that install, outside the
 * checkout and with no node_modules anywhere above it: scan, diagnose, repair-index (plan) on an
 * extracted real Fluent Bit store, serve (the built UI, token required).
 *
 * Runs as its own step of `npm test` (vitest.package.config.mts), not beside the unit tests:
 * prepack rebuilds out/cli and out/renderer, which those tests use.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCommands, checkServe, extractRealStore, ROOT, startServe, stop, type RealStore, type Run } from './support';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-npm-pack-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface PackedFile {
  path: string;
  size: number;
}
let packed: { filename: string; size: number; unpackedSize: number; files: PackedFile[] };
let manifest: Record<string, unknown>;
let bin: string;
let env: NodeJS.ProcessEnv;
let real: RealStore;
const pkgBefore = fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8');

beforeAll(() => {
  const r = spawnSync('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
  if (r.status !== 0) throw new Error(`npm pack failed (${r.status}): ${r.stderr}`);
  // lifecycle scripts print before npm's JSON
  packed = JSON.parse(r.stdout.slice(r.stdout.search(/^\[/m)))[0];
  const list = packed.files.map((f) => `  ${String(f.size).padStart(9)}  ${f.path}`).join('\n');
  console.log(
    `${packed.filename}: ${(packed.size / 1024).toFixed(0)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked, ${packed.files.length} files\n${list}`,
  );

  const prefix = path.join(tmp, 'prefix');
  const cache = path.join(tmp, 'empty-cache');
  fs.mkdirSync(prefix);
  fs.mkdirSync(cache);
  const install = spawnSync(
    'npm',
    ['install', '-g', '--offline', '--no-audit', '--no-fund', '--cache', cache, '--prefix', prefix, path.join(tmp, packed.filename)],
    { cwd: tmp, encoding: 'utf8', timeout: 120_000 },
  );
  if (install.status !== 0) throw new Error(`npm install -g --offline failed (${install.status}): ${install.stderr}`);
  bin = path.join(prefix, 'bin', 'store-doctor');
  manifest = JSON.parse(fs.readFileSync(path.join(prefix, 'lib/node_modules/store-doctor/package.json'), 'utf8'));
  // Only node itself on PATH; no NODE_PATH; HOME in the temp folder (recent stores, state).
  env = { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: path.join(tmp, 'home'), LANG: 'C.UTF-8' };
  real = extractRealStore(path.join(tmp, 'real'));
}, 300_000);

const run = (args: string[]): Run => {
  const r = spawnSync(bin, args, { cwd: tmp, env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('npm pack', () => {
  it('leaves package.json exactly as it was', () => {
    expect(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).toBe(pkgBefore);
    expect(fs.existsSync(path.join(ROOT, '.package.json.orig'))).toBe(false);
  });

  it('packs the compiled CLI, the built UI and the demo store — no sources, tests, fixtures or source maps', () => {
    const files = packed.files.map((f) => f.path).sort();
    const ui = files.filter((f) => f.startsWith('out/renderer/'));
    expect(files.filter((f) => !f.startsWith('out/renderer/'))).toEqual([
      'README.md',
      'bin/store-doctor.cjs',
      'demo/demo.json',
      'demo/fluent-bit.conf',
      'demo/s3api-list-objects-v2-after-run2.json',
      'demo/store-during-run2.tar.gz',
      'out/cli/cli.cjs',
      'out/cli/scan-worker.js',
      'out/cli/store-doctor.cjs',
      'out/cli/vendor/aws-sdk.cjs',
      'out/cli/vendor/cli-progress.cjs',
      'out/cli/vendor/commander.cjs',
      'out/cli/vendor/prom-client.cjs',
      'out/cli/vendor/yaml.cjs',
      'out/cli/vendor/zod.cjs',
      'package.json',
    ]);
    expect(ui).toContain('out/renderer/index.html');
    expect(ui.every((f) => /^out\/renderer\/(index\.html|assets\/[\w.-]+\.(js|css))$/.test(f))).toBe(true);
    expect(packed.size).toBeLessThan(2 * 1024 * 1024);
  });

  it('declares nothing to install or run at install time', () => {
    // author and homepage: the desktop packages need them (issue 22); neither installs or runs anything
    expect(Object.keys(manifest).sort()).toEqual(['author', 'bin', 'description', 'engines', 'files', 'homepage', 'license', 'name', 'private', 'version']);
    expect(manifest.version).toBe(JSON.parse(pkgBefore).version);
  });
});

describe('the installed store-doctor (offline, empty cache, outside the checkout)', () => {
  it('has no node_modules: no tsx, vitest, Electron or other package to load', () => {
    const installed = path.dirname(fs.realpathSync(path.join(path.dirname(bin), '..', 'lib/node_modules/store-doctor/package.json')));
    expect(fs.existsSync(path.join(installed, 'node_modules'))).toBe(false);
    expect(fs.realpathSync(bin).startsWith(installed)).toBe(true);
    expect(installed.startsWith(ROOT)).toBe(false);
  });

  it('--version, --help and completion', () => {
    expect(run(['--version'])).toEqual({ status: 0, stdout: `${manifest.version}\n`, stderr: '' });
    expect(run(['--help']).stdout).toMatch(/^Usage: store-doctor \[options\] \[command\]/);
    expect(run(['completion', 'bash']).stdout).toContain('complete -o filenames -o bashdefault -F _store_doctor store-doctor');
  });

  it('scan, diagnose and repair-index (plan) on a real Fluent Bit store', () => {
    checkCommands(run, real);
  });

  it('serve: the built UI from the package, only with the token', async () => {
    const { child, url } = await startServe(bin, ['serve', real.store], env);
    try {
      await checkServe(url);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });
});
