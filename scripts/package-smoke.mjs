#!/usr/bin/env node
// Offline packaging smoke test: build the app, package it for Linux as a directory with
// electron-builder against a stub Electron dist (the real binary cannot be downloaded here),
// then check that app.asar holds what the app needs and nothing secret or test-only.
// Usage: node scripts/package-smoke.mjs [--no-build] [--keep]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const args = new Set(process.argv.slice(2));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-package-smoke-'));
const results = [];
const check = (name, ok, detail = '') => {
  results.push({ name, ok });
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}\n`);
};

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { cwd: root, encoding: 'utf8', env: { ...process.env, ...opts.env } });
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    throw new Error(`${path.basename(cmd)} ${argv.join(' ')} failed (exit ${r.status})`);
  }
  return r;
}

try {
  const started = Date.now();
  if (!args.has('--no-build')) run(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build']);
  for (const f of ['out/main/index.js', 'out/preload/index.js', 'out/renderer/index.html']) {
    if (!fs.existsSync(path.join(root, f))) throw new Error(`${f} is missing: run npm run build`);
  }

  // A stub Electron dist: the files electron-builder copies and renames for Linux.
  const stub = path.join(work, 'electron-dist');
  fs.mkdirSync(path.join(stub, 'resources'), { recursive: true });
  // With a fuse wire as real Electron binaries hold one (sentinel, version 1, 8 fuses at Electron's
  // defaults), so electron-builder's electronFuses are really flipped and can be read back below.
  const fusesDir = { paths: [path.dirname(require.resolve('app-builder-lib/package.json'))] };
  const { SENTINEL, FuseState } = require(require.resolve('@electron/fuses/dist/constants', fusesDir));
  const defaults = [
    FuseState.ENABLE,
    FuseState.DISABLE,
    FuseState.ENABLE,
    FuseState.ENABLE,
    FuseState.DISABLE,
    FuseState.DISABLE,
    FuseState.DISABLE,
    FuseState.ENABLE,
  ];
  const wire = Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stub electron"\nexit 0\n# '),
    Buffer.from(SENTINEL),
    Buffer.from([1, defaults.length, ...defaults]),
    Buffer.from('\n'),
  ]);
  fs.writeFileSync(path.join(stub, 'electron'), wire, { mode: 0o755 });
  fs.writeFileSync(path.join(stub, 'LICENSE'), 'stub');
  fs.writeFileSync(path.join(stub, 'LICENSES.chromium.html'), 'stub');
  fs.writeFileSync(path.join(stub, 'version'), require('electron/package.json').version);

  const outDir = path.join(work, 'dist');
  const builderCli = path.join(path.dirname(require.resolve('electron-builder/package.json')), 'cli.js');
  run(process.execPath, [builderCli, '--linux', 'dir', '--publish', 'never', `-c.electronDist=${stub}`, `-c.directories.output=${outDir}`], {
    env: { ELECTRON_BUILDER_OFFLINE: 'true', CSC_IDENTITY_AUTO_DISCOVERY: 'false' },
  });
  const resources = path.join(outDir, 'linux-unpacked', 'resources');
  const asarFile = path.join(resources, 'app.asar');
  check('electron-builder wrote resources/app.asar', fs.existsSync(asarFile));

  const asar = require(require.resolve('@electron/asar', { paths: [path.dirname(require.resolve('electron-builder/package.json')), root] }));
  const files = asar.listPackage(asarFile).map((f) => f.replace(/\\/g, '/'));
  const has = (p) => files.includes(p);
  for (const p of ['/package.json', '/out/main/index.js', '/out/preload/index.js', '/out/renderer/index.html']) check(`asar holds ${p}`, has(p));
  check(
    'asar holds the built renderer assets',
    files.some((f) => /^\/out\/renderer\/assets\/.+\.js$/.test(f)),
  );
  // Every package the main bundle requires at run time must be inside.
  const mainJs = fs.readFileSync(path.join(root, 'out/main/index.js'), 'utf8');
  const needed = [...new Set([...mainJs.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]))].filter(
    (m) => !m.startsWith('node:') && m !== 'electron' && !m.startsWith('.'),
  );
  for (const dep of needed) check(`asar holds dependency ${dep}`, has(`/node_modules/${dep}/package.json`));
  check('main bundle requires at least the store dependencies', needed.includes('tar-stream') && needed.includes('chokidar'));

  const forbidden = [
    [/^\/test\//, 'tests'],
    [/fixtures\//, 'fixtures'],
    [/\/\.env(\.|$)/, '.env files'],
    [/\.(pem|key)$/, 'keys'],
    [/\/\.aws\//, 'AWS config'],
    [/^\/(electron|renderer\/src|shared|scripts)\//, 'sources'],
    [/\.tsx?$/, 'TypeScript sources'],
    [/\.map$/, 'source maps'],
    [/^\/node_modules\/(tsx|esbuild|@esbuild|vitest|electron|electron-builder|playwright-core|typescript)\//, 'dev tools'],
    [/^\/demo\//, 'demo inside the asar (it belongs in resources/demo)'],
  ];
  for (const [re, what] of forbidden) {
    const bad = files.filter((f) => re.test(f));
    check(`asar holds no ${what}`, bad.length === 0, bad.slice(0, 3).join(', '));
  }
  // Nothing that looks like a credential in the app's own code.
  const secretRe = /(AKIA|ASIA)[A-Z0-9]{16}|-----BEGIN [A-Z ]*PRIVATE KEY-----|aws_secret_access_key\s*=\s*\S{16,}/;
  const leaks = files
    .filter((f) => f.startsWith('/out/') && /\.(js|html|css|json)$/.test(f))
    .filter((f) => secretRe.test(asar.extractFile(asarFile, f.slice(1)).toString('utf8')));
  check('no credentials in out/**', leaks.length === 0, leaks.join(', '));
  // Electron fuses (electron-builder.yml electronFuses): read back from the packaged binary.
  const fuses = require(require.resolve('@electron/fuses', fusesDir));
  const unpacked = path.join(outDir, 'linux-unpacked');
  const exe = fs.readdirSync(unpacked).find((f) => fs.statSync(path.join(unpacked, f)).isFile() && fs.readFileSync(path.join(unpacked, f)).includes(SENTINEL));
  const wireNow = exe ? await fuses.getCurrentFuseWire(path.join(unpacked, exe)) : null;
  const want = {
    RunAsNode: false,
    EnableCookieEncryption: true,
    EnableNodeOptionsEnvironmentVariable: false,
    EnableNodeCliInspectArguments: false,
    EnableEmbeddedAsarIntegrityValidation: true,
    OnlyLoadAppFromAsar: true,
    GrantFileProtocolExtraPrivileges: false,
  };
  for (const [name, on] of Object.entries(want)) {
    const state = wireNow?.[fuses.FuseV1Options[name]];
    check(
      `packaged binary: fuse ${name} ${on ? 'on' : 'off'}`,
      state === (on ? FuseState.ENABLE : FuseState.DISABLE),
      exe ? `state ${state}` : 'no binary with a fuse wire',
    );
  }
  const pkg = JSON.parse(asar.extractFile(asarFile, 'package.json').toString('utf8'));
  check('packaged package.json points at out/main/index.js', pkg.main === 'out/main/index.js');

  check(
    'demo store shipped as resources/demo',
    fs.existsSync(path.join(resources, 'demo', 'demo.json')) && fs.readdirSync(path.join(resources, 'demo')).some((f) => f.endsWith('.tar.gz')),
  );
  process.stdout.write(`(${files.length} asar entries, ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
} catch (e) {
  check('packaging', false, e.message);
} finally {
  if (!args.has('--keep')) fs.rmSync(work, { recursive: true, force: true });
  else process.stdout.write(`kept ${work}\n`);
}
const failed = results.filter((r) => !r.ok).length;
process.stdout.write(`package smoke: ${results.length - failed} passed, ${failed} failed\n`);
process.exit(failed ? 1 : 0);
