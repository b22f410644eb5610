/**
 * Issue 12, item 6: before anything reaches the bucket the app shows where it goes — endpoint,
 * region, addressing style, bucket, credential source and profile, prefilled from the Fluent Bit
 * config, never a secret — with Test connection (one HeadBucket), SDK errors as sentences that
 * say nothing was changed, and the connection saved per bucket. Against the local S3 (Ceph RGW).
 */
import net from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startHost, type RunningHost } from '../../electron/host';
import { s3Enabled, testS3 } from '../support/s3';
import { launchChromium, newPage, screenshot, tempDir } from './support/browser';
import { useTestS3Credentials } from './support/s3-env';
import { backlogStore } from './support/backlog';
import { go, loadConfigFromChecklist, openPath, toOpenView } from './support/ui';

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe.skipIf(!s3Enabled() || !process.env.S3_TEST_ENDPOINT)('the S3 target before a write (item 6)', () => {
  let host: RunningHost;
  let browser: Browser;
  let tmp: { dir: string; remove: () => Promise<void> };
  let restoreEnv: (() => void) | null = null;

  beforeAll(async () => {
    tmp = await tempDir('console-s3');
    restoreEnv = useTestS3Credentials();
    host = await startHost({ stateDir: path.join(tmp.dir, 'state') });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await tmp?.remove();
    restoreEnv?.();
  });

  it('shows the resolved target from the config, tests it, explains a refused connection, and remembers it per bucket', async () => {
    const s3 = testS3();
    const bucket = await s3.createBucket('e2e-target');
    const { storeDir, confPath } = await backlogStore(tmp.dir, bucket, s3.endpoint);

    const { page, errors } = await newPage(browser);
    await page.goto(host.url);
    await toOpenView(page);
    await openPath(page, storeDir);
    await loadConfigFromChecklist(page, confPath);
    await page.getByTestId('check-listing-0').waitFor();
    await go(page, 'Replay');
    const target = page.getByTestId('s3-target');
    await target.locator('dl').waitFor();
    const text = (await target.textContent())!;
    expect(text).toContain(`Endpoint${s3.endpoint} from the Fluent Bit config`);
    expect(text).toMatch(/Region\S+ from the Fluent Bit config/);
    expect(text).toContain('Addressingpath-style');
    expect(text).toContain('environment variables (AWS_ACCESS_KEY_ID)');
    expect(text).not.toContain(s3.credentials.accessKeyId);
    expect(text).not.toContain(s3.credentials.secretAccessKey);
    await target.getByRole('button', { name: 'Test connection' }).click();
    const test = page.getByTestId('connection-test');
    await test.waitFor();
    await expect(test.textContent()).resolves.toMatch(new RegExp(`^✓ Bucket ${bucket} answered at .* \\(HeadBucket, HTTP 200\\).*Nothing was changed`));
    await screenshot(page, 'item06-s3-target-tested');

    // a wrong endpoint: the SDK's ECONNREFUSED becomes a sentence, and nothing was changed
    const port = await closedPort();
    await page.getByLabel('Endpoint').fill(`http://127.0.0.1:${port}`);
    await target.getByText(`http://127.0.0.1:${port}`).waitFor();
    await expect(target.textContent()).resolves.toContain('from this form');
    await target.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('connection-test').textContent()).resolves.toBe(
      `✗ Nothing answers at http://127.0.0.1:${port} (connection refused): check the endpoint and that the S3 server is running. Nothing was changed (HeadBucket only reads).`,
    );
    // the same for a listing
    await go(page, 'Index & S3');
    await page.getByRole('button', { name: 'List and compare' }).click();
    await expect(page.getByRole('alert').first().textContent()).resolves.toMatch(
      new RegExp(
        `^Listing the bucket failed: Nothing answers at http://127\\.0\\.0\\.1:${port} \\(connection refused\\).*Nothing was changed \\(a listing only reads\\)`,
      ),
    );
    await screenshot(page, 'item06-sdk-error-as-a-sentence');

    // saved for the bucket (no secret in the engine's state file), and prefilled the next time
    await page.getByLabel('Endpoint').fill(s3.endpoint);
    await page.getByRole('button', { name: `Save for ${bucket}` }).click();
    await page
      .getByTestId('s3-target')
      .getByText(/^Saved /)
      .waitFor();
    const saved = await readFile(path.join(tmp.dir, 'state', 'connections.json'), 'utf8');
    expect(JSON.parse(saved).connections[0]).toMatchObject({ bucket, connection: { endpoint: s3.endpoint } });
    expect(saved).not.toContain(s3.credentials.secretAccessKey);
    await page.reload();
    await page.locator('.app[data-ready="true"]').waitFor();
    await go(page, 'Replay');
    await expect(page.getByLabel('Endpoint').inputValue()).resolves.toBe(s3.endpoint);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
