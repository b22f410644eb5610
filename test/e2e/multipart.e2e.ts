/**
 * Multipart settlement end to end: the real interrupted-upload store (temp copy, root renamed to a
 * fresh bucket), a real multipart upload on the local S3 server (Ceph RGW) with the record's key,
 * the record rewritten to its upload id and ETags; then Multipart view → plan → confirm → applied.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CreateMultipartUploadCommand, HeadObjectCommand, ListMultipartUploadsCommand, UploadPartCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startHost, type RunningHost } from '../../electron/host';
import { encodeChunk } from '../../electron/engine/chunk';
import { s3Enabled, testS3 } from '../support/s3';
import { FIXTURES, launchChromium, newPage, screenshot, tempDir } from './support/browser';
import { useTestS3Credentials } from './support/s3-env';

const SCENARIO = path.join(FIXTURES, 'multipart-inflight');
/** The record's key in the fixture (its metadata holds it with a leading `/`). */
const KEY = 'app.big/2026/11/29/18_36_06-0';
const ORPHAN_KEY = 'app.big/2026/11/29/18_40_00-7';

async function uploadParts(client: S3Client, bucket: string, key: string, parts: Buffer[]): Promise<{ uploadId: string; etags: string[] }> {
  const created = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
  const uploadId = created.UploadId!;
  const etags: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const r = await client.send(
      new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: i + 1, Body: parts[i], ContentLength: parts[i].length }),
    );
    etags.push(r.ETag!.replace(/"/g, ''));
  }
  return { uploadId, etags };
}

describe.skipIf(!s3Enabled() || !process.env.S3_TEST_ENDPOINT)('multipart settlement from the UI against local S3', () => {
  let host: RunningHost;
  let browser: Browser;
  let tmp: { dir: string; remove: () => Promise<void> };
  let restoreEnv: (() => void) | null = null;

  beforeAll(async () => {
    tmp = await tempDir('multipart');
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

  it('plans the completion of the interrupted upload, applies it, and the record leaves the store', async () => {
    const s3 = testS3();
    const client = s3.client();
    const bucket = await s3.createBucket('e2e-multipart');
    execFileSync('tar', ['-xzf', path.join(SCENARIO, 'store-after-crash.tar.gz'), '-C', tmp.dir]);
    const storeDir = path.join(tmp.dir, 'store');
    const root = path.join(storeDir, bucket);
    await rename(path.join(storeDir, 'fb-multipart'), root);
    const conf = (await readFile(path.join(SCENARIO, 'fluent-bit.conf'), 'utf8'))
      .replace(/bucket\s+fb-multipart/, `bucket             ${bucket}`)
      .replace(/store_dir\s+\S+/, `store_dir          ${storeDir}`)
      .replace(/endpoint\s+\S+/, `endpoint           ${s3.endpoint}`);
    const confPath = path.join(tmp.dir, 'fluent-bit.conf');
    await writeFile(confPath, conf);

    // A real upload with the record's key: part 1 at the 5 MiB minimum, part 2 the (short) last part.
    const part1 = Buffer.alloc(5 * 1024 * 1024, 'a');
    const part2 = Buffer.from('{"svc":"big","msg":"last part"}\n'.repeat(100));
    const { uploadId, etags } = await uploadParts(client, bucket, KEY, [part1, part2]);
    // The local record, rewritten the way Fluent Bit writes it: `/<key>\n<uploadId>`, one line per part.
    const recordDir = path.join(root, 'multipart_upload_metadata');
    const [recordName] = await readdir(recordDir);
    const recordPath = path.join(recordDir, recordName);
    await writeFile(recordPath, encodeChunk({ meta: `/${KEY}\n${uploadId}`, content: etags.map((e, i) => `part_number=${i + 1}\tetag=${e}\n`).join('') }));
    // A server upload no local record knows about.
    const orphan = await uploadParts(client, bucket, ORPHAN_KEY, [part2]);

    const { page, errors } = await newPage(browser);
    const nav = page.getByRole('navigation', { name: 'Views' });
    await page.goto(host.url);
    await page.getByLabel('Path', { exact: true }).fill(storeDir);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await nav.getByRole('button', { name: /^Open/ }).click();
    await page.getByLabel('Config path').fill(confPath);
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page.getByText(/Read .*fluent-bit\.conf/).waitFor();
    await nav.getByRole('button', { name: /^Index & S3/ }).click();
    await page.getByLabel('Endpoint').fill(s3.endpoint);
    await page.getByLabel('Region').fill(s3.region);
    await page.getByLabel('Path-style addressing').check();
    await page.getByRole('button', { name: 'List and compare' }).click();
    await page.getByTestId('evidence-summary').waitFor();
    await expect(page.getByTestId('evidence-summary').textContent()).resolves.toMatch(/Live listing of .*2 multipart uploads/);

    await nav.getByRole('button', { name: /^Multipart/ }).click();
    const records = page.getByRole('region', { name: 'Multipart records in the store' });
    await expect(records.getByRole('heading').textContent()).resolves.toBe('Records in the store (1)');
    await expect(records.locator('tbody tr').first().textContent()).resolves.toContain(uploadId);
    const server = page.getByRole('region', { name: 'Uploads on the server' });
    await expect(server.locator('tbody tr').count()).resolves.toBe(2);

    await page.getByRole('button', { name: 'Plan complete / abort' }).click();
    await page.getByRole('heading', { name: /^Plan:/ }).waitFor();
    const plan = page.getByRole('region', { name: 'Plan' });
    await expect(plan.getByRole('heading', { name: /^Plan:/ }).textContent()).resolves.toContain('complete 1, abort 0');
    await expect(plan.textContent()).resolves.toContain(`complete ${uploadId} with parts 1, 2`);
    // The orphan is listed, not touched: the contract has no abort-orphans option for the UI.
    await expect(plan.textContent()).resolves.toContain(`Server upload with no local record: s3://${bucket}/${ORPHAN_KEY} (${orphan.uploadId})`);
    const apply = page.getByRole('button', { name: 'Apply', exact: true });
    expect(await apply.isDisabled()).toBe(true);
    await page.getByLabel('Bucket name to confirm').fill(bucket);
    await screenshot(page, '16-multipart-plan');
    await apply.click();
    const result = page.getByTestId('apply-result');
    await result.waitFor({ timeout: 60_000 });
    await expect(result.textContent()).resolves.toContain('Applied — verified');
    await expect(result.textContent()).resolves.toContain('Settled 1 of 1 multipart upload(s).');
    // the UI rescans after a write: the record is gone from the view too
    await records.getByRole('heading', { name: 'Records in the store (0)' }).waitFor();
    await expect(page.getByTestId('uploads-stale').count()).resolves.toBe(1);
    await screenshot(page, '17-multipart-applied');

    // On the server: the object exists with both parts; only the orphan upload is still open.
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: KEY }));
    expect(head.ContentLength).toBe(part1.length + part2.length);
    const open = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
    expect((open.Uploads ?? []).map((u) => u.UploadId)).toEqual([orphan.uploadId]);
    // Locally: the record left the store.
    expect(existsSync(recordPath)).toBe(false);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
