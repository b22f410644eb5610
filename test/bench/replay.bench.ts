/**
 * `npm run bench:replay` (not part of CI; the shared Ceph RGW if one answers, else a private one):
 * issue 23's target. Over the same BENCH_REPLAY_CHUNKS (default 2,000) chunk files of 100 records
 * each, against the same RGW in the same run, each a separate process timed from spawn to exit:
 *   1. the baseline: a plain AWS SDK PutObject loop, create-only (`If-None-Match: *`), 8 at once
 *      (what `aws s3 cp --recursive`-style parallelism gives a user);
 *   2. `store-doctor replay <store> --live --apply --concurrency 8`, the whole command (scan,
 *      diagnosis with the bucket listing, plan, the uploads, the journal, the moves, the index).
 * Prints both times and the ratio (target ≤ 1.25×), checks the replay's bucket holds every chunk
 * exactly once (by content MD5, and no other object), that the replay used create-only PUTs (no
 * HEAD-then-PUT fallback) and that its command printed no warning.
 * BENCH_REPLAY_ROUNDS (default 2) rounds alternate the two; the ratio is of the medians.
 * Needs the compiled CLI (`npm run prepare`). BENCH_REPLAY_NODE_ARGS (e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof`) are given to the replay's Node.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { encodeChunk } from '../../electron/engine/chunk';
import { createS3Client } from '../../electron/engine/s3/client';
import { jsonLines } from '../fixtures/generate';
import { readHealthyRgw, startRgw, type RgwState } from '../support/rgw';

const REPO = path.resolve(__dirname, '../..');
const CHUNKS = Number(process.env.BENCH_REPLAY_CHUNKS ?? 2000);
const ROUNDS = Number(process.env.BENCH_REPLAY_ROUNDS ?? 2);
const CONCURRENCY = 8;
const TARGET = 1.25;
const KEY_FORMAT = '/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX';
const TAGS = ['app.web', 'app.db', 'sys.kernel'];

/** A store_dir with one root (named after the bucket): old streams and quarantine/, CHUNKS chunks of 100 records. */
function makeStore(base: string, bucket: string): { storeDir: string; root: string; md5s: Set<string> } {
  const storeDir = path.join(base, 'store');
  const root = path.join(storeDir, bucket);
  const streams = ['2026-11-29T18:00:00', '2026-11-29T19:00:00', '2026-11-29T20:00:00', '2026-11-29T21:00:00', 'quarantine'];
  for (const s of streams) mkdirSync(path.join(root, s), { recursive: true });
  const md5s = new Set<string>();
  for (let i = 0; i < CHUNKS; i++) {
    // distinct content per chunk (its records' times), so "exactly once" can be checked by MD5
    const content = jsonLines(100, { start: 1795977420 + i * 100, msg: `chunk ${i}` });
    md5s.add(createHash('md5').update(content).digest('hex'));
    const file = path.join(root, streams[i % streams.length], `${6953322175898 + i}-${String(i).padStart(6, '0')}.flb`);
    writeFileSync(file, encodeChunk({ meta: TAGS[i % TAGS.length], content }));
  }
  return { storeDir, root, md5s };
}

function config(storeDir: string, bucket: string, endpoint: string): string {
  return [
    '[INPUT]',
    '    name dummy',
    '    tag  app.web',
    '[OUTPUT]',
    '    name             s3',
    '    match            *',
    `    bucket           ${bucket}`,
    '    region           us-east-1',
    `    endpoint         ${endpoint}`,
    `    store_dir        ${storeDir}`,
    '    total_file_size  1M',
    '    use_put_object   On',
    `    s3_key_format    ${KEY_FORMAT}`,
    '',
  ].join('\n');
}

