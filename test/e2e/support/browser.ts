/** Chromium + the loopback host for e2e tests and the UI benchmark. */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const PROJECT_ROOT = path.resolve(__dirname, '../../..');
export const RESULTS_DIR = path.join(PROJECT_ROOT, 'test-results', 'e2e');
export const FIXTURES = path.join(PROJECT_ROOT, 'test', 'fixtures', 'fluent-bit-real');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page that fails the test on any uncaught page error or console error. */
export async function newPage(
  browser: Browser,
  opts: { colorScheme?: 'light' | 'dark'; width?: number; height?: number } = {},
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1360, height: opts.height ?? 900 }, colorScheme: opts.colorScheme ?? 'light' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return { page, errors };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

export async function tempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `sd-e2e-${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
