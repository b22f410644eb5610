/**
 * `store-doctor diagnose --live` as a user runs it: a spawned CLI, credentials from the AWS
 * default chain (environment), a real S3 (Ceph RGW) filled with the index-reset fixture's keys.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Enabled, testS3, type TestS3 } from '../support/s3';
import { indexResetCopy, indexResetKeys } from '../engine/diagnose/live-helpers';

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

interface JsonFinding {
  code: string;
  severity: string;
  summary: string;
  evidence: string[];
  action: string;
  commands: string[];
  data?: Record<string, unknown>;
}

describe.skipIf(!s3Enabled())('store-doctor diagnose --live', { timeout: 120_000 }, () => {
  let s3: TestS3;
  let dir: string;
  let tar: string;
  let config: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    s3 = testS3();
    dir = mkdtempSync(path.join(tmpdir(), 'sd-diag-live-cli-'));
    const bucket = await s3.createBucket('fb-index-reset');
    await s3.putKeys(bucket, indexResetKeys(), { body: () => 'x' });
    const copy = indexResetCopy(dir, bucket);
    config = copy.config;
    tar = path.join(dir, 'store-after-run2.tar.gz');
    execFileSync('tar', ['-czf', tar, '-C', dir, 'store']);
    env = {
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      AWS_SESSION_TOKEN: '',
      AWS_PROFILE: '',
    };
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const base = () => ['diagnose', tar, '--config', config, '--live', '--endpoint', s3.endpoint, '--path-style', '--at', '2026-11-29T19:00:00Z', '--json'];

  it('index-reset after run 2: JSON with INDEX_FILE_MISSING, INDEX_REUSED, safe next 12; exit 4; focused listing stated', async () => {
    const r = await cli(base(), env);
    expect(r.stderr).not.toMatch(/secret|AWS_SECRET/i);
    expect(r.code).toBe(4);
    const j = JSON.parse(r.stdout);
    const o = j.outputs[0];
    expect(o).toMatchObject({ id: 0, keyFormat: '/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX', persistedNextIndex: null, highestIndexInBucket: 11, safeNextIndex: 12 });
    const codes = o.findings.map((f: JsonFinding) => f.code);
    expect(codes).toEqual(expect.arrayContaining(['INDEX_FILE_MISSING', 'INDEX_REUSED']));
    expect(codes).not.toContain('OVERWRITE_RISK');
    const reused = o.findings.find((f: JsonFinding) => f.code === 'INDEX_REUSED');
    expect(reused.data.indices).toEqual(Array.from({ length: 12 }, (_, i) => i));
    const note = o.findings.find((f: JsonFinding) => f.code === 'NO_EVIDENCE');
    expect(note).toMatchObject({ severity: 'info', data: { reason: 'notes' } });
    expect(note.evidence[0]).toMatch(/^Listing mode: focused \(\d+ requests\)/);
    // recommended commands repeat the live evidence options
    const missing = o.findings.find((f: JsonFinding) => f.code === 'INDEX_FILE_MISSING');
    expect(missing.commands.join('\n')).toContain('--live');
  });

  it('--full-listing lists every key and says so; same result', async () => {
    const r = await cli([...base(), '--full-listing'], env);
    expect(r.code).toBe(4);
    const o = JSON.parse(r.stdout).outputs[0];
    expect(o).toMatchObject({ highestIndexInBucket: 11, safeNextIndex: 12 });
    const note = o.findings.find((f: JsonFinding) => f.code === 'NO_EVIDENCE');
    expect(note.evidence[0]).toMatch(/^Listing mode: full .*a full listing was requested/);
    expect(o.findings.find((f: JsonFinding) => f.code === 'INDEX_FILE_MISSING').commands.join('\n')).toContain('--full-listing');
  });

  it('--full-listing without --live is a usage error (exit 2)', async () => {
    const r = await cli(['diagnose', tar, '--config', config, '--full-listing', '--json'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--full-listing only apply with --live');
  });

  it('wrong credentials: a clear S3 error (exit 1), never "no key in the bucket, safe next index 0"', async () => {
    const r = await cli(base(), { ...env, AWS_SECRET_ACCESS_KEY: 'not-the-secret' });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // --json: stdout is one error document (never a diagnosis with a made-up safe index)
    const doc = JSON.parse(r.stdout);
    expect(doc).toEqual({ error: { exitCode: 1, message: expect.stringMatching(/^Cannot list bucket .*Nothing was changed/) } });
    expect(r.stdout).not.toMatch(/safeNextIndex/);
    expect(r.stderr).toMatch(/Cannot list bucket "fb-index-reset-[^"]+": ListObjectsV2 denied \(SignatureDoesNotMatch/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(r.stderr + r.stdout).not.toContain('not-the-secret');
  });
});
