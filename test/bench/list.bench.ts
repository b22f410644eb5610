/**
 * npm run bench:list — the listing planner vs a naive full listing on 200,000 keys.
 *
 * Bucket `bench-list-200k` on the local Ceph RGW (the shared one from `npx tsx test/support/rgw.ts
 * start` if it runs, else a private one for this run), keys in `/$TAG/%Y/%m/%d/%H/$INDEX` for 5 tags
 * over 50 days, one upload every ~21.6 s with a global running index. Missing keys are added
 * (bounded concurrency), so a second run on the shared server reuses the bucket.
 *
 * Question answered (what the diagnosis needs for a restart just after the last upload): the
 * highest `$INDEX` and every key a restarted Fluent Bit could collide with — keys from one hour
 * before the restart on (focus mode). Target: planner requests ≤ 0.1 × naive requests.
 */
import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import { createS3Client, listAllObjects, listForKeyFormat } from '../../electron/engine/s3';
import { mapLimit } from '../support/s3';
import { readHealthyRgw, startRgw, type RgwServer } from '../support/rgw';
import { PutObjectCommand } from '@aws-sdk/client-s3';

const BUCKET = 'bench-list-200k';
const FORMAT = '/$TAG/%Y/%m/%d/%H/$INDEX';
const TAGS = ['app.web', 'app.db', 'sys.kernel', 'sys.audit', 'edge.proxy'];
const N = Number(process.env.BENCH_KEYS ?? 200_000);
const START = Date.UTC(2026, 9, 10); // 50 days before 2026-11-29
const STEP_MS = (50 * 86_400_000) / 200_000;
const pad = (n: number) => String(n).padStart(2, '0');

function keyOf(i: number): { key: string; time: number } {
  const time = START + Math.floor(i * STEP_MS);
  const t = new Date(time);
  return { key: `${TAGS[i % TAGS.length]}/${t.getUTCFullYear()}/${pad(t.getUTCMonth() + 1)}/${pad(t.getUTCDate())}/${pad(t.getUTCHours())}/${i}`, time };
}

async function main(): Promise<void> {
  const shared = await readHealthyRgw();
  let own: RgwServer | null = null;
  if (!shared) {
    console.log('no shared RGW running (npx tsx test/support/rgw.ts start): starting a private one…');
    own = await startRgw({ log: (l) => console.log(l) });
  }
  const conn = (shared ?? own)!;
  const client = createS3Client({
    endpoint: conn.endpoint,
    region: conn.region,
    credentials: { accessKeyId: conn.accessKeyId, secretAccessKey: conn.secretAccessKey },
  });
  try {
    await client.send(new HeadBucketCommand({ Bucket: BUCKET })).catch(() => client.send(new CreateBucketCommand({ Bucket: BUCKET })));
    const expected = Array.from({ length: N }, (_, i) => keyOf(i));
    let existing = new Set((await listAllObjects(client, BUCKET)).map((o) => o.key));
    const missing = expected.filter((k) => !existing.has(k.key));
    if (missing.length) {
      console.log(`populating ${missing.length} keys (bounded concurrency 32)…`);
      const t0 = Date.now();
      let done = 0;
      await mapLimit(missing, 32, async ({ key }) => {
        await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: key, ContentLength: key.length }));
        if (++done % 10_000 === 0) console.log(`  ${done}/${missing.length} (${Math.round(done / ((Date.now() - t0) / 1000))} puts/s)`);
      });
      existing = new Set((await listAllObjects(client, BUCKET)).map((o) => o.key));
    }
    if (expected.some((k) => !existing.has(k.key))) throw new Error('bucket is missing keys after populating');

    const last = expected[N - 1];
    const at = new Date(last.time + 10 * 60_000).toISOString();
    const since = Date.parse(at) - 3_600_000;

    const naive = { requests: 0 };
    let t = performance.now();
    const all = await listAllObjects(client, BUCKET, undefined, { counter: naive });
    const naiveMs = performance.now() - t;

    t = performance.now();
    const focused = await listForKeyFormat(client, { bucket: BUCKET, keyFormat: FORMAT, focus: { at } });
    const focusedMs = performance.now() - t;

    t = performance.now();
    const full = await listForKeyFormat(client, { bucket: BUCKET, keyFormat: FORMAT });
    const fullMs = performance.now() - t;

    // Ground truth from the naive listing: keys in partitions that end after `since`, and the highest index.
    const hourOf = (k: string) => {
      const [, y, m, d, h] = k.split('/');
      return Date.UTC(+y, +m - 1, +d, +h);
    };
    const atRisk = all
      .filter((o) => hourOf(o.key) + 3_600_000 > since)
      .map((o) => o.key)
      .sort();
    const idx = (k: string) => Number(k.slice(k.lastIndexOf('/') + 1));
    const highest = all.reduce((m, o) => Math.max(m, idx(o.key)), -1);
    const focusedKeys = focused.objects.map((o) => o.key);
    const focusedHighest = focusedKeys.reduce((m, k) => Math.max(m, idx(k)), -1);
    const sameKeys = JSON.stringify(focusedKeys) === JSON.stringify(atRisk);
    const ratio = focused.requests / naive.requests;

    console.log(`\nbucket ${BUCKET}: ${all.length} keys, format ${FORMAT}, restart assumed at ${at}`);
    console.table({
      'naive full listing': { requests: naive.requests, ms: Math.round(naiveMs), keys: all.length },
      'planner, full mode': { requests: full.requests, ms: Math.round(fullMs), keys: full.objects.length },
      'planner, focus (restart question)': { requests: focused.requests, ms: Math.round(focusedMs), keys: focused.objects.length },
    });
    console.log(`focus lists: ${focused.scope.join('; ')}`);
    console.log(
      `highest $INDEX: naive ${highest}, focused ${focusedHighest}; keys a restart can collide with: ${atRisk.length} (focused found ${focusedKeys.length}, identical: ${sameKeys})`,
    );
    console.log(`full mode finds every key: ${full.objects.length === all.length}`);
    console.log(`requests ratio focus/naive = ${ratio.toFixed(3)} (target ≤ 0.1), time ratio = ${(focusedMs / naiveMs).toFixed(3)}`);
    const ok = ratio <= 0.1 && sameKeys && focusedHighest === highest && full.objects.length === all.length;
    console.log(ok ? 'bench:list PASS' : 'bench:list FAIL');
    process.exitCode = ok ? 0 : 1;
  } finally {
    client.destroy();
    if (own) await own.stop();
  }
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
