/**
 * The app as an operator's console, pictures and ergonomics (issue 12, items 11–14), in Chromium
 * against the real engine: the chunk table and Inspector, layout at 1024×700, one unit system
 * and time format, stale alerts, Export with copy, and no CLI-only wording (command lines only in
 * their collapsible blocks). Screenshots item11-… to item14-… under test-results/e2e/.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHost, type RunningHost } from '../../electron/host';
import { dispatchRequest } from '../../electron/engine/session/dispatch';
import { generateStore, jsonLines } from '../fixtures/generate';
import type { ChunkInfo, StoreReport } from '../../shared/model';
import { FIXTURES, launchChromium, newPage, screenshot, tempDir } from './support/browser';
import { go, loadConfigFromChecklist, openPath, toOpenView } from './support/ui';

const SCENARIO = path.join(FIXTURES, 'index-reset');
const TAR = path.join(SCENARIO, 'store-during-run2.tar.gz');
const LISTING = path.join(SCENARIO, 's3api-list-objects-v2.json');
const CONFIG = path.join(SCENARIO, 'fluent-bit.conf');
const BIG = 1_200;

let host: RunningHost;
let browser: Browser;
let tmp: { dir: string; remove: () => Promise<void> };
let bigStore: string;

beforeAll(async () => {
  tmp = await tempDir('console-ergo');
  const streams = [0, 1].map((s) => ({
    name: `2026-11-2${s + 1}T10:00:00`,
    chunks: Array.from({ length: BIG / 2 }, (_, i) => ({
      name: `${1000 + i}-${1764417600 + s * BIG + i}.flb`,
      meta: `app.t${i % 3}`,
      content: jsonLines(3, { start: Date.UTC(2026, 10, 21 + s, 10, 0, 0) / 1000 + i * 60 }),
    })),
  }));
  bigStore = (await generateStore(path.join(tmp.dir, 'big'), { roots: [{ bucket: 'big-bucket', streams, seqIndex: { '0': '1234' } }] })).storeDir;
  host = await startHost({ stateDir: path.join(tmp.dir, 'state') });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await tmp?.remove();
});

async function ui(opts: { width?: number; height?: number } = {}): Promise<{ page: Page; errors: string[] }> {
  const r = await newPage(browser, opts);
  await r.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await r.page.goto(host.url);
  await toOpenView(r.page);
  return r;
}

const clipboard = (page: Page): Promise<string> => page.evaluate('navigator.clipboard.readText()');

/** The engine's report of an open store, to compute what the table must show. */
async function reportOf(storeId: string): Promise<StoreReport> {
  const r = await dispatchRequest(host.engine, 'store.list', {});
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { stores: { storeId: string; report: StoreReport }[] }).stores.find((s) => s.storeId === storeId)!.report;
}

