/** Moves through the UI the way a user does: the Open view, a typed path, a view of the navigation. */
import type { Page } from 'playwright-core';

/** After page.goto: the app lands on a store the engine already has open (issue 12, item 1), else on Open. Go to Open either way. */
export async function toOpenView(page: Page): Promise<void> {
  await page.locator('.app[data-ready="true"]').waitFor();
  await go(page, 'Open');
  await page.getByRole('heading', { name: 'Open a Fluent Bit store' }).waitFor();
}

/** Open a view and wait until it is the current one (its button marked, its content rendered in the same commit). */
export async function go(page: Page, view: string): Promise<void> {
  const button = page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: new RegExp(`^${view.replace(/[&]/g, '\\$&')}`) });
  await button.click();
  await page.waitForFunction((el) => el?.getAttribute('aria-current') === 'page', await button.elementHandle());
}

export async function openPath(page: Page, p: string): Promise<void> {
  await page.getByLabel('Path', { exact: true }).fill(p);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

/**
 * Load a Fluent Bit config from the Overview checklist by host path, and wait for the diagnosis
 * made with it (the checklist comes from the diagnosis: its rows before that are the old ones).
 */
export async function loadConfigFromChecklist(page: Page, configPath: string): Promise<void> {
  const checks = page.getByTestId('checks');
  await checks.getByLabel('Fluent Bit config: path on the Store Doctor host').fill(configPath);
  await checks.getByTestId('check-config').getByRole('button', { name: 'Read' }).click();
  await checks
    .getByTestId('check-config')
    .filter({ hasText: /^✓ Config/ })
    .waitFor();
}
