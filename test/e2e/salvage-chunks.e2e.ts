/**
 * Salvage from the app's Chunks view, in Chromium against the real engine (loopback host):
 * - a copy of a real storage.path (Fluent Bit 5.1.1 killed with storage.checksum on; what the real
 *   binary did with each chunk at its next start is in measurements.json): the Overview's storage
 *   picture has its backlog per input and says it is a storage.path; the Inspector shows a chunk's
 *   input, tag, CRC, event format, records and what each version does; one chunk is salvaged from
 *   the Chunks view (plan reviewed → confirmed → verified result), is then valid, and is undone;
 * - a store_dir bucket root with a chunk the S3 output rejects (wrong magic): Salvage is offered on
 *   it and not on a valid chunk (with the reason), applied, and undone.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { encodeChunk } from '../../electron/engine/chunk';
import { startHost, type RunningHost } from '../../electron/host';
import { seriousViolations } from './support/axe';
import { FIXTURES, launchChromium, newPage, screenshot, tempDir } from './support/browser';
import { measuredRun, STORAGE_PATH_FIXTURES } from '../support/storage-path-measured';

const SP = STORAGE_PATH_FIXTURES;
const measured = measuredRun('5.1.1', 'kill-checksum-on');

let browser: Browser;
let tmp: { dir: string; remove: () => Promise<void> };
let host: RunningHost;

beforeAll(async () => {
  tmp = await tempDir('salvage-chunks');
  browser = await launchChromium();
  host = await startHost({ stateDir: path.join(tmp.dir, 'state') });
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await tmp?.remove();
});

const nav = (page: Page, name: string) =>
  page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: new RegExp(`^${name}`) })
    .click();

async function open(page: Page, p: string) {
  await page.goto(host.url);
  // The app lands on a store the host still has open (an earlier test's): go to the Open view.
  await page.locator('.app[data-ready="true"]').waitFor();
  await nav(page, 'Open');
  await page.getByLabel('Path', { exact: true }).fill(p);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
}

/** The Inspector's value for a key. */
const fact = (page: Page, key: string) =>
  page
    .getByTestId('sp-inspector')
    .locator('.kv-row', { has: page.locator('dt', { hasText: key }) })
    .locator('dd');

/** Review the plan under the Chunks view, type the phrase, apply; the verified result's heading. */
async function applyReviewed(page: Page, phrase: string) {
  const review = page.getByTestId('salvage-review');
  await review.getByLabel('Bucket name to confirm').fill(phrase);
  await review.getByRole('button', { name: 'Apply the salvage' }).click();
  const result = review.getByTestId('apply-result');
  await result.waitFor();
  return (await result.locator('h4').textContent())!;
}

