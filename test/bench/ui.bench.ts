/**
 * UI benchmark (`npm run bench:ui`, not CI): a 100,000-chunk store shown in Chromium through the
 * loopback host. The engine is replaced by one that answers `store.open` with a synthetic
 * StoreReport of that size (test/e2e/support/synthetic.ts), so the numbers measure the UI only.
 * First (0., test/bench/app-open.ts; BENCH_APP_OPEN=0 skips it), with the real engine and the compiled
 * CLI: opening bench:scan's 100,000-chunk store in the app (serve → Overview painted) against the
 * CLI's scan of it, target ≤ 1.5×. Then, measured in one run, each with PASS/FAIL:
 *   1. first paint of the chunk table (click "Chunks" → first row painted), cold and again: < 1 s;
 *   2. filter (status, stream, tag, record time) and sort (every column, both directions), each
 *      change → count / first row painted, p95 of all samples: < 100 ms;
 *   3. scrolling, 300 frames: p95 work per frame (scroll → React commit → layout) ≤ 16 ms, next to
 *      the frame interval of this headless Chromium idle (the display's own limit, same run).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Engine, EngineHandlers } from '../../shared/contract';
import { startHost } from '../../electron/host';
import { launchChromium, newPage, PROJECT_ROOT, screenshot } from '../e2e/support/browser';
import { syntheticDiagnosis, syntheticReport } from '../e2e/support/synthetic';
import { storageSummary } from '../../electron/engine/store/storage';
import { benchAppOpen } from './app-open';
import { benchStore } from './bench-store';

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
declare const HTMLInputElement: { prototype: object };
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
        case 'store.list':
          return async () => ({ stores: [] });
        case 'connection.list':
          return async () => ({ connections: [] });
        case 'store.storage':
          return async () => storageSummary(report);
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
    // 0. the real engine: `serve` of the bench store → Overview painted, against the CLI's scan
    if (process.env.BENCH_APP_OPEN !== '0') {
      const { STORE, generate } = benchStore();
      generate();
      await benchAppOpen(browser, STORE);
    }
    const { page, errors } = await newPage(browser);
    // tsx (esbuild keepNames) wraps functions passed to page.evaluate in __name(): define it in the page.
    await page.addInitScript('globalThis.__name = (f) => f;');
    page.on('crash', () => console.error('the page crashed (out of memory?)'));
    await page.goto(host.url);
    await page.locator('.app[data-ready="true"]').waitFor();
    await page.getByLabel('Path', { exact: true }).fill('/bench/store');
    const openStart = Date.now();
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const openMs = Date.now() - openStart;

    // 1. first paint of the table: click "Chunks" → first row on screen, measured in the page; cold, then 4 more times.
    const paints = await page.evaluate(async () => {
      const navTo = (label: string) => [...document.querySelectorAll('nav button')].find((b) => b.textContent?.startsWith(label))!;
      const out: number[] = [];
      for (let i = 0; i < 5; i++) {
        if (i > 0) {
          navTo('Overview').click();
          await new Promise<void>((resolve) => {
            const check = () => (document.querySelector('[data-testid=chunk-row]') ? requestAnimationFrame(check) : resolve());
            check();
          });
        }
        const t0 = performance.now();
        navTo('Chunks').click();
        await new Promise<void>((resolve) => {
          const check = () => (document.querySelector('[data-testid=chunk-row]') ? requestAnimationFrame(() => resolve()) : requestAnimationFrame(check));
          check();
        });
        out.push(performance.now() - t0);
      }
      return out;
    });

    // 2a. filters: each change until the count is painted — status, stream, tag (typed), record time — 5 rounds.
    const filters = await page.evaluate(async () => {
      const count = () => document.querySelector('[data-testid=chunk-count]')!.textContent;
      const selects = [...document.querySelectorAll('select')];
      const [stream, status] = [selects[0], selects[1]];
      const inputs = [...document.querySelectorAll('input')];
      const tag = inputs.find((i) => i.getAttribute('id') === 'chunk-tag-filter')!;
      const from = inputs.find((i) => i.getAttribute('placeholder')?.startsWith('2026-11-29T18'))!;
      const selectValue = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!;
      const inputValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      const change = async (el: El, value: string, kind: 'select' | 'input') => {
        const before = count();
        const t0 = performance.now();
        (kind === 'select' ? selectValue : inputValue).call(el, value);
        el.dispatchEvent(new Event(kind === 'select' ? 'change' : 'input', { bubbles: true }));
        await new Promise<void>((resolve) => {
          const check = () => (count() !== before ? requestAnimationFrame(() => resolve()) : requestAnimationFrame(check));
          check();
        });
        return performance.now() - t0;
      };
      const out: Record<string, number[]> = { status: [], stream: [], tag: [], time: [] };
      for (let r = 0; r < 5; r++) {
        out.status.push(await change(status, 'crc-mismatch', 'select'));
        out.status.push(await change(status, 'all', 'select'));
        out.stream.push(await change(stream, stream.options[3 + r].value, 'select'));
        out.stream.push(await change(stream, '', 'select'));
        out.tag.push(await change(tag, 'k8s', 'input'));
        out.tag.push(await change(tag, '', 'input'));
        out.time.push(await change(from, '2026-11-29T12:00:01Z', 'input'));
        out.time.push(await change(from, '', 'input'));
      }
      return out;
    });

    // 2b. sort: every column, both directions, twice — until the first row changes and is painted.
    const sorts = await page.evaluate(async () => {
      const first = () =>
        document.querySelector('[data-testid=chunk-row]')?.getAttribute('data-path') +
        '|' +
        document.querySelector('[role=columnheader][aria-sort=ascending],[role=columnheader][aria-sort=descending]')?.getAttribute('aria-sort');
      const out: Record<string, number[]> = {};
      for (let round = 0; round < 2; round++) {
        for (const header of [...document.querySelectorAll('[role=columnheader] button')]) {
          const name = header.textContent!.replace(/[ ▲▼]+$/, '');
          for (let dir = 0; dir < 2; dir++) {
            const before = first();
            const t0 = performance.now();
            header.click();
            await new Promise<void>((resolve) => {
              const check = () => (first() !== before ? requestAnimationFrame(() => resolve()) : requestAnimationFrame(check));
              check();
            });
            (out[name] ??= []).push(performance.now() - t0);
          }
        }
      }
      return out;
    });

    // 3. scrolling: 300 frames, 120 px per frame. Work per frame = scroll → React commit → layout
    // (synchronous); interval = time between animation frames (display-bound at 60 Hz).
    const scroll = await page.evaluate(async () => {
      const el = document.querySelector('[data-testid=chunk-scroller]')!;
      el.scrollTop = 0;
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
    // The physical limit, same run: the animation-frame interval of this headless Chromium with nothing happening.
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

    const p95 = (v: number[]) => percentile(v, 95);
    const ms = (v: number) => `${v.toFixed(1).padStart(7)} ms`;
    const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
    const filterAll = Object.values(filters).flat();
    const sortAll = Object.values(sorts).flat();
    const both = [...filterAll, ...sortAll];
    const coldPaint = paints[0];
    const worstPaint = Math.max(...paints);
    const p95Work = p95(scroll.work);
    const p95Interval = p95(scroll.intervals);
    const idleP95 = p95(idle);
    const ok1 = worstPaint < 1000;
    const ok2 = p95(both) < 100;
    const ok3 = p95Work <= 16;
    console.log(`UI benchmark: ${CHUNKS.toLocaleString('en-US')} chunks in Chromium (${host.url.split('?')[0]}), one run`);
    console.log(`open → overview (request + JSON + render)      ${ms(openMs)}`);
    console.log('');
    console.log(`1. table first paint: cold ${ms(coldPaint)}, worst of ${paints.length} ${ms(worstPaint)}   target < 1000 ms   ${verdict(ok1)}`);
    console.log(`2. filter and sort, p95 of ${both.length} changes ${ms(p95(both))}   target < 100 ms   ${verdict(ok2)}`);
    for (const [k, v] of Object.entries(filters)) console.log(`     filter ${k.padEnd(8)} p95 ${ms(p95(v))}  max ${ms(Math.max(...v))}  (${v.length} changes)`);
    for (const [k, v] of Object.entries(sorts)) console.log(`     sort ${k.padEnd(10)} p95 ${ms(p95(v))}  max ${ms(Math.max(...v))}  (${v.length} changes)`);
    console.log(`3. scroll p95 work per frame ${ms(p95Work)} (max ${ms(Math.max(...scroll.work))})   target ≤ 16 ms   ${verdict(ok3)}`);
    console.log(
      `     frame interval while scrolling p95 ${ms(p95Interval)}; idle p95 ${ms(idleP95)} (the display's limit): ratio ${(p95Interval / idleP95).toFixed(2)}`,
    );
    console.log(`     rows in the DOM ${scroll.rows}, scrolled to ${scroll.top}px`);
    const ok = ok1 && ok2 && ok3;
    console.log(ok ? 'all three targets met' : 'some targets missed');
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
