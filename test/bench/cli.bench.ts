/**
 * `npm run bench:cli` (not part of CI): how fast the compiled CLI starts, against a bare
 * `node -e 0` measured in the same run — the least any Node program can take here. Builds
 * out/cli first, then runs, interleaved over BENCH_ROUNDS rounds (default 15, after one warm-up):
 *   node -e 0
 *   store-doctor --version                                       target ≤ 2 × node -e 0
 *   store-doctor scan <small real archive> --json                target ≤ 4 × node -e 0
 * each as a whole process started like the installed bin (node bin/store-doctor.cjs …), and the
 * peak RSS of `store-doctor --version` (GNU time; target ≤ 60 MB). Prints medians, ratios and
 * PASS/FAIL; exits 1 when a target fails.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/store-doctor.cjs');
const ARCHIVE = path.join(ROOT, 'test/fixtures/fluent-bit-real/index-reset/store-after-run2.tar.gz');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);

const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-cli.mjs')], { encoding: 'utf8' });
if (build.status !== 0) throw new Error(`build-cli failed: ${build.stderr}`);
process.stdout.write(build.stdout);

const commands = {
  node: [process.execPath, '-e', '0'],
  version: [process.execPath, BIN, '--version'],
  scan: [process.execPath, BIN, 'scan', ARCHIVE, '--json'],
} as const;
type Name = keyof typeof commands;

/** Wall seconds of one whole process, from spawn to exit; its output goes to /dev/null. */
function wall(argv: readonly string[]): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { stdio: 'ignore' });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}`);
  return s;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const times: Record<Name, number[]> = { node: [], version: [], scan: [] };
const names = Object.keys(commands) as Name[];
for (const n of names) wall(commands[n]); // warm-up: file cache, code cache of the OS
for (let i = 0; i < ROUNDS; i++) for (const n of names) times[n].push(wall(commands[n]));

/** Peak RSS (MB) of a whole process, from GNU time's %M (KiB); null without GNU time. */
function peakRssMb(argv: readonly string[]): number | null {
  if (!fs.existsSync('/usr/bin/time')) return null;
  const rss: number[] = [];
  for (let i = 0; i < 5; i++) {
    const r = spawnSync('/usr/bin/time', ['-f', '%M', ...argv], { encoding: 'utf8' });
    const kib = Number(r.stderr.trim().split('\n').pop());
    if (r.status !== 0 || !Number.isFinite(kib)) return null;
    rss.push(kib / 1024);
  }
  return median(rss);
}

const base = median(times.node);
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
const spread = (n: Name) => `(min ${ms(Math.min(...times[n]))}, max ${ms(Math.max(...times[n]))})`;
let failed = 0;
const verdict = (ok: boolean) => (ok ? 'PASS' : (failed++, 'FAIL'));

console.log(`\nstore-doctor startup, ${ROUNDS} rounds, medians; Node ${process.version}`);
console.log(`  node -e 0                          ${ms(base)} ${spread('node')}`);
for (const [n, label, target] of [
  ['version', 'store-doctor --version', 2],
  ['scan', 'store-doctor scan <archive> --json', 4],
] as const) {
  const m = median(times[n]);
  const ratio = m / base;
  console.log(`  ${label.padEnd(34)} ${ms(m)} ${spread(n)}  ${ratio.toFixed(2)}× node -e 0 (target ≤ ${target}×)  ${verdict(ratio <= target)}`);
}
const rss = peakRssMb(commands.version);
const nodeRss = peakRssMb(commands.node);
if (rss === null) console.log('  peak RSS of --version: not measured (needs GNU time at /usr/bin/time)');
else console.log(`  peak RSS of --version              ${rss.toFixed(1)} MB (node -e 0: ${nodeRss?.toFixed(1)} MB; target ≤ 60 MB)  ${verdict(rss <= 60)}`);
process.exitCode = failed ? 1 : 0;
