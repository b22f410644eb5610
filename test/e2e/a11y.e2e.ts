/**
 * Accessibility of every view, in light and in dark (issue 12, done-when): axe-core finds no
 * serious or critical issue. The views are shown with content — the writable demo copy with its
 * config and listing, a chunk in the Inspector, the index chart, a plan under review, a history
 * entry, an export preview — so the check sees what an operator sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHost, type RunningHost } from '../../electron/host';
import { seriousViolations, type AxeIssue } from './support/axe';
import { launchChromium, newPage, screenshot, tempDir } from './support/browser';
import { go, toOpenView } from './support/ui';

let host: RunningHost;
let browser: Browser;
let state: { dir: string; remove: () => Promise<void> };

beforeAll(async () => {
  state = await tempDir('a11y');
  host = await startHost({ stateDir: state.dir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await state?.remove();
});

/** Each view, brought into a state with its content. */
const VIEWS: [string, (page: Page) => Promise<void>][] = [
  ['Open', async () => {}],
  ['Overview', async (page) => void (await page.getByTestId('checks').waitFor())],
  ['Chunks', async (page) => void (await page.getByTestId('chunk-row').first().waitFor())],
  [
    'Inspector',
    async (page) => {
      await go(page, 'Chunks');
      await page.getByTestId('chunk-row').first().click();
      await page.getByTestId('layout').waitFor();
      await page.getByTestId('records').waitFor();
    },
  ],
  ['Index & S3', async (page) => void (await page.getByTestId('index-chart').locator('canvas').waitFor())],
  [
    'Repair',
    async (page) => {
      await page.getByRole('button', { name: 'Plan (dry run)' }).click();
      await page.getByRole('heading', { name: /^Plan:/ }).waitFor();
    },
  ],
  ['Replay', async (page) => void (await page.getByTestId('s3-target').waitFor())],
  ['Multipart', async (page) => void (await page.getByTestId('s3-target').waitFor())],
  ['History', async (page) => void (await page.getByTestId('history').waitFor())],
  [
    'Export',
    async (page) => {
      await page.getByRole('button', { name: 'Preview Markdown' }).click();
      await page.getByTestId('export-preview').waitFor();
    },
  ],
];

describe('accessibility (axe-core) of every view', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`${scheme}: no serious or critical issue on any view`, async () => {
      const { page, errors } = await newPage(browser, { colorScheme: scheme });
      await page.goto(host.url);
      await toOpenView(page);
      await page.getByRole('button', { name: 'Open a writable copy of the demo' }).click();
      await page.getByTestId('demo-copy').waitFor();
      // one applied repair, so the History view has an entry and Repair a result to show
      await go(page, 'Repair');
      await page.getByRole('button', { name: 'Plan (dry run)' }).click();
      await page.getByLabel('Bucket name to confirm').fill('fb-index-reset');
      await page.getByRole('button', { name: 'Apply', exact: true }).click();
      await page.getByTestId('apply-result').waitFor();
      const found: Record<string, AxeIssue[]> = {};
      for (const [view, prepare] of VIEWS) {
        await go(page, view);
        await prepare(page);
        const issues = await seriousViolations(page);
        if (issues.length) found[view] = issues;
        await screenshot(page, `a11y-${scheme}-${view.replace(/\W+/g, '-').toLowerCase()}`);
      }
      expect(found).toEqual({});
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});
