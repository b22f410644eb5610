/**
 * `npm run bench:ui`, part 0: opening a 100,000-chunk store in the app against the CLI's scan of the
 * same store, both measured in the same run with the compiled CLI (out/cli):
 *   app open  `store-doctor serve <store>` started → the URL printed → Chromium loads it → the
 *             Overview (heading and storage picture) painted
 *   CLI scan  `store-doctor scan <store> --json > /dev/null`, start to exit
 * Warm page cache; the rounds alternate and the best of each is compared (target ≤ 1.5×). The store
 * is bench:scan's (test/bench/bench-store.ts), made once under os.tmpdir().
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { newPage } from '../e2e/support/browser';

const ROOT = path.join(__dirname, '..', '..');
const ENTRY = path.join(ROOT, 'out', 'cli', 'store-doctor.cjs');

function cliScan(store: string): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [ENTRY, '--quiet', 'scan', store, '--json'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0 && r.status !== 4 && r.status !== 3) throw new Error(`scan exited ${r.status}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function appOpen(browser: Browser, store: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, [ENTRY, 'serve', store], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const line = /^(http:\/\/127\.0\.0\.1:\d+\/\S*)\n/m.exec(out);
        if (line) resolve(line[1]);
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code} before printing its URL`)));
    });
    const { page } = await newPage(browser);
    await page.goto(url);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByTestId('storage').waitFor();
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    await page.context().close();
    return ms;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  }
}

export async function benchAppOpen(
  browser: Browser,
  store: string,
  rounds = Number(process.env.BENCH_ROUNDS ?? 3),
): Promise<{ open: number; scan: number; ratio: number }> {
  if (!fs.existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: npm run build:cli`);
  cliScan(store); // warm the page cache
  let open = Infinity;
  let scan = Infinity;
  const opens: number[] = [];
  const scans: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const s = cliScan(store);
    const o = await appOpen(browser, store);
    scans.push(s);
    opens.push(o);
    scan = Math.min(scan, s);
    open = Math.min(open, o);
  }
  const ratio = open / scan;
  console.log(
    `0. app open (serve → Overview painted): ${open.toFixed(0)} ms (${opens.map((x) => x.toFixed(0)).join(', ')})  vs CLI scan ${scan.toFixed(0)} ms (${scans.map((x) => x.toFixed(0)).join(', ')}): ratio ${ratio.toFixed(2)}× (target ≤ 1.5×) ${ratio <= 1.5 ? 'PASS' : 'FAIL'}`,
  );
  return { open, scan, ratio };
}
