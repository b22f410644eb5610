#!/usr/bin/env node
// Offline packaging smoke test (`npm run package:smoke`): build the app, run `npm run package:linux`
// (tar.gz by electron-builder, .deb by dpkg-deb; a stub Electron where the real binary cannot be
// downloaded), then check that app.asar holds what the app needs and nothing secret or test-only,
// the fuses of the packaged binary, and the .deb (control fields, file list, desktop entry, icons).
// Usage: node scripts/package-smoke.mjs [--no-build] [--keep]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { fusesLib } from './electron-dist.mjs';
import { packageLinux } from './package-linux.mjs';
import { checkDebPackage } from './package-smoke-deb.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkgJson = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
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

function checkDeb(deb, asarFile, fuseLib) {
  return checkDebPackage({ deb, asarFile, work, check, run, fuseLib, want: WANT_FUSES });
}

const WANT_FUSES = {
  RunAsNode: false,
  EnableCookieEncryption: true,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  GrantFileProtocolExtraPrivileges: false,
};

try {
  const started = Date.now();
  if (!args.has('--no-build')) run(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build']);
  for (const f of ['out/main/index.js', 'out/preload/index.js', 'out/renderer/index.html']) {
    if (!fs.existsSync(path.join(root, f))) throw new Error(`${f} is missing: run npm run build`);
  }

  // npm run package:linux: the tar.gz (electron-builder) and the .deb (dpkg-deb), a stub Electron
  // where the real binary cannot be downloaded (its fuse wire is real, so the fuses are checked).
  const { SENTINEL, FuseState, fuses } = fusesLib();
  const outDir = path.join(work, 'dist');
  const built = packageLinux({ build: false, outDir, quiet: true });
  check(
    `package:linux built the tar.gz and the .deb${built.stub ? ' (stub Electron: the real one cannot be downloaded here)' : ''}`,
    fs.existsSync(built.tarGz) && fs.existsSync(built.deb),
  );
  const fromTar = path.join(work, 'tar');
  fs.mkdirSync(fromTar);
  run('tar', ['-xzf', built.tarGz, '-C', fromTar]);
  const top = fs.readdirSync(fromTar);
  check(
    'the tar.gz holds one folder store-doctor-<version>-linux-x64',
    top.length === 1 && top[0] === `store-doctor-${pkgJson.version}-linux-x64`,
    top.join(', '),
  );
  const unpacked = path.join(fromTar, top[0]);
  const resources = path.join(unpacked, 'resources');
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
  check('main bundle requires at least the store dependencies', needed.includes('tar-stream'));

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
  const exe = fs.readdirSync(unpacked).find((f) => fs.statSync(path.join(unpacked, f)).isFile() && fs.readFileSync(path.join(unpacked, f)).includes(SENTINEL));
  const wireNow = exe ? await fuses.getCurrentFuseWire(path.join(unpacked, exe)) : null;
  for (const [name, on] of Object.entries(WANT_FUSES)) {
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
  await checkDeb(built.deb, asarFile, { SENTINEL, FuseState, fuses });
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
