/** Moves through the UI the way a user does: the Open view, a typed path, a view of the navigation. */
import type { Page } from 'playwright-core';

/** After page.goto: the app lands on a store the engine already has open (issue 12, item 1), else on Open. Go to Open either way. */
export async function toOpenView(page: Page): Promise<void> {
  await page.locator('.app[data-ready="true"]').waitFor();
  await go(page, 'Open');
  await page.getByRole('heading', { name: 'Open a Fluent Bit store' }).waitFor();
}

export async function go(page: Page, view: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: new RegExp(`^${view.replace(/[&]/g, '\\$&')}`) })
    .click();
}

export async function openPath(page: Page, p: string): Promise<void> {
  await page.getByLabel('Path', { exact: true }).fill(p);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}
