/**
 * bench:fleet, the view part: the app's Fleet view in Chromium through the loopback host and the
 * real engine, querying the bench's real Prometheus. Each change — "at risk only" on and off, a
 * search typed and cleared, a sort by every column both ways — is timed in the page from the event
 * to the frame that shows it (the shown count or the first row changed, then one animation frame).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { startHost } from '../../electron/host';
import { launchChromium, newPage, PROJECT_ROOT } from '../e2e/support/browser';

// The functions passed to page.evaluate run in Chromium; this file is type-checked as Node code
// (no DOM lib), so the few DOM names they use are declared here, module-local.
interface El {
  textContent: string | null;
  value: string;
  checked: boolean;
  click(): void;
  getAttribute(name: string): string | null;
  dispatchEvent(e: Event): boolean;
  querySelector(sel: string): El | null;
  querySelectorAll(sel: string): ArrayLike<El> & Iterable<El>;
}
declare const document: { querySelector(sel: string): El | null; querySelectorAll(sel: string): ArrayLike<El> & Iterable<El> };
declare const HTMLInputElement: { prototype: object };
declare function requestAnimationFrame(cb: (ts: number) => void): number;

export interface ViewTimes {
  /** Query Prometheus clicked → the table painted (request through the host + render). */
  firstPaintMs: number;
  filter: number[];
  search: number[];
  sort: number[];
  rowsInDom: number;
  errors: string[];
}

/** rendererDir: another build of the renderer (BENCH_RENDERER, to compare with an older one). */
export async function benchFleetView(promUrl: string, stateDir: string, rounds: number, rendererDir?: string): Promise<ViewTimes> {
  // Build in a child process: vite's ESM build does not load through tsx's CommonJS path.
  if (!rendererDir)
    execFileSync(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'vite'), ['build', '--config', 'vite.renderer.config.ts', '--logLevel', 'warn'], {
      cwd: PROJECT_ROOT,
      stdio: 'inherit',
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    });
  const host = await startHost({ stateDir, ...(rendererDir ? { rendererDir } : {}) });
  const browser = await launchChromium();
  try {
    const { page, errors } = await newPage(browser);
    // tsx (esbuild keepNames) wraps functions passed to page.evaluate in __name(): define it in the page.
    await page.addInitScript('globalThis.__name = (f) => f;');
    await page.goto(host.url);
    await page.locator('.app[data-ready="true"]').waitFor();
    await page.locator('nav button', { hasText: 'Fleet' }).first().click();
    await page.getByLabel('Prometheus URL').fill(promUrl);
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Query Prometheus' }).click();
    await page.getByTestId('prom-fleet-totals').waitFor({ timeout: 120_000 });
    await page.locator('section[aria-label="Nodes from Prometheus"] tbody td').first().waitFor();
    const firstPaintMs = Date.now() - t0;
    const times = await page.evaluate(async (rounds: number) => {
      const region = document.querySelector('section[aria-label="Nodes from Prometheus"]')!;
      const shown = () => region.querySelector('.row .muted')!.textContent;
      const first = () => {
        const row = region.querySelector('tbody tr:not([aria-hidden])');
        const th = region.querySelector('th[aria-sort=ascending],th[aria-sort=descending]');
        return `${row?.querySelector('td')?.textContent}|${th?.textContent}|${th?.getAttribute('aria-sort')}`;
      };
      // the change painted: the probe differs, then one more frame (a change never seen fails the bench, it does not hang it)
      const painted = (changed: () => boolean) =>
        new Promise<void>((resolve, reject) => {
          const t = performance.now();
          const check = () =>
            changed()
              ? requestAnimationFrame(() => resolve())
              : performance.now() - t > 30_000
                ? reject(new Error('no change painted in 30 s'))
                : requestAnimationFrame(check);
          check();
        });
      const inputValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      const atRisk = [...region.querySelectorAll('input[type=checkbox]')][0];
      const search = region.querySelector('input[type=search]')!;
      const out = { filter: [] as number[], search: [] as number[], sort: [] as number[] };
      const timed = async (into: number[], act: () => void, probe: () => string | null) => {
        const before = probe();
        const t = performance.now();
        act();
        await painted(() => probe() !== before);
        into.push(performance.now() - t);
      };
      const type = (v: string) => () => {
        inputValue.call(search, v);
        search.dispatchEvent(new Event('input', { bubbles: true }));
      };
      for (let r = 0; r < rounds; r++) {
        await timed(out.filter, () => atRisk.click(), shown);
        await timed(out.filter, () => atRisk.click(), shown);
        await timed(out.search, type(`node-${r % 5}`), shown);
        await timed(out.search, type(`node-${r % 5}1`), shown);
        await timed(out.search, type(''), shown);
      }
      for (let r = 0; r < Math.max(1, rounds / 5); r++)
        for (const header of [...region.querySelectorAll('th button')]) for (let dir = 0; dir < 2; dir++) await timed(out.sort, () => header.click(), first);
      return { ...out, rowsInDom: region.querySelectorAll('tbody tr:not([aria-hidden])').length };
    }, rounds);
    return { firstPaintMs, ...times, errors };
  } finally {
    await browser.close();
    await host.close();
  }
}
