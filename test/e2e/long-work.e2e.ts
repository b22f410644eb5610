/**
 * Long work in Chromium against the real engine: cancelling the scan of a big generated store
 * (open and rescan) from the task bar, and the context imports reachable from the Open view.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHost, type RunningHost } from '../../electron/host';
import { generateStore, jsonLines, type GenStream } from '../fixtures/generate';
import { FIXTURES, launchChromium, newPage, screenshot, tempDir } from './support/browser';
import { toOpenView } from './support/ui';

/** Enough chunks that a scan takes well over a second on the shared 2-core machine. */
const STREAMS = 30;
const PER_STREAM = 1000;
const TOTAL = STREAMS * PER_STREAM;

let host: RunningHost;
let browser: Browser;
let tmp: { dir: string; remove: () => Promise<void> };
let bigStore: string;

beforeAll(async () => {
  tmp = await tempDir('long');
  const content = jsonLines(30);
  const streams: GenStream[] = Array.from({ length: STREAMS }, (_, s) => ({
    name: `2026-11-${String(1 + (s % 28)).padStart(2, '0')}T${String(s % 24).padStart(2, '0')}:00:00`,
    chunks: Array.from({ length: PER_STREAM }, (_, i) => ({ name: `${1000 + i}-${1764417600 + s * PER_STREAM + i}.flb`, meta: `app.s${s % 5}`, content })),
  }));
  const { storeDir } = await generateStore(path.join(tmp.dir, 'store'), { roots: [{ bucket: 'big-bucket', streams, seqIndex: { '0': '42' } }] });
  bigStore = storeDir;
  host = await startHost({ stateDir: path.join(tmp.dir, 'state') });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await tmp?.remove();
});

async function openUi(): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await newPage(browser);
  await page.goto(host.url);
  await toOpenView(page);
  return { page, errors };
}

async function go(page: Page, view: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: new RegExp(`^${view}`) })
    .click();
}

describe('long work in Chromium', () => {
  it(`cancels the scan of a ${TOTAL}-chunk store from the task bar; the app keeps working`, async () => {
    const { page, errors } = await openUi();
    await page.getByLabel('Path', { exact: true }).fill(bigStore);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const task = page.getByTestId('task').filter({ hasText: 'Scanning' });
    await task.getByRole('button', { name: 'Cancel' }).click();
    const notice = page.getByTestId('notice');
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toContain(`Opening ${bigStore} was cancelled: nothing was opened`);
    await task.waitFor({ state: 'detached' });
    // no error page: still on Open, no alert, no store
    expect(await page.getByRole('alert').count()).toBe(0);
    await expect(page.getByTestId('store-name').textContent()).resolves.toBe('No store open');
    expect(
      await page
        .getByRole('navigation', { name: 'Views' })
        .getByRole('button', { name: /^Overview/ })
        .isDisabled(),
    ).toBe(true);
    await screenshot(page, '13-scan-cancelled');
    // and the app still works
    await page.getByRole('button', { name: 'Open the demo store' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByTestId('finding').first().waitFor();
    expect(await page.getByTestId('notice').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('cancels a rescan and keeps showing the previous scan', async () => {
    const { page, errors } = await openUi();
    await page.getByLabel('Path', { exact: true }).fill(bigStore);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor({ timeout: 60_000 });
    await go(page, 'Chunks');
    const count = page.getByTestId('chunk-count');
    await expect(count.textContent()).resolves.toBe(`${TOTAL.toLocaleString('en-US')} of ${TOTAL.toLocaleString('en-US')} chunks`);
    await page.getByRole('banner').getByRole('button', { name: 'Rescan' }).click();
    const task = page.getByTestId('task').filter({ hasText: 'Rescanning' });
    await task.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('notice').waitFor();
    await expect(page.getByTestId('notice').textContent()).resolves.toContain('Rescan cancelled: the views still show the previous scan.');
    await task.waitFor({ state: 'detached' });
    expect(await page.getByRole('alert').count()).toBe(0);
    await expect(page.getByRole('heading', { name: 'Chunks' }).count()).resolves.toBe(1);
    await expect(count.textContent()).resolves.toBe(`${TOTAL.toLocaleString('en-US')} of ${TOTAL.toLocaleString('en-US')} chunks`);
    await page.getByTestId('chunk-row').first().waitFor();
    await screenshot(page, '14-rescan-cancelled');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('imports the Fluent Bit config and an offline listing as files from the Open view', async () => {
    const scenario = path.join(FIXTURES, 'index-reset');
    const { page, errors } = await openUi();
    await page.getByLabel('Path', { exact: true }).fill(path.join(scenario, 'store-during-run2.tar.gz'));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await go(page, 'Open');
    const context = page.getByRole('region', { name: 'Context for the opened store' });
    await context.getByRole('region', { name: 'Fluent Bit config' }).locator('input[type=file]').setInputFiles(path.join(scenario, 'fluent-bit.conf'));
    await context.getByText(/Read fluent-bit\.conf \(classic\): 1 output/).waitFor();
    await expect(context.textContent()).resolves.toContain('bucket fb-index-reset, key format /$TAG/%Y/%m/%d/%H_%M_%S-$INDEX');
    await context.getByTestId('offline-input').setInputFiles(path.join(scenario, 's3api-list-objects-v2.json'));
    await context.getByTestId('offline-loaded').waitFor();
    await expect(context.getByTestId('offline-loaded').textContent()).resolves.toBe('Loaded: s3api-list-objects-v2.json (24 objects).');
    await screenshot(page, '15-open-context');
    // the diagnosis now compares the index with the bucket
    await go(page, 'Overview');
    await page.getByText('INDEX_BEHIND_BUCKET').waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
