/**
 * The Guard panel in Chromium against the real engine: a live copy of the crash-during-run store
 * with its config, the guard started from the panel, sequence/ deleted as Fluent Bit's graceful
 * stop deletes it — the restore is seen in the panel and on disk, then the guard is stopped.
 * Screenshot guard-restored under test-results/e2e/.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHost, type RunningHost } from '../../electron/host';
import { crashFixtureConfig } from '../support/wait';
import { FIXTURES, launchChromium, newPage, screenshot, tempDir } from './support/browser';
import { go, loadConfigFromChecklist, openPath, toOpenView } from './support/ui';

let host: RunningHost;
let browser: Browser;
let tmp: { dir: string; remove: () => Promise<void> };
let page: Page;
let errors: string[];
let root: string;

beforeAll(async () => {
  tmp = await tempDir('guard');
  execFileSync('tar', ['-xzf', path.join(FIXTURES, 'crash-during-run', 'store-after-crash.tar.gz'), '-C', tmp.dir]);
  const storeDir = path.join(tmp.dir, 'store');
  root = path.join(storeDir, 'fb-crash');
  host = await startHost({ stateDir: path.join(tmp.dir, 'state') });
  browser = await launchChromium();
  ({ page, errors } = await newPage(browser));
  await page.goto(host.url);
  await toOpenView(page);
  await openPath(page, storeDir);
  await loadConfigFromChecklist(page, crashFixtureConfig(storeDir, path.join(tmp.dir, 'fluent-bit.conf')));
});

afterAll(async () => {
  await page?.context().close();
  await browser?.close();
  await host?.close();
  await tmp?.remove();
});

const seqFile = () => path.join(root, 'sequence', 'index_metadata', 'seq_index_0');
const text = async (testId: string) => (await page.getByTestId(testId).first().textContent())?.trim();

describe('the Guard panel', () => {
  it('starts the guard, shows the kept value, and the restore after a graceful-stop deletion of sequence/', async () => {
    await go(page, 'Guard');
    await expect(text('guard-state')).resolves.toBe('off');
    await page.getByRole('button', { name: 'Start the guard' }).click();
    await page
      .getByTestId('guard-state')
      .filter({ hasText: /^watching$/ })
      .waitFor();
    // no process uses the root: the value on disk is kept, and final
    await page.getByTestId('guard-kept').filter({ hasText: '6 (final)' }).waitFor();
    await expect(text('guard-restores')).resolves.toBe('0');

    rmSync(path.join(root, 'sequence'), { recursive: true }); // as Fluent Bit's graceful stop does
    await page.getByTestId('guard-output-restores').filter({ hasText: /^1$/ }).waitFor({ timeout: 30_000 });
    await page
      .getByTestId('guard-state')
      .filter({ hasText: /^watching$/ })
      .waitFor();
    await expect(text('guard-restores')).resolves.toBe('1');
    expect(readFileSync(seqFile(), 'latin1')).toBe('6');
    await expect(page.getByTestId('guard-log').textContent()).resolves.toMatch(/restored seq_index_0 of fb-crash/);
    await screenshot(page, 'guard-restored');

    await page.getByRole('button', { name: 'Stop the guard' }).click();
    await page.getByRole('button', { name: 'Start the guard' }).waitFor();
    expect(errors).toEqual([]);
  });
});
