/**
 * Replay end to end: a real Fluent Bit backlog (temp copy, root renamed to a fresh bucket) is
 * replayed from the UI to the local S3 server (Ceph RGW from test/support/s3-global-setup.ts).
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startHost, type RunningHost } from '../../electron/host';
import { s3Enabled, testS3 } from '../support/s3';
import { launchChromium, newPage, screenshot, tempDir } from './support/browser';
import { useTestS3Credentials } from './support/s3-env';
import { backlogStore } from './support/backlog';
import { go, loadConfigFromChecklist, openPath, toOpenView } from './support/ui';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

describe.skipIf(!s3Enabled() || !process.env.S3_TEST_ENDPOINT)('replay from the UI to local S3', () => {
  let host: RunningHost;
  let browser: Browser;
  let tmp: { dir: string; remove: () => Promise<void> };
  let restoreEnv: (() => void) | null = null;

  beforeAll(async () => {
    tmp = await tempDir('replay');
    restoreEnv = useTestS3Credentials();
    host = await startHost({ stateDir: tmp.dir });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await tmp?.remove();
    restoreEnv?.();
  });

  it('plans the backlog, replays it create-only with progress, and the objects are in the bucket', async () => {
    const s3 = testS3();
    const bucket = await s3.createBucket('e2e-replay');
    const { storeDir, confPath } = await backlogStore(tmp.dir, bucket, s3.endpoint);

    const { page, errors } = await newPage(browser);
    await page.goto(host.url);
    await page.getByLabel('Path', { exact: true }).fill(storeDir);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Open/ }).click();
    await page.getByLabel('Config path').fill(confPath);
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page.getByText(/Read .*fluent-bit\.conf/).waitFor();
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: /^Index & S3/ })
      .click();
    await page.getByLabel('Endpoint').fill(s3.endpoint);
    await page.getByLabel('Region').fill(s3.region);
    await page.getByLabel('Path-style addressing').check();
    // $INDEX values are allocated only from bucket evidence (the same rule in every door)
    await page.getByRole('button', { name: 'List and compare' }).click();
    await page.getByTestId('evidence-summary').waitFor();
    // the key format is time-partitioned: a focused listing, which says its window and its time (issue 18)
    await expect(page.getByTestId('evidence-kind').textContent()).resolves.toMatch(
      /^Focused listing: keys from \d{4}-\S+ on and the newest partition of each tag \(older keys not listed\); taken \d{4}-/,
    );
    // "List every key" (the CLI's --full-listing) lists again, as a task
    const firstTaken = (await page.getByTestId('evidence-kind').textContent())!;
    await page.getByRole('button', { name: 'List every key' }).click();
    await expect.poll(() => page.getByTestId('evidence-kind').textContent(), { timeout: 60_000, interval: 100 }).not.toBe(firstTaken);
    await expect(page.getByTestId('evidence-kind').textContent()).resolves.toMatch(/^Full listing: every key the key format can reach; taken \d{4}-/);
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: /^Replay/ })
      .click();
    await page.getByLabel(/Include the active/).check();
    await page.getByRole('button', { name: 'Plan replay' }).click();
    const table = page.getByTestId('replay-table');
    await table.waitFor();
    const planned = await table.locator('tbody tr').count();
    expect(planned).toBeGreaterThan(0);
    await page.getByLabel('Bucket name to confirm').fill(bucket);
    await screenshot(page, '09-replay-plan');
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    const result = page.getByTestId('apply-result');
    await result.waitFor({ timeout: 60_000 });
    await expect(result.textContent()).resolves.toContain('Applied');
    await screenshot(page, '10-replay-done');
    // the rows show the state after the run, not the plan (issue 18 case 4)
    const states = await table.locator('tbody tr .badge').allTextContents();
    expect(states).toHaveLength(planned);
    expect(new Set(states)).toEqual(new Set(['done']));
    // a replay cannot be undone (its objects are in the bucket): no undo is offered that would be refused
    expect(await page.getByRole('button', { name: 'Undo this change…' }).count()).toBe(0);
    // our own replay made the listing stale: the app lists the bucket again by itself, and the
    // new listing holds the replayed objects (never the pre-replay listing)
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: /^Index & S3/ })
      .click();
    await expect.poll(() => page.getByTestId('evidence-summary').textContent(), { timeout: 60_000, interval: 100 }).toMatch(new RegExp(`: ${planned} objects`));
    expect(await page.getByTestId('evidence-kind').textContent()).not.toMatch(/stale/);

    const listed = await s3.client().send(new ListObjectsV2Command({ Bucket: bucket }));
    expect(listed.KeyCount ?? 0).toBeGreaterThanOrEqual(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("an offline listing is stale after the app's own replay to that bucket: the checklist says so, the plan is refused until Refresh evidence reads a new export (issue 18)", async () => {
    const s3 = testS3();
    const bucket = await s3.createBucket('e2e-stale');
    const dir = path.join(tmp.dir, 'stale');
    await mkdir(dir, { recursive: true });
    const { storeDir, confPath } = await backlogStore(dir, bucket, s3.endpoint);
    // the bucket is empty: a complete listing of it, as `aws s3api list-objects-v2` writes it
    const listing = path.join(dir, 'listing.json');
    await writeFile(listing, JSON.stringify({ Name: bucket, Prefix: '', KeyCount: 0, MaxKeys: 1000, IsTruncated: false }));

    const { page, errors } = await newPage(browser);
    await page.goto(host.url);
    await toOpenView(page);
    await openPath(page, storeDir);
    await loadConfigFromChecklist(page, confPath);
    const checks = page.getByTestId('checks');
    await checks
      .getByTestId('check-listing-0')
      .getByLabel(/path on the Store Doctor host/)
      .fill(listing);
    await checks.getByTestId('check-listing-0').getByRole('button', { name: 'Read' }).click();
    await page.getByText('✓ Bucket evidence: full listing (every key the key format can reach)').waitFor();

    await go(page, 'Replay');
    await page.getByLabel('Endpoint').fill(s3.endpoint);
    await page.getByLabel('Region').fill(s3.region);
    await page.getByLabel('Path-style addressing').check();
    await page.getByLabel(/Include the active/).check();
    await page.getByRole('button', { name: 'Plan replay' }).click();
    await page.getByTestId('replay-table').waitFor();
    await page.getByLabel('Bucket name to confirm').fill(bucket);
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    await expect(page.getByTestId('apply-result').textContent()).resolves.toContain('Applied');

    // the listing was taken before our own write to the bucket: stale in the checklist, and no safe value on it
    await go(page, 'Overview');
    await checks.getByText(/✗ Bucket evidence: STALE listing/).waitFor();
    await go(page, 'Index & S3');
    await expect(page.getByTestId('evidence-kind').textContent()).resolves.toMatch(/stale.*Store Doctor's replay wrote to bucket/);
    await screenshot(page, 'issue18-stale-after-replay');

    // a plan on it is refused, with "Refresh evidence" next to the refusal
    await go(page, 'Repair');
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    const refusals = page.getByRole('region', { name: 'Plan' }).getByTestId('refusals');
    await expect(refusals.textContent()).resolves.toMatch(/stale evidence: .*Store Doctor's replay wrote to bucket/);
    // the offline file did not change: read again, it is the same listing, and the app says so
    await refusals.getByRole('button', { name: 'Refresh evidence' }).click();
    await expect
      .poll(() => page.getByTestId('refresh-note').textContent(), { timeout: 30_000, interval: 100 })
      .toMatch(/the file did not change \(file time \d{4}-\S+\), so it is the same listing\. Export it again/);
    // exported again (the bucket now holds the replayed objects), then refreshed: no longer stale
    const now = await s3.client().send(new ListObjectsV2Command({ Bucket: bucket }));
    const contents = (now.Contents ?? []).map((c) => ({
      Key: c.Key,
      LastModified: c.LastModified?.toISOString(),
      ETag: c.ETag,
      Size: c.Size,
      StorageClass: 'STANDARD',
    }));
    expect(contents.length).toBeGreaterThan(0);
    await writeFile(listing, JSON.stringify({ Contents: contents, Name: bucket, Prefix: '', KeyCount: contents.length, MaxKeys: 1000, IsTruncated: false }));
    await go(page, 'Index & S3');
    await page.getByTestId('evidence-kind').getByRole('button', { name: 'Refresh evidence' }).click();
    // the marker (and with it the button) goes: the file's new time is the listing's time
    await expect.poll(() => page.getByTestId('evidence-kind').textContent(), { timeout: 30_000, interval: 100 }).not.toMatch(/stale evidence/);
    expect(await page.getByRole('button', { name: 'Refresh evidence' }).count()).toBe(0);
    await go(page, 'Overview');
    await checks.getByText('✓ Bucket evidence: full listing (every key the key format can reach)').waitFor();
    // and the plan is no longer refused
    await go(page, 'Repair');
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    // the new plan replaces the refused one (planned on the refreshed evidence)
    await expect.poll(() => page.getByRole('region', { name: 'Plan' }).textContent(), { timeout: 30_000, interval: 100 }).not.toMatch(/stale evidence/);
    expect(await page.getByRole('region', { name: 'Plan' }).getByTestId('refusals').count()).toBe(0);
    await screenshot(page, 'issue18-refreshed');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