describe('pictures and ergonomics', () => {
  it("item 11: chunks sort on every column, counts per status and tag, '/', record time, a finding's chunks; Inspector hex, NDJSON search, copy", async () => {
    const { page, errors } = await ui();
    await openPath(page, bigStore);
    // a finding's "Show these chunks" applies exactly its chunks
    await page.locator('[data-code="BUFFERED_BACKLOG"]').getByTestId('show-chunks').click();
    await expect(page.getByTestId('paths-filter').textContent()).resolves.toContain(`BUFFERED_BACKLOG: ${BIG} chunks`);
    await expect(page.getByTestId('chunk-count').textContent()).resolves.toBe('1,200 of 1,200 chunks');
    await page.getByRole('button', { name: 'Show all chunks' }).click();
    for (const col of ['Stream', 'File', 'Tag', 'Status', 'On disk', 'Records', 'File time']) {
      const header = page.getByRole('columnheader', { name: new RegExp(`^${col}(?! time)`) });
      await header.getByRole('button').click();
      await expect(header.getAttribute('aria-sort')).resolves.toMatch(/^(ascending|descending)$/);
    }
    await page
      .getByRole('columnheader', { name: /^File(?! time)/ })
      .getByRole('button')
      .click();
    await page
      .getByRole('columnheader', { name: /^File(?! time)/ })
      .getByRole('button')
      .click();
    await expect(page.getByRole('columnheader', { name: /^File(?! time)/ }).getAttribute('aria-sort')).resolves.toBe('descending');
    await expect(page.getByTestId('chunk-row').first().getAttribute('data-path')).resolves.toMatch(/\/1599-/);
    // counts per tag, and a click filters
    const facet = page.getByTestId('facets').getByRole('button', { name: /^app\.t1 / });
    await expect(facet.textContent()).resolves.toBe('app.t1 400');
    await facet.click();
    await expect.poll(() => page.getByTestId('chunk-count').textContent()).toBe('400 of 1,200 chunks');
    await facet.click();
    // '/' jumps to the tag filter
    await page.getByTestId('chunk-row').first().focus();
    await page.keyboard.press('/');
    await expect(page.evaluate('document.activeElement?.id')).resolves.toBe('chunk-tag-filter');
    // record time: the chunks whose records overlap the window, as the engine's report says
    const report = await reportOf(
      (await dispatchRequest(host.engine, 'store.list', {}).then((r) => (r as { value: { stores: { storeId: string }[] } }).value.stores[0].storeId))!,
    );
    const from = '2026-11-21T12:00:00Z';
    const to = '2026-11-21T14:00:00Z';
    const want = report.roots[0].streams
      .flatMap((s) => s.chunks)
      .filter((c: ChunkInfo) => Date.parse(c.lastRecordTime!) >= Date.parse(from) && Date.parse(c.firstRecordTime!) <= Date.parse(to)).length;
    await page.getByLabel('Records from (UTC)').fill(from);
    await page.getByLabel('Records to (UTC)').fill(to);
    await expect.poll(() => page.getByTestId('chunk-count').textContent()).toBe(`${want} of 1,200 chunks`);
    expect(want).toBeGreaterThan(50);
    await screenshot(page, 'item11-chunks-sort-counts-time');
    // Inspector: annotated hex, NDJSON records with search, copy path and records
    await page.getByTestId('chunk-row').first().click();
    const layout = page.getByTestId('layout');
    await layout.waitFor();
    await expect(layout.locator('tr', { hasText: 'magic' }).textContent()).resolves.toMatch(/magic0–1C1 00✓ Chunk I\/O magic/);
    await expect(layout.locator('tr', { hasText: /^.?metadata24/ }).textContent()).resolves.toMatch(/app\.t\d/);
    const records = page.getByTestId('records');
    await expect(records.locator('li').first().textContent()).resolves.toMatch(
      /^\{"date":"2026-11-21T1\d:\d\d:\d\d\.\d+Z","svc":"web","msg":"GET \/item\/0 200","bytes":0\}$/,
    );
    await page.getByLabel('Search the records of this page').fill('item/2');
    await expect(page.getByTestId('records-matches').textContent()).resolves.toBe('1 of 3 records on this page match');
    await expect(records.locator('mark').first().textContent()).resolves.toBe('item/2');
    const chunkPath = (await page
      .getByRole('heading', { name: /Inspector/ })
      .locator('code')
      .textContent())!;
    await page.getByRole('button', { name: 'Copy path' }).click();
    await expect(clipboard(page)).resolves.toBe(`${path.join(bigStore, 'big-bucket')}/${chunkPath}`);
    await page.getByRole('button', { name: 'Copy records (NDJSON)' }).click();
    await expect(
      clipboard(page).then((t) =>
        t
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l).msg),
      ),
    ).resolves.toEqual(['GET /item/0 200', 'GET /item/1 200', 'GET /item/2 200']);
    await screenshot(page, 'item11-inspector');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('item 12: at 1024×700 the sidebar collapses, the file column stays visible, badges do not wrap', async () => {
    const { page, errors } = await ui({ width: 1024, height: 700 });
    await openPath(page, TAR);
    await go(page, 'Chunks');
    await page.getByTestId('chunk-row').first().waitFor();
    const fits = async (): Promise<{ nameWidth: number; inside: boolean; tallestBadge: number }> =>
      page.evaluate(`(() => {
        const table = document.querySelector('.table').getBoundingClientRect();
        const name = document.querySelector('[data-testid=chunk-row] .c-name').getBoundingClientRect();
        const badges = [...document.querySelectorAll('.badge')].map((b) => b.getBoundingClientRect().height);
        return { nameWidth: name.width, inside: name.left >= table.left && name.right <= table.right, tallestBadge: Math.max(...badges) };
      })()`);
    const open = await fits();
    expect(open.inside).toBe(true);
    expect(open.nameWidth).toBeGreaterThanOrEqual(180);
    expect(open.tallestBadge).toBeLessThanOrEqual(22);
    await page.getByRole('button', { name: 'Collapse the navigation' }).click();
    const navWidth = await page.locator('nav.nav').evaluate((n) => n.getBoundingClientRect().width);
    expect(navWidth).toBeLessThan(70);
    // the views keep their names for assistive technology and their shortcuts
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: /^Overview/ })
      .waitFor();
    const collapsed = await fits().catch(() => null);
    expect(collapsed?.nameWidth ?? 0).toBeGreaterThan(open.nameWidth);
    await screenshot(page, 'item12-1024x700-collapsed');
    await go(page, 'Overview');
    await page.getByTestId('finding').first().waitFor();
    const tallest = (await page.evaluate(`Math.max(...[...document.querySelectorAll('.badge')].map((b) => b.getBoundingClientRect().height))`)) as number;
    expect(tallest).toBeLessThanOrEqual(22);
    await screenshot(page, 'item12-1024x700-overview');
    await page.getByRole('button', { name: 'Show the navigation' }).click();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('item 13: one unit system and time format, thousands separators, stale alerts cleared on navigation, Export preview with copy', async () => {
    const { page, errors } = await ui();
    await page.getByLabel('Path', { exact: true }).fill('/no/such/store');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/^Opening \/no\/such\/store failed: .*no such file or directory/);
    await openPath(page, bigStore);
    expect(await page.getByRole('alert').count()).toBe(0);
    const storage = page.getByTestId('storage');
    await expect(storage.getByRole('table', { name: 'By stream kind' }).locator('tbody tr').first().textContent()).resolves.toMatch(
      /^data1,200[\d.]+ MiB100 %3,600$/,
    );
    const times = page.locator('time');
    expect(await times.count()).toBeGreaterThan(0);
    for (const t of await times.all()) {
      await expect(t.textContent()).resolves.toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
      await expect(t.getAttribute('title')).resolves.toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d \(local time\)$/);
    }
    await go(page, 'Chunks');
    await expect(page.getByTestId('chunk-count').textContent()).resolves.toBe('1,200 of 1,200 chunks');
    expect(await page.getByRole('columnheader', { name: /^On disk/ }).count()).toBe(1);
    // an error in one view does not follow to the next
    await go(page, 'Index & S3');
    await page.getByRole('button', { name: 'List and compare' }).click();
    await page.getByRole('alert').first().waitFor();
    await go(page, 'Overview');
    expect(await page.getByRole('alert').count()).toBe(0);
    await go(page, 'Export');
    await page.getByRole('button', { name: 'Preview Markdown' }).click();
    const preview = page.getByTestId('export-preview');
    await preview.waitFor();
    await page.getByRole('button', { name: 'Copy to clipboard' }).click();
    await page.getByRole('button', { name: 'Copied ✓' }).waitFor();
    const copied = await clipboard(page);
    expect(copied).toMatch(/^# Store Doctor report: big/);
    expect(copied.startsWith((await preview.textContent())!.slice(0, 500))).toBe(true);
    await screenshot(page, 'item13-export-preview-copied');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("item 14: no command-line flags in the app's own words; the CLI equivalent of an action sits in a block with a copy button", async () => {
    const { page, errors } = await ui();
    const dir = path.join(tmp.dir, 'fourteen');
    execFileSync('mkdir', ['-p', dir]);
    execFileSync('tar', ['-xzf', TAR, '-C', dir]);
    await openPath(page, path.join(dir, 'store'));
    const checks = page.getByTestId('checks');
    await loadConfigFromChecklist(page, CONFIG);
    await checks
      .getByTestId('check-listing-0')
      .getByLabel(/path on the Store Doctor host/)
      .fill(LISTING);
    await checks.getByTestId('check-listing-0').getByRole('button', { name: 'Read' }).click();
    await page.locator('[data-code="INDEX_BEHIND_BUCKET"]').waitFor();
    for (const view of ['Overview', 'Chunks', 'Index & S3', 'Repair', 'Replay', 'Multipart', 'History', 'Export']) {
      await go(page, view);
      // innerText leaves out closed <details>: the command-line blocks
      const text = (await page.evaluate(`document.querySelector('main').innerText`)) as string;
      expect(text.match(/(^|\s)--[a-z][a-z-]+/g), view).toBeNull();
    }
    // the replay's "include the active stream" is a control, not a flag to pass
    await go(page, 'Replay');
    await page.getByLabel(/Include the active stream/).waitFor();
    await go(page, 'Overview');
    const card = page.locator('[data-code="INDEX_BEHIND_BUCKET"]');
    await card.getByText('Command line').click();
    const block = card.getByTestId('cli-equivalent');
    const line = `store-doctor repair-index ${path.join(dir, 'store')} --config ${CONFIG} --listing ${LISTING} --apply`;
    await expect(block.locator('pre').textContent()).resolves.toBe(line);
    await block.getByRole('button', { name: 'Copy' }).click();
    await expect(clipboard(page)).resolves.toBe(line);
    // and the plan under review, with the value chosen
    await go(page, 'Repair');
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    await page.getByText('The same on the command line').click();
    await expect(page.getByRole('region', { name: 'Plan' }).getByTestId('cli-equivalent').locator('pre').textContent()).resolves.toBe(
      `store-doctor repair-index ${path.join(dir, 'store')} --config ${CONFIG} --listing ${LISTING} --value 12 --apply`,
    );
    await screenshot(page, 'item14-cli-equivalent');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
