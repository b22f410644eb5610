/**
 * The app as an operator's console, writes and pictures (issue 12, items 7–10), in Chromium
 * against the real engine on a temp copy of the real index-reset store, with its config and
 * listing. Screenshots item07-… to item10-… under test-results/e2e/.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
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
let page: Page;
let errors: string[];
let root: string;

beforeAll(async () => {
  tmp = await tempDir('console-writes');
  execFileSync('tar', ['-xzf', path.join(SCENARIO, 'store-during-run2.tar.gz'), '-C', tmp.dir]);
  root = path.join(tmp.dir, 'store', 'fb-index-reset');
  host = await startHost({ stateDir: path.join(tmp.dir, 'state') });
  browser = await launchChromium();
  ({ page, errors } = await newPage(browser));
  await page.goto(host.url);
  await toOpenView(page);
  await openPath(page, path.join(tmp.dir, 'store'));
  const checks = page.getByTestId('checks');
  await loadConfigFromChecklist(page, CONFIG);
  await checks
    .getByTestId('check-listing-0')
    .getByLabel(/path on the Store Doctor host/)
    .fill(LISTING);
  await checks.getByTestId('check-listing-0').getByRole('button', { name: 'Read' }).click();
  await page.getByText('✓ Bucket evidence: full listing (every key the key format can reach)').waitFor();
});

afterAll(async () => {
  await page?.context().close();
  await browser?.close();
  await host?.close();
  await tmp?.remove();
});

const seqFile = () => path.join(root, 'sequence', 'index_metadata', 'seq_index_0');

describe('writes and pictures', () => {
  it('item 7: the repair wizard — refusals first on step 1, safe value prefilled with its evidence, own writes and process check listed, Protect now', async () => {
    await go(page, 'Repair');
    const value = page.getByLabel('Next index', { exact: true });
    await expect(value.inputValue()).resolves.toBe('12');
    // the evidence says what it is and how old: an offline listing with its file name and time
    const safeText = (await page.getByTestId('safe-evidence').textContent())!;
    expect(safeText.startsWith(`Safe next index 12, from a complete offline listing of bucket fb-index-reset (${LISTING}, file time `)).toBe(true);
    expect(safeText).toMatch(/file time \d{4}-\d\d-\d\dT[\d:.]+Z\)\.$/);
    // below the safe value: refused, the refusal comes first, and the stepper stays on step 1
    await value.fill('5');
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    const plan = page.getByRole('region', { name: 'Plan' });
    await plan.getByTestId('refusals').waitFor();
    const firstChild = await plan.evaluate((el) => el.firstElementChild?.getAttribute('data-testid'));
    expect(firstChild).toBe('refusals');
    await expect(plan.getByTestId('refusals').textContent()).resolves.toContain('5 is lower than the safe next index 12');
    await expect(page.locator('.wizard li[aria-current=step]').textContent()).resolves.toBe('Choose');
    expect(await plan.getByTestId('diff').count()).toBe(0);
    expect(await page.getByLabel('Bucket name to confirm').count()).toBe(0);
    await screenshot(page, 'item07-refusal-first-on-step-1');
    // the safe value: the diff, Store Doctor's own writes, the process check
    await value.fill('12');
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    await plan.getByTestId('diff').waitFor();
    await expect(page.locator('.wizard li[aria-current=step]').textContent()).resolves.toBe('Review the plan');
    const own = (await plan.getByTestId('bookkeeping').textContent())!;
    expect(own).toContain(path.join(root, '.store-doctor', 'journal.jsonl'));
    expect(own).toContain(path.join(root, '.store-doctor', 'backups', '<action id>'));
    expect(own).toContain('sequence/index_metadata/seq_index_0');
    await expect(plan.getByTestId('process-check').textContent()).resolves.toMatch(
      /^✓ No process uses this root: none of the \d+ processes in \/proc has a file or folder of it open or mapped, or its working directory there \(checked by device and inode\)/,
    );
    await page.getByLabel('Bucket name to confirm').fill('fb-index-reset');
    await screenshot(page, 'item07-plan-with-own-writes');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(page.getByTestId('apply-result').textContent()).resolves.toContain('Applied — verified');
    expect(await readFile(seqFile(), 'utf8')).toBe('12');
    // next: protect the index from the next graceful stop, with the step the diagnosis recommends
    await page.getByTestId('protect-now').click();
    await expect(page.getByLabel('Action').inputValue()).resolves.toBe('protect-index');
    await screenshot(page, 'item07-protect-now');
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    await plan.getByTestId('diff').first().waitFor();
    await page.getByLabel('Bucket name to confirm').fill('fb-index-reset');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(page.getByTestId('apply-result').textContent()).resolves.toContain('Applied');
  });

  it('item 8: the history lists what was applied, when, by whom, the result and the undo state', async () => {
    await go(page, 'History');
    const rows = page.getByTestId('history-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    const [protect, repair] = [(await rows.nth(0).textContent())!, (await rows.nth(1).textContent())!];
    expect(protect).toMatch(/protect-index/);
    expect(protect).toMatch(/verified/);
    expect(protect).toMatch(/next undo takes this one next/);
    expect(repair).toMatch(/repair-index/);
    expect(repair).toMatch(/later undoable after the newer actions are undone/);
    expect(repair).toMatch(/not recorded/);
    expect(await rows.nth(0).locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    await screenshot(page, 'item08-history');
    // undo from the history: the protect is undone first
    await page.getByRole('button', { name: 'Plan the undo →' }).click();
    await page.getByRole('heading', { name: /^Plan: Put back/ }).waitFor();
    await page.getByLabel('Bucket name to confirm').fill('fb-index-reset');
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await page
      .getByTestId('apply-result')
      .getByText(/Undid protect-index/)
      .waitFor();
    await go(page, 'History');
    await page
      .getByTestId('history-row')
      .nth(0)
      .locator('.badge', { hasText: /^undone$/ })
      .waitFor();
    await expect(page.getByTestId('history-row').nth(1).textContent()).resolves.toMatch(/next undo takes this one next/);
  });

  it('item 9: the index chart — step lines per tag broken at the reset, tooltip, click to list keys, drag to zoom — and the worked example', async () => {
    await go(page, 'Index & S3');
    const chart = page.getByTestId('index-chart');
    const over = chart.locator('.u-over');
    await over.waitFor();
    await over.scrollIntoViewIfNeeded();
    await expect(chart.locator('.u-legend').textContent()).resolves.toMatch(/app\.web.*app\.db.*sys\.kernel/);
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
    const tip = page.getByTestId('chart-tip');
    await tip.waitFor({ state: 'visible' });
    await expect(tip.textContent()).resolves.toMatch(/^[a-z.]+\/2026\/11\/29\/\S+-\d+\ntag [a-z.]+ · \$INDEX \d+ · LastModified 2026-11-29 \d\d:\d\d:\d\dZ/);
    await page.mouse.down();
    await page.mouse.up();
    const picked = page.getByTestId('picked-keys');
    await picked.waitFor();
    await expect(picked.textContent()).resolves.toMatch(/^Keys at 2026-11-29 \d\d:\d\d:\d\dZ.*\$INDEX \d+, LastModified 2026-11-29/);
    const host0 = chart.locator('.chart-host');
    const before = Number(await host0.getAttribute('data-xmax')) - Number(await host0.getAttribute('data-xmin'));
    await page.mouse.move(box.x + box.width * 0.1, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    const after = Number(await host0.getAttribute('data-xmax')) - Number(await host0.getAttribute('data-xmin'));
    expect(after).toBeLessThan(before * 0.6);
    const worked = page.getByTestId('worked-example');
    await expect(worked.textContent()).resolves.toMatch(
      /The next start writes app\.web\/\d{4}\/\d\d\/\d\d\/\d\d_\d\d_\d\d-12 \(\$INDEX 12, tag app\.web\): free/,
    );
    await chart.scrollIntoViewIfNeeded();
    await screenshot(page, 'item09-index-chart');
  });

  it('item 10: the storage picture — on disk and records by stream kind and tag, backlog by age', async () => {
    await go(page, 'Overview');
    const storage = page.getByTestId('storage');
    await storage.waitFor();
    const kind = storage.getByRole('table', { name: 'By stream kind' });
    await expect(kind.locator('tbody tr').first().textContent()).resolves.toMatch(/^data3\d+ KiB\d+ %180$/);
    const tags = storage.getByRole('table', { name: 'By tag (data and quarantine)' });
    await expect(tags.textContent()).resolves.toMatch(/app\.web.*1 to upload/);
    expect(await tags.locator('tbody tr').count()).toBe(3);
    const backlog = storage.getByRole('table', { name: 'Backlog Fluent Bit uploads next, by record age' });
    const counts = await backlog.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(counts.reduce((a, c) => a + Number(c.replace(/,/g, '')), 0)).toBe(3);
    await storage.scrollIntoViewIfNeeded();
    await screenshot(page, 'item10-storage-picture');
    expect(errors).toEqual([]);
  });
});