describe('Salvage from the Chunks view', () => {
  it('a storage.path: storage picture, Inspector facts, salvage of one chunk, undo', async () => {
    execFileSync('tar', ['-xzf', path.join(SP, 'v5.1.1', 'kill-checksum-on', 'store.tar.gz'), '-C', tmp.dir]);
    const store = path.join(tmp.dir, 'store');
    const [first, second] = measured['checksum-on'].formatCheckFailed;
    const chunkOf = (name: string) => measured.chunks.find((c) => c.chunk === name)!;
    const { page, errors } = await newPage(browser);
    await open(page, store);
    await page.getByTestId('storage-path').waitFor();

    // Overview: the storage picture of the storage.path, per input.
    await nav(page, 'Overview');
    const picture = page.getByTestId('storage-path-picture');
    await picture.waitFor();
    await expect(picture.textContent()).resolves.toContain('not an S3 store_dir');
    const rows = picture.getByRole('table', { name: 'storage.path backlog by input' }).locator('tbody tr');
    await expect(rows.count()).resolves.toBe(2);
    for (const [i, name] of [first, second].entries()) {
      const c = chunkOf(name);
      await expect(rows.nth(i).locator('th').textContent()).resolves.toBe(`${name.split('/')[0]} 1 rejected at the next start (${c.records} records)`);
      await expect(rows.nth(i).locator('td').first().textContent()).resolves.toBe('1');
      await expect(rows.nth(i).locator('td').last().textContent()).resolves.toBe(String(c.records));
    }
    await screenshot(page, 'salvage-storage-path-picture');
    expect(await seriousViolations(page)).toEqual([]);

    // Chunks: both chunks Fluent Bit rejected are offered for salvage.
    await nav(page, 'Chunks');
    const table = page.getByTestId('sp-chunks');
    await table.waitFor();
    const row = (name: string) => table.locator(`tr[data-path="${name}"]`);
    for (const name of [first, second]) {
      await expect(row(name).locator('td').nth(4).textContent()).resolves.toBe('invalid');
      expect(
        await row(name)
          .getByRole('button', { name: `Salvage ${name}` })
          .isDisabled(),
      ).toBe(false);
    }

    // Inspector: the facts of the first chunk.
    await row(first)
      .getByRole('button', { name: first.split('/')[1], exact: true })
      .click();
    await page.getByTestId('sp-inspector').waitFor();
    await expect(fact(page, 'Input instance').textContent()).resolves.toBe(`${first.split('/')[0]} (dummy input, instance 0)`);
    await expect(fact(page, 'Tag (metadata)').textContent()).resolves.toBe(chunkOf(first).tag);
    await expect(fact(page, 'CRC').textContent()).resolves.toMatch(/^invalid: .*stale after a crash/);
    await expect(fact(page, 'Event type').textContent()).resolves.toBe('logs');
    await expect(fact(page, 'Event format').textContent()).resolves.toBe('[[ts, metadata], record] (Fluent Bit 2.1 and later)');
    await expect(fact(page, 'Records').textContent()).resolves.toBe(`${chunkOf(first).records} record(s) decoded`);
    await expect(fact(page, 'Torn last record').textContent()).resolves.toBe('none');
    const versions = page.getByTestId('sp-versions').locator('tbody tr');
    await expect(versions.allTextContents()).resolves.toEqual(['1.9.10', '3.2.10', '4.2.8', '5.0.9', '5.1.1'].map((v) => `${v}rejectloadno`));
    // The records, decoded from msgpack: the dummy input's record, the count the binary delivered.
    const recs = page.getByTestId('sp-records');
    await recs.locator('li').first().waitFor();
    await expect(recs.locator('.section-head .muted').textContent()).resolves.toBe(`1–${chunkOf(first).records} of ${chunkOf(first).records}`);
    await expect(recs.locator('li').count()).resolves.toBe(chunkOf(first).records);
    expect(JSON.parse((await recs.locator('li').first().locator('code').textContent())!)).toMatchObject({
      record: { msg: chunkOf(first).tag, n: 1 },
    });
    await screenshot(page, 'salvage-storage-path-inspector');
    expect(await seriousViolations(page)).toEqual([]);

    // Salvage the first chunk from the Chunks view: plan → typed confirmation → verified result.
    await nav(page, 'Chunks');
    await row(first)
      .getByRole('button', { name: `Salvage ${first}` })
      .click();
    const review = page.getByTestId('salvage-review');
    await review.getByRole('heading', { name: /^Plan: Salvage 1 chunk\(s\)/ }).waitFor();
    await expect(review.locator('ol.steps > li code:not(.kind)').allTextContents()).resolves.toEqual([path.join(store, first)]);
    await expect(review.getByRole('heading', { name: /^Plan:/ }).textContent()).resolves.toBe(
      `Plan: Salvage 1 chunk(s) of ${store}: ${chunkOf(first).records} record(s) kept.`,
    );
    await screenshot(page, 'salvage-storage-path-plan');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await applyReviewed(page, 'store')).toBe('Applied — verified');
    await expect(row(first).locator('td').nth(4).textContent()).resolves.toBe('valid');
    await expect(row(first).locator('td').nth(7).textContent()).resolves.toBe('load');
    expect(
      await row(first)
        .getByRole('button', { name: `Salvage ${first}` })
        .isDisabled(),
    ).toBe(true);
    await expect(row(first).locator('td').nth(8).textContent()).resolves.toMatch(/its CRC is valid .*Fluent Bit loads it/);
    await expect(row(second).locator('td').nth(4).textContent()).resolves.toBe('invalid');
    await row(first)
      .getByRole('button', { name: first.split('/')[1], exact: true })
      .click();
    await expect(fact(page, 'CRC').textContent()).resolves.toMatch(/^valid: /);
    await expect(fact(page, 'Records').textContent()).resolves.toBe(`${chunkOf(first).records} record(s) decoded`);

    // Undo: the exact previous bytes, so the CRC is stale again.
    await nav(page, 'Chunks');
    await review.getByRole('button', { name: 'Undo this change…' }).click();
    await review.getByRole('heading', { name: /^Plan: Put back/ }).waitFor();
    expect(await applyReviewed(page, 'store')).toBe('Applied — verified');
    await expect(row(first).locator('td').nth(4).textContent()).resolves.toBe('invalid');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a store_dir: Salvage offered on the chunk the S3 output rejects, not on a valid one; applied and undone', async () => {
    const root = path.join(tmp.dir, 'bucket');
    const streamName = '2026-12-06T02:00:00';
    mkdirSync(path.join(root, streamName), { recursive: true });
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `{"n":${i},"log":"line ${i}"}\n`).join('');
    const bad = encodeChunk({ meta: 'app.a', content: lines(3), crc: false });
    bad[0] = 0; // wrong magic: rejected at start, never uploaded nor deleted
    writeFileSync(path.join(root, streamName, '1000-1'), bad);
    writeFileSync(path.join(root, streamName, '1000-2'), encodeChunk({ meta: 'app.b', content: lines(2), crc: false }));
    const { page, errors } = await newPage(browser);
    await open(page, root);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await nav(page, 'Chunks');
    const bar = page.getByTestId('store-salvage');
    await bar.waitFor();
    const items = bar.getByTestId('salvage-item');
    await expect(items.evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))).resolves.toEqual([`${streamName}/1000-1`]);
    await bar.getByRole('button', { name: `Salvage ${streamName}/1000-1` }).click();
    const review = page.getByTestId('salvage-review');
    await review.getByRole('heading', { name: /^Plan: Salvage 1 chunk\(s\)/ }).waitFor();
    await expect(review.getByRole('heading', { name: /^Plan:/ }).textContent()).resolves.toBe(`Plan: Salvage 1 chunk(s) of ${root}: 3 line(s) kept.`);
    expect(await applyReviewed(page, 'bucket')).toBe('Applied — verified');
    // Rescanned: the chunk now loads; nothing is left to salvage.
    const status = page.locator(`[data-testid="chunk-row"][data-path="${streamName}/1000-1"] .c-status`);
    await expect.poll(() => status.textContent()).toBe('ok');
    await expect(bar.count()).resolves.toBe(0); // no chunk left to list
    await expect(review.getByTestId('apply-result').count()).resolves.toBe(1); // the result and its undo stay
    await screenshot(page, 'salvage-store-dir-applied');
    expect(await seriousViolations(page)).toEqual([]);

    await review.getByRole('button', { name: 'Undo this change…' }).click();
    await review.getByRole('heading', { name: /^Plan: Put back/ }).waitFor();
    expect(await applyReviewed(page, 'bucket')).toBe('Applied — verified');
    await expect.poll(() => status.textContent()).toBe('bad-magic');
    await expect(items.evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))).resolves.toEqual([`${streamName}/1000-1`]);

    // The valid chunk, selected (its row opens the Inspector): not offered, with why.
    await page.locator(`[data-testid="chunk-row"][data-path="${streamName}/1000-2"]`).click();
    await nav(page, 'Chunks');
    const valid = bar.locator(`[data-path="${streamName}/1000-2"]`);
    expect(await valid.getByRole('button', { name: 'Salvage' }).isDisabled()).toBe(true);
    await expect(valid.textContent()).resolves.toContain('not offered: Fluent Bit loads it: nothing to salvage');

    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("a store's storage picture shows the config's storage.path per input, said to be one", async () => {
    const dir = path.join(tmp.dir, 'picture');
    mkdirSync(dir);
    execFileSync('tar', ['-xzf', path.join(SP, 'v5.1.1', 'kill-checksum-on', 'store.tar.gz'), '-C', dir]);
    const store = path.join(dir, 'store');
    const conf = path.join(dir, 'fluent-bit.conf');
    const scen = path.join(FIXTURES, 'index-reset');
    writeFileSync(
      conf,
      readFileSync(path.join(scen, 'fluent-bit.conf'), 'utf8').replace('[SERVICE]', `[SERVICE]\n    storage.path ${store}\n    storage.checksum on`),
    );
    const { page, errors } = await newPage(browser);
    await open(page, path.join(scen, 'store-during-run2.tar.gz'));
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await expect(page.getByTestId('storage-path-picture').count()).resolves.toBe(0);
    await nav(page, 'Open');
    await page.getByLabel('Config path').fill(conf);
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page.getByText(/Read .*fluent-bit\.conf/).waitFor();
    await nav(page, 'Overview');
    const picture = page.getByTestId('storage').getByTestId('storage-path-picture');
    await picture.waitFor();
    await expect(picture.textContent()).resolves.toContain(`${store}, the config’s [SERVICE] storage.path, is Fluent Bit’s engine buffer`);
    const rows = picture.getByRole('table', { name: 'storage.path backlog by input' }).locator('tbody tr');
    const [first, second] = measured['checksum-on'].formatCheckFailed;
    const records = (name: string) => measured.chunks.find((c) => c.chunk === name)!.records;
    await expect(rows.locator('th').allTextContents()).resolves.toEqual(
      [first, second].map((n) => `${n.split('/')[0]} 1 rejected at the next start (${records(n)} records)`),
    );
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
