/**
 * The app on a Fluent Bit engine buffer (`storage.path`, a real one: Fluent Bit 5.1.1 killed with
 * storage.checksum on), in Chromium against the real engine: opening it shows it read-only
 * (backlog per input, the chunks Fluent Bit rejected at its next start — measurements.json — and
 * the limits) instead of the refusal; the salvage plan is reviewed, applied after typing its
 * confirmation, and the chunks then load.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startHost, type RunningHost } from '../../electron/host';
import { launchChromium, newPage, screenshot, tempDir } from './support/browser';
import { measuredRun, STORAGE_PATH_FIXTURES } from '../support/storage-path-measured';

const SP = STORAGE_PATH_FIXTURES;
const measured = measuredRun('5.1.1', 'kill-checksum-on');

let browser: Browser;
let tmp: { dir: string; remove: () => Promise<void> };
let host: RunningHost;

beforeAll(async () => {
  tmp = await tempDir('storage-path');
  browser = await launchChromium();
  host = await startHost({ stateDir: path.join(tmp.dir, 'state') });
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await tmp?.remove();
});

describe('a storage.path in the app', () => {
  it('is shown read-only, and its salvage is reviewed and applied with confirmation', async () => {
    execFileSync('tar', ['-xzf', path.join(SP, 'v5.1.1', 'kill-checksum-on', 'store.tar.gz'), '-C', tmp.dir]);
    const store = path.join(tmp.dir, 'store');
    const { page, errors } = await newPage(browser);
    await page.goto(host.url);
    await page.getByLabel('Path', { exact: true }).fill(store);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const panel = page.getByTestId('storage-path');
    await panel.waitFor();
    const rows = panel.getByTestId('storage-path-input');
    await expect(rows.count()).resolves.toBe(2);
    for (const [i, input] of ['dummy.0', 'dummy.1'].entries()) {
      const records = measured.chunks.filter((c) => c.chunk.startsWith(`${input}/`)).reduce((s, c) => s + c.records, 0);
      await expect(rows.nth(i).locator('td').allTextContents()).resolves.toEqual(expect.arrayContaining([input, '1', String(records)]));
    }
    const rejected = await panel.getByTestId('storage-path-rejected').allTextContents();
    expect(rejected.map((t) => t.split(':')[0]).sort()).toEqual([...measured['checksum-on'].formatCheckFailed].sort());
    await screenshot(page, 'storage-path-read-only');
    await panel.getByRole('button', { name: 'Review the salvage plan' }).click();
    const plan = panel.getByTestId('storage-path-plan');
    await plan.waitFor();
    await expect(plan.locator('ol > li').count()).resolves.toBe(measured['checksum-on'].formatCheckFailed.length);
    const apply = plan.getByRole('button', { name: 'Apply the salvage' });
    expect(await apply.isDisabled()).toBe(true);
    await plan.getByLabel(/to confirm/).fill('store');
    await apply.click();
    await panel.getByTestId('storage-path-result').waitFor();
    await expect(panel.getByTestId('storage-path-result').textContent()).resolves.toMatch(/\(verified\)/);
    await panel.getByText('None in what was read.').waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
