/**
 * UI benchmark (`npm run bench:ui`, not CI): a 100,000-chunk store shown in Chromium through the
 * loopback host. The engine is replaced by one that answers `store.open` with a synthetic
 * StoreReport of that size (test/e2e/support/synthetic.ts), so the numbers measure the UI only.
 * Prints: first paint of the chunk table, filter latency, and frame times while scrolling.
 * Targets: first paint < 1 s, filter < 100 ms, p95 frame ≤ 16 ms.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Engine, EngineHandlers } from '../../shared/contract';
import { startHost } from '../../electron/host';
import { launchChromium, newPage, PROJECT_ROOT, screenshot } from '../e2e/support/browser';
import { syntheticDiagnosis, syntheticReport } from '../e2e/support/synthetic';

// The functions passed to page.evaluate run in Chromium; this file is type-checked as Node code
// (no DOM lib), so the few DOM names they use are declared here, module-local.
interface El {
  textContent: string | null;
  scrollTop: number;
  value: string;
  options: { value: string }[];
  click(): void;
  getAttribute(name: string): string | null;
  dispatchEvent(e: Event): boolean;
  querySelector(sel: string): El | null;
  getBoundingClientRect(): unknown;
}
declare const document: { querySelector(sel: string): El | null; querySelectorAll(sel: string): ArrayLike<El> & Iterable<El> };
declare const HTMLSelectElement: { prototype: object };
declare function requestAnimationFrame(cb: (ts: number) => void): number;

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);

function benchEngine(): Engine {
  const report = syntheticReport(CHUNKS, 20);
  const diagnosis = syntheticDiagnosis();
  const notHere = async () => {
    throw new Error('not part of the UI benchmark');
  };
  const handlers = new Proxy({} as EngineHandlers, {
    get: (_t, name: string) => {
      switch (name) {
        case 'app.info':
          return async () => ({ version: 'bench', door: 'host', demoAvailable: false });
        case 'store.recent':
          return async () => ({ recent: [] });
        case 'store.open':
          return async () => ({ storeId: 'bench', report });
        case 'diagnose.run':
          return async () => diagnosis;
        default:
          return notHere;
      }
    },
  });
  return { handlers, onEvent: () => () => {}, isPathInOpenedStores: () => true, dispose: async () => {} };
}

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function main(): Promise<void> {
  // Build in a child process: vite's ESM build does not load through tsx's CommonJS path.
  execFileSync(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'vite'), ['build', '--config', 'vite.renderer.config.ts', '--logLevel', 'warn'], {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  const host = await startHost({ engine: benchEngine(), stateDir: undefined });
  const browser = await launchChromium();
  try {
    const { page, errors } = await newPage(browser);
    // tsx (esbuild keepNames) wraps functions passed to page.evaluate in __name(): define it in the page.
    await page.addInitScript('globalThis.__name = (f) => f;');
    await page.goto(host.url);
    await page.getByLabel('Path', { exact: true }).fill('/bench/store');
    const openStart = Date.now();
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const openMs = Date.now() - openStart;

    // 1. first paint of the table: click "Chunks" → first row on screen, measured in the page.
    const firstPaint = await page.evaluate(async () => {
      const nav = [...document.querySelectorAll('nav button')].find((b) => b.textContent?.startsWith('Chunks'))!;
      const t0 = performance.now();
      nav.click();
      await new Promise<void>((resolve) => {
        const check = () => (document.querySelector('[data-testid=chunk-row]') ? requestAnimationFrame(() => resolve()) : requestAnimationFrame(check));
        check();
      });
      return performance.now() - t0;
    });

    // 2. filter latency: status filter, stream filter, then back to all — until the count and rows are painted.
    const filters = await page.evaluate(async () => {
      const count = () => document.querySelector('[data-testid=chunk-count]')!.textContent;
      const selects = [...document.querySelectorAll('select')];
      const [stream, status] = [selects[0], selects[1]];
      const setter = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!;
      const change = async (el: El, value: string) => {
        const before = count();
        const t0 = performance.now();
        setter.call(el, value);
        el.dispatchEvent(new Event('change', { bubbles: true }));
        await new Promise<void>((resolve) => {
          const check = () => (count() !== before ? requestAnimationFrame(() => resolve()) : requestAnimationFrame(check));
          check();
        });
        return performance.now() - t0;
      };
      const out: Record<string, number> = {};
      out['status=crc-mismatch'] = await change(status, 'crc-mismatch');
      out['stream=<3rd>'] = await change(stream, stream.options[3].value);
      out['stream=all'] = await change(stream, '');
      out['status=all'] = await change(status, 'all');
      return out;
    });

    // Sort by size (100k rows) for completeness.
    const sortMs = await page.evaluate(async () => {
      const btn = [...document.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Size'))!;
      const first = () => document.querySelector('[data-testid=chunk-row]')?.getAttribute('data-path');
      const before = first();
      const t0 = performance.now();
      btn.click();
      await new Promise<void>((resolve) => {
        const check = () => (first() !== before ? requestAnimationFrame(() => resolve()) : requestAnimationFrame(check));
        check();
      });
      return performance.now() - t0;
    });

    // 3. scrolling: 300 frames, 120 px per frame. Work per frame = scroll → React commit → layout
    // (synchronous); interval = time between animation frames (display-bound at 60 Hz).
    const scroll = await page.evaluate(async () => {
      const el = document.querySelector('[data-testid=chunk-scroller]')!;
      const work: number[] = [];
      const intervals: number[] = [];
      let last = 0;
      for (let i = 0; i < 300; i++) {
        await new Promise<void>((resolve) =>
          requestAnimationFrame((ts) => {
            if (last) intervals.push(ts - last);
            last = ts;
            const t0 = performance.now();
            el.scrollTop += 120;
            el.dispatchEvent(new Event('scroll'));
            el.querySelector('[data-testid=chunk-row]')?.getBoundingClientRect();
            work.push(performance.now() - t0);
            resolve();
          }),
        );
      }
      return { work, intervals, rows: document.querySelectorAll('[data-testid=chunk-row]').length, top: el.scrollTop };
    });
    await screenshot(page, 'bench-chunks-100k');
    // Baseline: animation-frame interval of this headless Chromium with nothing happening.
    const idle = await page.evaluate(async () => {
      const out: number[] = [];
      let last = 0;
      for (let i = 0; i < 120; i++) {
        await new Promise<void>((resolve) =>
          requestAnimationFrame((ts) => {
            if (last) out.push(ts - last);
            last = ts;
            resolve();
          }),
        );
      }
      return out;
    });

    const filterMax = Math.max(...Object.values(filters));
    const p95Work = percentile(scroll.work, 95);
    const p95Interval = percentile(scroll.intervals, 95);
    const line = (label: string, value: number, target: number, unit = 'ms', slack = 0) =>
      `${label.padEnd(44)} ${value.toFixed(1).padStart(8)} ${unit}   target ${target} ${unit}   ${value <= target + slack ? 'OK' : 'OVER'}`;
    console.log(`UI benchmark: ${CHUNKS.toLocaleString('en-US')} chunks in Chromium (${host.url.split('?')[0]})`);
    console.log(`open → overview (request + JSON + render)        ${String(openMs).padStart(8)} ms`);
    console.log(line('first paint of the chunk table', firstPaint, 1000));
    for (const [k, v] of Object.entries(filters)) console.log(line(`filter ${k}`, v, 100));
    console.log(`sort by size (all rows)                          ${sortMs.toFixed(1).padStart(8)} ms`);
    console.log(line('scroll: p95 work per frame (script+layout)', p95Work, 16));
    console.log(
      `scroll: max work per frame                       ${Math.max(...scroll.work)
        .toFixed(1)
        .padStart(8)} ms`,
    );
    console.log(line('scroll: p95 frame interval (display-bound)', p95Interval, 16.7, 'ms', 0.5));
    console.log(`idle: p95 frame interval (baseline)              ${percentile(idle, 95).toFixed(1).padStart(8)} ms`);
    console.log(`scroll: rows in the DOM ${scroll.rows}, scrolled to ${scroll.top}px`);
    const ok = firstPaint < 1000 && filterMax < 100 && p95Work <= 16;
    console.log(ok ? 'all targets met' : 'some targets missed');
    if (errors.length) console.log('page errors:', errors);
    process.exitCode = ok && errors.length === 0 ? 0 : 1;
  } finally {
    await browser.close();
    await host.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
