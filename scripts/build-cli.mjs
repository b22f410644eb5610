#!/usr/bin/env node
// Compiles the CLI (TypeScript stays the source) with esbuild. `npm run build:cli`; `npm install`
// runs it as the prepare step.
//
//   out/cli/store-doctor.cjs  the entry (bin): --version, --help, completion from the command
//                             line's shape baked in here; nothing else loaded for them
//   out/cli/cli.cjs           the real program (commands, engine, host), loaded for any command
//   out/cli/scan-worker.js    the scan worker thread (found next to cli.cjs)
//   out/cli/vendor/*.cjs      commander, zod, yaml, the AWS SDK: each loaded the first time it is
//                             required (the SDK only by electron/engine/s3/sdk.ts, when a command
//                             reaches S3); every other npm package is bundled into cli.cjs
// So out/cli needs no node_modules: the npm package has no dependencies to install.
//
// `--sea`: one self-contained script for the single executable instead (scripts/package-cli.mjs):
//   out/sea/store-doctor.cjs  entry + real program + every npm package (loaded lazily)
//   out/sea/scan-worker.js    the worker as a plain script, embedded as an asset
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  // Readable output instead of source maps: a stack trace names the real functions.
  minify: false,
};

/** Nothing of the UI may end up in the CLI. */
function checkInputs(metafile, what, forbidden) {
  const bad = Object.keys(metafile.inputs).filter((f) => forbidden.some((re) => re.test(f)));
  if (bad.length) throw new Error(`${what} must not contain ${bad.slice(0, 5).join(', ')}`);
}

const NO_UI = [/(^|\/)renderer\//, /node_modules\/(react|react-dom|zustand|uplot|@tanstack)\//, /(^|\/)electron\/main\//];

/** The entry's require('./main') → the separate file ./cli.cjs (npm package). */
const mainAsFile = {
  name: 'main-as-file',
  setup(build) {
    build.onResolve({ filter: /^\.\/main$/ }, (args) =>
      args.importer.endsWith(path.join('electron', 'cli', 'entry.ts')) ? { path: './cli.cjs', external: true } : undefined,
    );
  },
};

/**
 * The big npm packages, each bundled once into its own file under vendor/ and loaded the first
 * time it is required: a scan never parses zod, YAML or the AWS SDK. The rest (commander aside,
 * which the entry shares) is small and bundled into cli.cjs. So the package needs no
 * node_modules at all.
 */
const VENDOR = {
  commander: ['commander'],
  'cli-progress': ['cli-progress'],
  zod: ['zod'],
  yaml: ['yaml'],
  'aws-sdk': ['@aws-sdk/client-s3', '@aws-sdk/credential-providers', '@smithy/core/config'],
  'prom-client': ['prom-client'],
};
const VENDOR_OF = new Map(Object.entries(VENDOR).flatMap(([file, specs]) => specs.map((s) => [s, file])));

const vendorFiles = {
  name: 'vendor-files',
  setup(build) {
    const filter = new RegExp(`^(${[...VENDOR_OF.keys()].map((k) => k.replace(/[/.@-]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'vendor' }));
    build.onResolve({ filter: /^\.\/vendor\// }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(`./vendor/${VENDOR_OF.get(args.path)}.cjs`)})[${JSON.stringify(args.path)}];`,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

async function buildVendor(outDir) {
  for (const [file, specs] of Object.entries(VENDOR)) {
    await esbuild.build({
      ...common,
      stdin: {
        contents: `module.exports = { ${specs.map((s) => `${JSON.stringify(s)}: require(${JSON.stringify(s)})`).join(', ')} };`,
        resolveDir: root,
        loader: 'js',
      },
      outfile: path.join(outDir, 'vendor', `${file}.cjs`),
    });
  }
}

/** The git commit being built (with `-dirty` when the work tree has changes); null outside git. */
function buildCommit() {
  const git = (args) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  const head = git(['rev-parse', 'HEAD']);
  if (head.status !== 0) return null;
  const dirty = git(['status', '--porcelain', '--untracked-files=no']).stdout.trim() !== '';
  return `${head.stdout.trim()}${dirty ? '-dirty' : ''}`;
}

async function buildEntry(outfile, spec, extra) {
  const r = await esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'electron/cli/entry.ts')],
    outfile,
    banner: { js: '#!/usr/bin/env node' },
    define: { __STORE_DOCTOR_SPEC__: JSON.stringify(spec), __STORE_DOCTOR_COMMIT__: JSON.stringify(buildCommit()) },
    ...extra,
  });
  fs.chmodSync(outfile, 0o755);
  return r;
}

/** The real program (cli.cjs + vendor/) into `outDir`, and its shape (loaded from what was built). */
async function buildProgramFiles(outDir) {
  await buildVendor(outDir);
  const cliFile = path.join(outDir, 'cli.cjs');
  const cli = await esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'electron/cli/main.ts')],
    outfile: cliFile,
    plugins: [vendorFiles],
    define: { __STORE_DOCTOR_COMMIT__: JSON.stringify(buildCommit()) },
  });
  checkInputs(cli.metafile, 'the CLI', NO_UI);
  delete require.cache[cliFile];
  return require(cliFile).programSpec();
}

export async function buildCli({ sea = false, quiet = false } = {}) {
  const started = Date.now();
  const outDir = path.join(root, sea ? 'out/sea' : 'out/cli');
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });

  // The worker: only Node built-ins and engine code. A plain script for the single executable
  // (run from a string with `new Worker(code, { eval: true })`).
  const worker = await esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'electron/engine/store/scan-worker.ts')],
    outfile: path.join(outDir, 'scan-worker.js'),
    format: sea ? 'iife' : 'cjs',
    packages: 'external',
  });
  const workerPkgs = Object.keys(worker.metafile.inputs).filter((f) => f.includes('node_modules/'));
  if (workerPkgs.length) throw new Error(`the scan worker must need no npm package: ${workerPkgs.join(', ')}`);

  const entryFile = path.join(outDir, 'store-doctor.cjs');
  let spec;
  if (sea) {
    // One script with everything; the shape comes from a throw-away build of the split files.
    const tmp = fs.mkdtempSync(path.join(root, 'out', '.cli-spec-'));
    try {
      spec = await buildProgramFiles(tmp);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    const entry = await buildEntry(entryFile, spec, {});
    checkInputs(entry.metafile, 'the single-executable script', NO_UI);
  } else {
    spec = await buildProgramFiles(outDir);
    const entry = await buildEntry(entryFile, spec, { plugins: [mainAsFile, vendorFiles] });
    // --version / --help / completion must not parse the engine, the host or the SDK.
    checkInputs(entry.metafile, 'the entry', [/(^|\/)electron\/(engine|host)\//, /node_modules\//, ...NO_UI]);
  }
  const files = fs.readdirSync(outDir, { recursive: true }).filter((f) => /\.(c?js)$/.test(f));
  const summary = files.map((f) => `${f} ${(fs.statSync(path.join(outDir, f)).size / 1024).toFixed(0)} KiB`).join(', ');
  if (!quiet) process.stdout.write(`built ${path.relative(root, outDir)}/: ${summary} (${Date.now() - started} ms)\n`);
  return { outDir, spec };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildCli({ sea: process.argv.includes('--sea') }).catch((err) => {
    process.stderr.write(`build-cli: ${err.message}\n`);
    process.exit(1);
  });
}
