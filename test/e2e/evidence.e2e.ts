/**
 * Evidence with a scope and an age in the app (issue 18), in Chromium against the real engine:
 * a store opened without a config whose sequence/ a graceful stop deleted is never "no findings"
 * (case 5), and an offline listing becomes stale after the app's own replay to that bucket — the
 * checklist says so and the index repair no longer offers a safe value on it (staleness).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startHost, type RunningHost } from '../../electron/host';
import { FIXTURES, launchChromium, newPage, screenshot, tempDir } from './support/browser';
import { openPath } from './support/ui';

const SCENARIO = path.join(FIXTURES, 'index-reset');
const TAR = path.join(SCENARIO, 'store-after-run2.tar.gz');

let browser: Browser;
let host: RunningHost;
let tmp: { dir: string; remove: () => Promise<void> };

beforeAll(async () => {
  tmp = await tempDir('evidence');
  host = await startHost({ stateDir: path.join(tmp.dir, 'state') });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await tmp?.remove();
});

describe('evidence in the app', () => {
  it('no config, sequence/ deleted by a graceful stop: INDEX_STATE_UNKNOWN and a bucket-evidence row naming the bucket, never an all-clear', async () => {
    const dir = path.join(tmp.dir, 'noconf');
    execFileSync('mkdir', ['-p', dir]);
    execFileSync('tar', ['-xzf', TAR, '-C', dir]);
    const { page, errors } = await newPage(browser);
    await page.goto(host.url);
    await openPath(page, path.join(dir, 'store'));
    const checks = page.getByTestId('checks');
    await checks.getByTestId('check-root-fb-index-reset').waitFor();
    await expect(checks.getByTestId('check-root-fb-index-reset').textContent()).resolves.toMatch(
      /^✗ Bucket evidence for fb-index-reset: index state unknown — load the config/,
    );
    const card = page.locator('[data-testid="finding"][data-code="INDEX_STATE_UNKNOWN"]');
    await card.waitFor();
    await expect(card.textContent()).resolves.toMatch(/if an output on this root uses \$INDEX, a graceful stop deleted its index \(sequence\/ is missing\)/);
    expect(await page.getByText(/nothing looks wrong/).count()).toBe(0);
    await screenshot(page, 'issue18-no-config-overview');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
