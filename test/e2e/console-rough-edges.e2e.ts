/**
 * The console's rough edges from an operator's walk (issue 22, item 3), in Chromium against the
 * real engine on a temp copy of the real index-reset store: views open at their top; at 200 %
 * zoom (half the CSS width) the navigation keeps its labels, ☰ hides and brings them back, and
 * Fleet shows its form; after Plan and Apply the focus moves to the result and a live region
 * announces it. Screenshots item22-… under test-results/e2e/.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHost, type RunningHost } from '../../electron/host';
import { FIXTURES, launchChromium, newPage, screenshot, tempDir } from './support/browser';
import { go, loadConfigFromChecklist, openPath, toOpenView } from './support/ui';

const SCENARIO = path.join(FIXTURES, 'index-reset');
const LISTING = path.join(SCENARIO, 's3api-list-objects-v2.json');
const CONFIG = path.join(SCENARIO, 'fluent-bit.conf');

let host: RunningHost;
let browser: Browser;
let tmp: { dir: string; remove: () => Promise<void> };
let store: string;

beforeAll(async () => {
  tmp = await tempDir('console-rough');
  execFileSync('tar', ['-xzf', path.join(SCENARIO, 'store-during-run2.tar.gz'), '-C', tmp.dir]);
  store = path.join(tmp.dir, 'store');
  host = await startHost({ stateDir: path.join(tmp.dir, 'state') });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await tmp?.remove();
});

async function ui(opts: { width?: number; height?: number } = {}): Promise<Page> {
  const { page } = await newPage(browser, opts);
  await page.goto(host.url);
  await toOpenView(page);
  return page;
}

const mainScrollTop = (page: Page): Promise<number> => page.locator('#main').evaluate((el) => el.scrollTop);

describe('rough edges of the console', () => {
  it('a view opens at its top, whatever the scroll position of the view before', async () => {
    const page = await ui({ width: 1024, height: 500 });
    await openPath(page, store);
    // scrolled down the Overview, then to another view and back: each opens at its top
    await page.locator('#main').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    expect(await mainScrollTop(page)).toBeGreaterThan(0);
    await go(page, 'Chunks');
    await page.getByRole('heading', { name: 'Chunks' }).waitFor();
    expect(await mainScrollTop(page)).toBe(0);
    await page.locator('#main').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await go(page, 'Overview');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await mainScrollTop(page)).toBe(0);
    // Open scrolled down, then a store opened from there: the Overview at its top
    await go(page, 'Open');
    await page.locator('#main').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await openPath(page, store);
    expect(await mainScrollTop(page)).toBe(0);
    await screenshot(page, 'item22-overview-at-top');
    await page.context().close();
  });

  it('at 200 % zoom the navigation keeps its labels, ☰ hides and brings them back, and Fleet shows its form', async () => {
    // 200 % zoom of a 1360×900 window: 680×450 CSS pixels
    const page = await ui({ width: 680, height: 450 });
    const nav = page.getByRole('navigation', { name: 'Views' });
    const label = nav.locator('.nav-label', { hasText: 'Overview' });
    const visibleWidth = () => label.evaluate((el) => el.getBoundingClientRect().width);
    expect(await visibleWidth()).toBeGreaterThan(20);
    await screenshot(page, 'item22-zoom200-nav-labels');
    const toggle = page.getByRole('button', { name: 'Collapse the navigation' });
    await toggle.click();
    expect(await visibleWidth()).toBeLessThanOrEqual(1);
    await page.getByRole('button', { name: 'Show the navigation' }).click();
    expect(await visibleWidth()).toBeGreaterThan(20);
    await go(page, 'Fleet');
    const folder = page.getByLabel('Folder of report.json files');
    await folder.waitFor();
    const box = await folder.boundingBox();
    expect(box!.width).toBeGreaterThan(150);
    expect(box!.x + box!.width).toBeLessThanOrEqual(680);
    expect(await page.getByRole('button', { name: 'Open fleet' }).isVisible()).toBe(true);
    await screenshot(page, 'item22-zoom200-fleet');
    await page.context().close();
  });

  it('storage bars are each row’s share of its table’s total on disk, and say so; age is record age, file time is named file time', async () => {
    const page = await ui();
    await openPath(page, store);
    const storage = page.getByTestId('storage');
    await storage.waitFor();
    for (const table of await storage.getByRole('table').all()) {
      await expect(table.getByRole('columnheader', { name: 'Share of the total on disk' }).count()).resolves.toBe(1);
      const bytes = await table.locator('tbody tr td:nth-child(3)').allTextContents();
      const shares = await table
        .locator('.bar-fill')
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width / e.parentElement!.getBoundingClientRect().width));
      const texts = await table.locator('tbody tr td:nth-child(4)').allTextContents();
      // the shares add up to the whole (not the largest row at 100 %), and the printed percentages match the bars
      if (bytes.length > 1) expect(Math.abs(shares.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(0.02);
      shares.forEach((sh, i) => expect(texts[i]).toBe(sh > 0 && Math.round(sh * 100) === 0 ? '<1 %' : `${Math.round(sh * 100)} %`));
    }
    await expect(storage.getByRole('table', { name: 'Backlog Fluent Bit uploads next, by record age' }).count()).resolves.toBe(1);
    await expect(storage.textContent()).resolves.toContain('Record age: age of the oldest record in each chunk (its file time when it has no record time)');
    await go(page, 'Chunks');
    const header = page.getByRole('columnheader', { name: /^File time/ });
    await expect(header.getByRole('button').getAttribute('title')).resolves.toMatch(/^file time: .*not the age of its records/);
    expect(await page.getByRole('columnheader', { name: /^Age/ }).count()).toBe(0);
    await screenshot(page, 'item22-file-time-column');
    await page.context().close();
  });

  it('after Plan the focus is on the plan, after Apply on the result, and both are announced', async () => {
    const page = await ui();
    await openPath(page, store);
    await loadConfigFromChecklist(page, CONFIG);
    const checks = page.getByTestId('checks');
    await checks
      .getByTestId('check-listing-0')
      .getByLabel(/path on the Store Doctor host/)
      .fill(LISTING);
    await checks.getByTestId('check-listing-0').getByRole('button', { name: 'Read' }).click();
    await page.getByText('✓ Bucket evidence: full listing (every key the key format can reach)').waitFor();
    await go(page, 'Repair');
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    const plan = page.getByRole('region', { name: 'Plan' });
    await plan.getByTestId('diff').waitFor();
    const focused = () =>
      page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.getAttribute('data-testid') ?? null");
    await expect.poll(focused).toBe('Plan');
    const live = page.getByTestId('plan-announcement');
    expect(await live.getAttribute('aria-live')).toBe('polite');
    await expect(live.textContent()).resolves.toMatch(/^Plan ready: /);
    await page.getByLabel('Bucket name to confirm').fill('fb-index-reset');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByTestId('apply-result').waitFor();
    await expect.poll(focused).toBe('apply-result');
    await expect(live.textContent()).resolves.toMatch(/^Applied — verified: /);
    await screenshot(page, 'item22-apply-result-focused');
    await page.context().close();
  });

  it('the shadow folder and the assumed restart time are set in the app as on the command line (--shadow-dir, --at)', async () => {
    const page = await ui();
    // the store and its config are open in this host's session since the test above
    await openPath(page, store);
    await go(page, 'Repair');
    await page.getByLabel('Action').selectOption('protect-index');
    await page.getByLabel('Method').selectOption('shadow');
    const shadowDir = path.join(tmp.dir, 'operator-shadow');
    await page.getByLabel('Shadow folder').fill(shadowDir);
    await page.getByLabel('Assumed restart time').fill('yesterday');
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    await page.getByText('"yesterday" is not an ISO time').waitFor();
    await page.getByLabel('Assumed restart time').fill('2026-11-29T18:40:00');
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    const plan = page.getByRole('region', { name: 'Plan' });
    await plan.locator('ol.steps').waitFor();
    const steps = await plan.locator('ol.steps code').allTextContents();
    expect(steps.some((t) => t.startsWith(shadowDir))).toBe(true);
    await screenshot(page, 'item22-shadow-folder-and-restart-time');
    await page.context().close();
  });
});
