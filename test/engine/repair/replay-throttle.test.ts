/**
 * Throttling (issue 23): S3 answers `503 SlowDown` under load. Replay leaves the retries to the S3
 * client's own retry strategy (the SDK's standard mode: backoff, `maxAttempts`), and when one
 * object keeps failing its error names the object, the chunk and the attempts; the other chunks
 * are still sent, the failed one stays in its stream with a `failed` line in the journal.
 * Real RGW behind a loopback proxy that throttles chosen PUTs (test/support/throttle-proxy.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { scanStore } from '../../../electron/engine/store/scan';
import { planReplay } from '../../../electron/engine/repair/bucket/replay-plan';
import { applyReplay } from '../../../electron/engine/repair/bucket/replay-run';
import { createS3Client } from '../../../electron/engine/s3/client';
import { extractFixture, type Extracted } from './helpers';
import { allVersions, newBucket, s3Conn, testClient } from './s3env';
import { s3Enabled } from '../../support/s3';
import { startThrottleProxy, type ThrottleProxy } from '../../support/throttle-proxy';

const KEY_FORMAT = '/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX';
let fx: Extracted | null = null;
let proxy: ThrottleProxy | null = null;
afterEach(async () => {
  fx?.cleanup();
  fx = null;
  await proxy?.close();
  proxy = null;
});

async function planFor(fxx: Extracted, bucket: string) {
  const report = await scanStore(fxx.storeDir);
  return planReplay({
    storePath: fxx.storeDir,
    root: report.roots[0],
    rootPath: fxx.root,
    target: { bucket, keyFormat: KEY_FORMAT, compression: 'none', outputId: 0 },
    safeNextIndex: 0,
    includeActive: true,
    skipProcessCheck: true,
  });
}

describe.skipIf(!s3Enabled())('replay under throttling (503 SlowDown)', () => {
  it('every first PUT throttled: the SDK retries with backoff, every chunk lands exactly once', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const direct = testClient();
    const bucket = await newBucket(direct, 'sd-throttle', true);
    proxy = await startThrottleProxy(s3Conn().endpoint, (key, attempt) => !key.startsWith('.store-doctor-probe') && attempt === 1);
    const client = createS3Client({ ...s3Conn(), endpoint: proxy.endpoint });
    const plan = await planFor(fx, bucket);
    const res = await applyReplay(plan, { client, skipProcessCheck: true, concurrency: 4, conditional: 'if-none-match' });
    expect(res.items.filter((i) => i.state === 'done')).toHaveLength(12);
    for (const it of res.items) expect(proxy.puts(it.key)).toBe(2); // throttled once, then created
    const versions = await allVersions(direct, bucket);
    expect(versions).toHaveLength(12);
    expect(new Set(versions.map((v) => v.key))).toEqual(new Set(res.items.map((i) => i.key)));
  });

  it('one object always throttled: a clear error naming it after the SDK gave up; the rest replayed', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const direct = testClient();
    const bucket = await newBucket(direct, 'sd-throttle2', true);
    const plan = await planFor(fx, bucket);
    const victim = plan.replayItems.find((i) => i.state === 'planned')!;
    proxy = await startThrottleProxy(s3Conn().endpoint, (key) => key === victim.key);
    const client = createS3Client({ ...s3Conn(), endpoint: proxy.endpoint, maxAttempts: 3 });
    const res = await applyReplay(plan, { client, skipProcessCheck: true, concurrency: 4, conditional: 'if-none-match' });
    const failed = res.items.find((i) => i.chunkPath === victim.chunkPath)!;
    expect(failed.state).toBe('failed');
    expect(failed.message).toContain(`s3://${bucket}/${victim.key} (${victim.chunkPath}): PutObject failed after 3 attempts`);
    expect(failed.message).toMatch(/SlowDown, HTTP 503/);
    expect(proxy.puts(victim.key)).toBe(3);
    expect(res.items.filter((i) => i.state === 'done')).toHaveLength(11);
    expect(res.verified).toBe(false);
    expect(res.summary).toMatch(/Replayed 11 of 12.*1 failed/);
    expect(existsSync(path.join(fx.root, victim.chunkPath))).toBe(true);
    const journal = readFileSync(path.join(fx.root, '.store-doctor/replay.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string; chunk?: string; key?: string; message?: string });
    expect(journal.filter((l) => l.t === 'failed')).toEqual([expect.objectContaining({ chunk: victim.chunkPath, key: victim.key })]);
    expect((await allVersions(direct, bucket)).map((v) => v.key)).not.toContain(victim.key);
  });
});
