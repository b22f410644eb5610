/**
 * `store-doctor multipart` against the real S3 (RGW), as an operator runs it: the two-tag crash
 * layout is settled (both uploads completed, exit 0); when nothing can be settled the command never
 * reports success — exit 6 (README "Exit codes"), with what was left and why.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, UploadPartCommand, type S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { encodeChunk } from '../../electron/engine/chunk';
import { tempDir } from '../engine/repair/helpers';
import { newBucket, testClient } from '../engine/repair/s3env';
import { twoTagCrash } from '../engine/repair/two-tag';
import { s3Enabled } from '../support/s3';

const ROOT = path.resolve(__dirname, '../..');

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'bin/store-doctor.cjs'), ...args],
      { cwd: ROOT, timeout: 90_000, env: { ...process.env, ...env } },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
      },
    );
  });
}

describe.skipIf(!s3Enabled())('store-doctor multipart', { timeout: 120_000 }, () => {
  let client: S3Client;
  let env: Record<string, string>;
  beforeAll(() => {
    client = testClient();
    env = { AWS_ACCESS_KEY_ID: process.env.S3_TEST_ACCESS_KEY_ID!, AWS_SECRET_ACCESS_KEY: process.env.S3_TEST_SECRET_ACCESS_KEY!, AWS_REGION: 'us-east-1' };
  });

  async function store(prefix: string) {
    const t = tempDir('sd-cli-mpu-');
    onTestFinished(() => t.cleanup());
    const bucket = await newBucket(client, prefix);
    const storeDir = path.join(t.dir, 'store');
    const root = path.join(storeDir, bucket);
    mkdirSync(root, { recursive: true });
    const conf = path.join(t.dir, 'fluent-bit.conf');
    writeFileSync(
      conf,
      `[OUTPUT]\n    name s3\n    match *\n    bucket ${bucket}\n    region us-east-1\n    store_dir ${storeDir}\n    endpoint ${process.env.S3_TEST_ENDPOINT}\n    use_put_object off\n    total_file_size 50M\n    s3_key_format /$TAG/%Y/%m/%d/$INDEX\n`,
    );
    const args = (...extra: string[]) => ['multipart', storeDir, '--config', conf, '--live', '--endpoint', process.env.S3_TEST_ENDPOINT!, ...extra];
    const open = async () => ((await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads ?? []).map((u) => u.Key);
    return { bucket, root, args, open };
  }

  it('the two-tag crash: --complete --apply completes both uploads and removes the record, exit 0', async () => {
    const s = await store('sd-cli-mpu2');
    const x = await twoTagCrash(client, s.bucket, s.root);
    const dry = await cli(s.args('--complete'), env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/complete-upload s3:\/\/.*app\.huge\/2026\/12\/01\/1/);
    const r = await cli(s.args('--complete', '--apply'), env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('multipart: Settled 2 of 2 multipart upload(s). Removed 1 record(s).');
    expect(await s.open()).toEqual([]);
    expect(existsSync(x.rec)).toBe(false);
  });

  it('nothing can be settled (the record and the server disagree): exit 6, never a success; the plan says what is left', async () => {
    const s = await store('sd-cli-mpu6');
    const key = 'app.big/2026/12/01/0';
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: s.bucket, Key: key }));
    await client.send(new UploadPartCommand({ Bucket: s.bucket, Key: key, UploadId, PartNumber: 1, Body: Buffer.from('x'), ContentLength: 1 }));
    mkdirSync(path.join(s.root, 'multipart_upload_metadata'));
    writeFileSync(
      path.join(s.root, 'multipart_upload_metadata', '1-1'),
      encodeChunk({ meta: `/${key}\n${UploadId}`, content: 'part_number=1\tetag=0123456789abcdef0123456789abcdef\n' }),
    );
    const dry = await cli(s.args(), env);
    expect(dry.code).toBe(6);
    expect(dry.stdout).toMatch(/cannot complete: ETag differs: 1/);
    for (const extra of [['--apply'], ['--complete', '--apply']]) {
      const r = await cli(s.args(...extra), env);
      expect(r.code, extra.join(' ')).toBe(6);
      expect(r.stdout).toContain('multipart: Nothing settled: 1 upload(s) left as they are.');
      expect(r.stdout).toMatch(/Not settled:\n {2}✗ app\.big\/2026\/12\/01\/0 \(.*\): ETag differs: 1/);
    }
    const j = JSON.parse((await cli(s.args('--apply', '--json'), env)).stdout);
    expect(j.result.unsettled).toHaveLength(1);
    expect(await s.open()).toEqual([key]);
  });
});