/** The baseline, a separate Node process like the CLI: read each file, PutObject create-only, 8 at once. */
const LOOP = `
const { S3Client, PutObjectCommand } = require(${JSON.stringify(require.resolve('@aws-sdk/client-s3'))});
const fs = require('node:fs/promises');
const path = require('node:path');
const [dir, bucket, endpoint, n] = process.argv.slice(2);
const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true,
  requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
(async () => {
  const files = [];
  for (const s of await fs.readdir(dir)) for (const f of await fs.readdir(path.join(dir, s))) files.push(path.join(s, f));
  let next = 0;
  await Promise.all(Array.from({ length: Number(n) }, async () => {
    for (let i = next++; i < files.length; i = next++) {
      const body = await fs.readFile(path.join(dir, files[i]));
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: files[i], Body: body, ContentLength: body.length, IfNoneMatch: '*' }));
    }
  }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

/** Where the replay's time went, from its journal: start → keys assigned → last upload → exit. */
function phases(root: string, startedAt: number, ms: number): string {
  const lines = readFileSync(path.join(root, '.store-doctor', 'replay.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { t: string; at: string });
  const at = (t: string, last = false) => {
    const xs = lines.filter((l) => l.t === t);
    return Date.parse((last ? xs[xs.length - 1] : xs[0]).at) - startedAt;
  };
  const s = (x: number) => (x / 1000).toFixed(2);
  return ` (keys assigned at ${s(at('intent'))} s, uploads ${s(at('started'))}–${s(at('uploaded', true))} s, exit ${s(ms)} s)`;
}

function timed(args: string[], env: Record<string, string>): Promise<{ ms: number; startedAt: number; code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const startedAt = Date.now();
    const p = spawn(process.execPath, args, { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => resolve({ ms: performance.now() - t0, startedAt, code: code ?? 1, stdout, stderr }));
  });
}

/**
 * Unversioned buckets: Ceph RGW 16.2 ignores `If-None-Match: *` on a versioned bucket (a second
 * create of a key succeeds), so replay's probe would rightly fall back to HEAD-then-PUT there, and
 * the comparison would be with a loop whose conditional writes do nothing.
 */
async function newBucket(client: S3Client, prefix: string): Promise<string> {
  const name = `${prefix}-${randomBytes(4).toString('hex')}`;
  await client.send(new CreateBucketCommand({ Bucket: name }));
  return name;
}

/** Every chunk exactly once: one object per chunk content (by MD5), and no other object. */
async function exactlyOnce(client: S3Client, bucket: string, md5s: Set<string>): Promise<string[]> {
  const problems: string[] = [];
  const etags = new Map<string, number>();
  let token: string | undefined;
  do {
    const r = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    for (const o of r.Contents ?? []) {
      const e = (o.ETag ?? '').replace(/"/g, '');
      etags.set(e, (etags.get(e) ?? 0) + 1);
    }
    token = r.IsTruncated ? r.NextContinuationToken : undefined;
  } while (token);
  for (const m of md5s) if (etags.get(m) !== 1) problems.push(`chunk ${m} is in the bucket ${etags.get(m) ?? 0} times`);
  const objects = [...etags.values()].reduce((a, b) => a + b, 0);
  if (objects !== md5s.size) problems.push(`${objects} objects for ${md5s.size} chunks`);
  return problems;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function main(): Promise<void> {
  readdirSync(path.join(REPO, 'out', 'cli')); // the compiled CLI must exist: npm run prepare
  let rgw: RgwState | null = await readHealthyRgw();
  const own = rgw ? null : await startRgw({ log: (s) => console.log(s) });
  rgw ??= own!;
  const creds = { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey };
  const env = { AWS_ACCESS_KEY_ID: creds.accessKeyId, AWS_SECRET_ACCESS_KEY: creds.secretAccessKey, AWS_REGION: 'us-east-1' };
  const client = createS3Client({ endpoint: rgw.endpoint, region: 'us-east-1', pathStyle: true, credentials: creds });
  const work = mkdtempSync(path.join(os.tmpdir(), 'sd-bench-replay-'));
  const loopFile = path.join(work, 'loop.cjs');
  writeFileSync(loopFile, LOOP);
  const loopMs: number[] = [];
  const replayMs: number[] = [];
  const problems: string[] = [];
  console.log(`replay bench: ${CHUNKS} chunks of 100 records, concurrency ${CONCURRENCY}, ${ROUNDS} round(s), RGW at ${rgw.endpoint}`);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const loopBucket = await newBucket(client, 'sd-bench-loop');
      const loopStore = makeStore(path.join(work, `loop-${round}`), loopBucket);
      const replayBucket = await newBucket(client, 'sd-bench-replay');
      const replayStore = makeStore(path.join(work, `replay-${round}`), replayBucket);
      const conf = path.join(work, `replay-${round}`, 'fluent-bit.conf');
      writeFileSync(conf, config(replayStore.storeDir, replayBucket, rgw.endpoint));
      const runLoop = async () => {
        const r = await timed([loopFile, loopStore.root, loopBucket, rgw!.endpoint, String(CONCURRENCY)], env);
        if (r.code !== 0) throw new Error(`SDK loop failed: ${r.stderr}`);
        loopMs.push(r.ms);
        console.log(`  round ${round + 1}: SDK PutObject loop   ${(r.ms / 1000).toFixed(2)} s`);
      };
      const runReplay = async () => {
        const args = ['replay', replayStore.storeDir, '--config', conf, '--live', '--endpoint', rgw!.endpoint, '--include-active', '--apply'];
        const nodeArgs = process.env.BENCH_REPLAY_NODE_ARGS?.split(' ').filter(Boolean) ?? []; // e.g. --cpu-prof
        const r = await timed([...nodeArgs, path.join(REPO, 'bin/store-doctor.cjs'), ...args, '--concurrency', String(CONCURRENCY)], env);
        if (r.code !== 0) throw new Error(`replay failed (exit ${r.code}): ${r.stdout}\n${r.stderr}`);
        if (!new RegExp(`Replayed ${CHUNKS} of ${CHUNKS}`).test(r.stdout))
          problems.push(`round ${round + 1}: replay did not send every chunk: ${r.stdout.slice(0, 300)}`);
        if (/HEAD-then-PUT/.test(r.stdout)) problems.push(`round ${round + 1}: the replay fell back to HEAD-then-PUT`);
        if (/warning/i.test(r.stderr)) problems.push(`round ${round + 1}: the command printed a warning: ${r.stderr.slice(0, 300)}`);
        replayMs.push(r.ms);
        console.log(`  round ${round + 1}: store-doctor replay  ${(r.ms / 1000).toFixed(2)} s${phases(replayStore.root, r.startedAt, r.ms)}`);
      };
      // alternate which goes first, so neither always gets the warmer server
      if (round % 2 === 0) {
        await runLoop();
        await runReplay();
      } else {
        await runReplay();
        await runLoop();
      }
      problems.push(...(await exactlyOnce(client, replayBucket, replayStore.md5s)).map((p) => `round ${round + 1} (replay): ${p}`));
      rmSync(path.join(work, `loop-${round}`), { recursive: true, force: true });
      rmSync(path.join(work, `replay-${round}`), { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    client.destroy();
    await own?.stop();
  }
  const ratio = median(replayMs) / median(loopMs);
  console.log(`SDK loop (median): ${(median(loopMs) / 1000).toFixed(2)} s; replay (median): ${(median(replayMs) / 1000).toFixed(2)} s`);
  console.log(`replay / loop: ${ratio.toFixed(2)}×  (target ≤ ${TARGET}×)  ${ratio <= TARGET ? 'PASS' : 'FAIL'}`);
  console.log(`every chunk in the bucket exactly once: ${problems.length ? 'FAIL' : 'PASS'}`);
  for (const p of problems) console.log(`  ${p}`);
  if (ratio > TARGET || problems.length) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
