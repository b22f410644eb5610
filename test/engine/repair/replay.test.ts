import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, existsSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { scanStore } from '../../../electron/engine/store/scan';
import { planReplay } from '../../../electron/engine/repair/bucket/replay-plan';
import { applyReplay } from '../../../electron/engine/repair/bucket/replay-run';
import { readChunkFile } from '../../../electron/engine/repair/bucket/chunkfile';
import { getObjectBytes, headObject } from '../../../electron/engine/repair/bucket/s3ops';
import { spawn, type ChildProcess } from 'node:child_process';
import { findProcessesUsing, writeCheckTestHooks } from '../../../electron/engine/repair/preconditions/write-check';
import { extractFixture, FIXTURES, type Extracted } from './helpers';
import { allVersions, newBucket, testClient } from './s3env';
import { s3Enabled } from '../../support/s3';

const KEY_FORMAT = '/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX';
let fx: Extracted | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

async function planFor(fxx: Extracted, bucket: string, compression: string, includeActive = true) {
  const report = await scanStore(fxx.storeDir);
  const root = report.roots[0];
  return planReplay({
    storePath: fxx.storeDir,
    root,
    rootPath: fxx.root,
    target: { bucket, keyFormat: KEY_FORMAT, compression, outputId: 0 },
    safeNextIndex: 0,
    includeActive,
    skipProcessCheck: true,
  });
}

/** Every chunk's content, keyed by chunk path, read before the replay moves them. */
async function contents(fxx: Extracted, paths: string[]): Promise<Map<string, Buffer>> {
  const m = new Map<string, Buffer>();
  for (const p of paths) m.set(p, Buffer.from((await readChunkFile(path.join(fxx.root, p))).content));
  return m;
}

/** A process holding `file` open, once /proc shows it (tail may start slowly on a busy machine). */
async function holdOpen(file: string, root: string): Promise<ChildProcess> {
  const child = spawn('tail', ['-f', file], { stdio: 'ignore' });
  for (let i = 0; i < 200; i++) {
    if ((await findProcessesUsing(root)).processes.some((p) => p.pid === child.pid)) return child;
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill('SIGKILL');
  throw new Error('tail never showed up in /proc');
}

describe('replay plan (buffered-backlog-no-ordering)', () => {
  it('the newest stream of a stopped Fluent Bit is replayed like the others; $INDEX in time order; never a damaged chunk', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const plan = await planFor(fx, 'b', 'none', false);
    const planned = plan.replayItems.filter((i) => i.state === 'planned');
    expect(planned).toHaveLength(12);
    expect(planned.map((i) => i.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(planned.filter((i) => i.stream === 'quarantine').reduce((a, i) => a + (i.records ?? 0), 0)).toBe(3249);
    expect(plan.why[0]).toMatch(
      /^No process uses .*fb-backlog2 \(checked the open files, mappings and working directory of \d+ processes in \/proc.*\): 2026-11-29T18:3\d:\d\d, the newest stream, is a stopped Fluent Bit's and is replayed like the older ones\.$/,
    );
    const gz = await planFor(fx, 'b', 'gzip', true);
    expect(gz.replayItems.every((i) => i.compression === 'gzip')).toBe(true);
  });

  it('skips the newest stream while a process uses the store, unless asked; says which process', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const report = await scanStore(fx.storeDir);
    const newest = report.roots[0].streams.find((s) => s.kind === 'data')!;
    const holder = await holdOpen(path.join(fx.root, newest.chunks[0].path), fx.root);
    try {
      const plan = await planFor(fx, 'b', 'none', false);
      const planned = plan.replayItems.filter((i) => i.state === 'planned');
      expect(planned).toHaveLength(9);
      expect(planned.every((i) => i.stream === 'quarantine')).toBe(true);
      // first quarantined app.web chunk: first record 18:38:38 → key with that time and index
      expect(planned.find((i) => i.chunkPath === 'quarantine/229459631825522-9307160835514848664')?.key).toBe('app.web/2026/11/29/18_38_38-0');
      expect(plan.replayItems.filter((i) => i.state === 'skipped').map((i) => i.message)).toEqual(Array(3).fill(expect.stringMatching(/^active stream/)));
      expect(plan.why[0]).toContain(`Process ${holder.pid} (tail) uses the store`);
      expect(plan.why[0]).toContain(`${newest.name}, the newest stream, is its current run and is left out`);
      const all = await planFor(fx, 'b', 'none', true);
      expect(all.replayItems.filter((i) => i.state === 'planned')).toHaveLength(12);
      expect(all.why[0]).toMatch(/It is included, as asked\.$/);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('without /proc the newest stream stays out (conservative), and the plan says why', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    writeCheckTestHooks.proc = path.join(fx.dir, 'no-proc-here');
    try {
      const plan = await planFor(fx, 'b', 'none', false);
      expect(plan.replayItems.filter((i) => i.state === 'planned')).toHaveLength(9);
      expect(plan.why[0]).toMatch(
        /^Processes using the store cannot be looked up on this system \(no \/proc\): .* Once Fluent Bit is stopped, include the active stream\.$/,
      );
    } finally {
      writeCheckTestHooks.proc = null;
    }
  });

  it('an archive is a snapshot: its newest stream is never active (the plan is refused for the archive itself)', async () => {
    const tar = path.join(FIXTURES, 'buffered-backlog-no-ordering', 'store-after-run1.tar.gz');
    const report = await scanStore(tar);
    const root = report.roots[0];
    const plan = await planReplay({
      storePath: tar,
      root,
      rootPath: root.path,
      target: { bucket: 'b', keyFormat: KEY_FORMAT, compression: 'none', outputId: 0 },
      safeNextIndex: 0,
      archive: true,
    });
    expect(plan.replayItems.filter((i) => i.state === 'planned')).toHaveLength(12);
    expect(plan.why[0]).toMatch(/the newest stream of an archive: a snapshot, which no Fluent Bit writes to\.$/);
    expect(plan.refusals.map((r) => r.reason).join('\n')).toMatch(/inside an archive/);
  });
});

describe.skipIf(!s3Enabled())('replay against a real S3 (RGW)', () => {
  let client: S3Client;
  beforeAll(() => {
    client = testClient();
  });

  it('uploads every chunk create-only, bodies equal the chunk contents, chunks move out, index advances', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const bucket = await newBucket(client, 'sd-replay', true);
    const plan = await planFor(fx, bucket, 'none');
    const items = plan.replayItems.filter((i) => i.state === 'planned');
    const before = await contents(
      fx,
      items.map((i) => i.chunkPath),
    );
    const progress: number[] = [];
    const res = await applyReplay(plan, { client, skipProcessCheck: true, concurrency: 3, onProgress: (p) => progress.push(p.done) });
    expect(res.summary).toMatch(/Replayed 12 of 12/);
    expect(res.verified).toBe(true);
    expect(res.warnings.filter((w) => /changed during/.test(w))).toEqual([]);
    expect(progress.at(-1)).toBe(12);
    for (const it of res.items.filter((i) => i.state === 'done')) {
      const body = await getObjectBytes(client, bucket, it.key);
      expect(body.equals(before.get(it.chunkPath)!)).toBe(true);
    }
    const versions = await allVersions(client, bucket);
    expect(versions.map((v) => v.key).sort()).toEqual(res.items.map((i) => i.key).sort());
    expect(versions).toHaveLength(12);
    expect(new Set(versions.map((v) => v.key)).size).toBe(12);
    expect(readFileSync(path.join(fx.root, 'sequence/index_metadata/seq_index_0'), 'latin1')).toBe('12');
    // intents are journaled in batches beside the uploads: in the plan's order (indices 0..11 in
    // line order, each chunk its planned key), each before the PUT that uses it
    const lines = readFileSync(path.join(fx.root, '.store-doctor/replay.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string; chunk?: string; key?: string; index?: number });
    const intents = lines.filter((l) => l.t === 'intent');
    expect(intents.map((l) => l.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(intents.map((l) => [l.chunk, l.key])).toEqual(items.map((i) => [i.chunkPath, i.key]));
    for (const l of lines.filter((x) => x.t === 'started')) expect(lines.indexOf(intents.find((i) => i.key === l.key)!)).toBeLessThan(lines.indexOf(l));
    // Fluent Bit will not see them again: the streams are empty, the chunks are in the dot-dir
    const after = await scanStore(fx.storeDir);
    expect(after.roots[0].streams.flatMap((s) => s.chunks)).toHaveLength(0);
    expect(readdirSync(path.join(fx.root, '.store-doctor/replayed/quarantine'))).toHaveLength(9);
    // a second run has nothing to do
    const again = await planFor(fx, bucket, 'none');
    expect(again.replayItems.filter((i) => i.state === 'planned')).toHaveLength(0);
    expect(again.steps).toEqual([]);
    // killed after the last move but before the index write: the next run still writes the index
    rmSync(path.join(fx.root, 'sequence'), { recursive: true });
    const fixIdx = await planFor(fx, bucket, 'none');
    expect(fixIdx.steps.map((s) => s.kind)).toEqual(['write-file']);
    const r3 = await applyReplay(fixIdx, { client, skipProcessCheck: true });
    expect(r3.summary).toMatch(/Nothing left to replay/);
    expect(readFileSync(path.join(fx.root, 'sequence/index_metadata/seq_index_0'), 'latin1')).toBe('12');
  });

  it("1.9.10's crash-padded chunks (length field 0): the records go up without the NUL bytes Fluent Bit would send", async () => {
    const bucketDir = 'fb-crash-during-run-1910-mx56u6x0-4ed3';
    fx = extractFixture('v1.9.10/crash-during-run', 'store-after-crash.tar.gz', bucketDir);
    const bucket = await newBucket(client, 'sd-replay-nul');
    const report = await scanStore(fx.storeDir);
    const chunks = report.roots[0].streams.flatMap((s) => s.chunks.filter((c) => c.status === 'legacy-length'));
    expect(chunks.map((c) => c.nulTail)).toEqual([1885, 3126]);
    const plan = await planReplay({
      storePath: fx.storeDir,
      root: report.roots[0],
      rootPath: fx.root,
      target: { bucket, keyFormat: '/$TAG/%Y/%m/%d/$INDEX', compression: 'none', outputId: 0 },
      safeNextIndex: 4,
      skipProcessCheck: true,
    });
    const items = plan.replayItems.filter((i) => i.state === 'planned');
    expect(items.map((i) => i.bytes)).toEqual(chunks.map((c) => c.contentLength! - c.nulTail!));
    expect(plan.steps[0].description).toMatch(/without the (1885|3126) NUL bytes of zero padding Fluent Bit would send/);
    const before = await contents(
      fx,
      items.map((i) => i.chunkPath),
    );
    const res = await applyReplay(plan, { client, skipProcessCheck: true });
    expect(res.verified).toBe(true);
    for (const it of res.items.filter((i) => i.state === 'done')) {
      const body = await getObjectBytes(client, bucket, it.key);
      expect(body.includes(0)).toBe(false);
      expect(body.length).toBe(it.bytes);
      expect(before.get(it.chunkPath)!.subarray(0, body.length).equals(body)).toBe(true);
      expect(
        before
          .get(it.chunkPath)!
          .subarray(body.length)
          .every((b) => b === 0),
      ).toBe(true);
      expect(
        body
          .toString('utf8')
          .trimEnd()
          .split('\n')
          .every((l) => JSON.parse(l)),
      ).toBe(true);
    }
  });

  it('gzip: body is gzip with Content-Encoding, decoding gives the chunk content', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const bucket = await newBucket(client, 'sd-replay-gz');
    const plan = await planFor(fx, bucket, 'gzip');
    const items = plan.replayItems.filter((i) => i.state === 'planned');
    const before = await contents(
      fx,
      items.map((i) => i.chunkPath),
    );
    const res = await applyReplay(plan, { client, skipProcessCheck: true });
    expect(res.items.filter((i) => i.state === 'done')).toHaveLength(12);
    for (const it of res.items.filter((i) => i.state === 'done')) {
      const h = await headObject(client, bucket, it.key);
      expect(h?.contentEncoding).toBe('gzip');
      expect(gunzipSync(await getObjectBytes(client, bucket, it.key)).equals(before.get(it.chunkPath)!)).toBe(true);
    }
  });

  it('412: a key that already exists is never overwritten; the chunk takes the next free index, every other chunk keeps its key', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const bucket = await newBucket(client, 'sd-replay-412', true);
    const plan = await planFor(fx, bucket, 'none');
    const first = plan.replayItems.find((i) => i.state === 'planned')!;
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: first.key, Body: 'someone else' }));
    const res = await applyReplay(plan, { client, skipProcessCheck: true, concurrency: 1 });
    expect(res.items.filter((i) => i.state === 'done')).toHaveLength(12);
    const moved = res.items.find((i) => i.chunkPath === first.chunkPath)!;
    expect(moved.key).not.toBe(first.key);
    // every index 0..11 was assigned before the first upload: the taken one's chunk gets 12
    expect(moved.index).toBe(12);
    expect(moved.message).toMatch(/412/);
    for (const it of res.items.filter((i) => i.chunkPath !== first.chunkPath && i.state === 'done'))
      expect(it.key).toBe(plan.replayItems.find((p) => p.chunkPath === it.chunkPath)!.key);
    expect((await getObjectBytes(client, bucket, first.key)).toString()).toBe('someone else');
    const versions = await allVersions(client, bucket);
    expect(versions).toHaveLength(13);
    expect(new Set(versions.map((v) => v.key)).size).toBe(13);
    expect(readFileSync(path.join(fx.root, 'sequence/index_metadata/seq_index_0'), 'latin1')).toBe('13');
  });

  it('cancel stops after the running uploads; the next run resumes with the keys assigned before it and finishes', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const bucket = await newBucket(client, 'sd-replay-cancel', true);
    const ac = new AbortController();
    const plan = await planFor(fx, bucket, 'none');
    const planned = new Map(plan.replayItems.filter((i) => i.state === 'planned').map((i) => [i.chunkPath, i.key]));
    let uploads = 0;
    const res = await applyReplay(plan, {
      client,
      skipProcessCheck: true,
      concurrency: 1,
      signal: ac.signal,
      hooks: { afterUpload: () => void (++uploads === 3 && ac.abort()) },
    });
    expect(res.summary).toMatch(/Replayed 3 of 12.*not started \(cancelled\)/);
    // all 12 keys were assigned before the first upload: the next index is above them
    expect(readFileSync(path.join(fx.root, 'sequence/index_metadata/seq_index_0'), 'latin1')).toBe('12');
    const journal = readFileSync(path.join(fx.root, '.store-doctor/replay.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string; chunk?: string });
    expect(journal.filter((l) => l.t === 'intent')).toHaveLength(12);
    expect(journal.filter((l) => l.t === 'cancelled').map((l) => l.chunk)).toEqual(res.items.filter((i) => i.state === 'planned').map((i) => i.chunkPath));
    const rest = await applyReplay(await planFor(fx, bucket, 'none'), { client, skipProcessCheck: true, resumeSettleMs: 0 });
    expect(rest.summary).toMatch(/Replayed 9 of 9/);
    for (const it of [...res.items, ...rest.items].filter((i) => i.state === 'done')) expect(it.key).toBe(planned.get(it.chunkPath));
    const versions = await allVersions(client, bucket);
    expect(versions).toHaveLength(12);
    expect(new Set(versions.map((v) => v.key)).size).toBe(12);
    expect(readFileSync(path.join(fx.root, 'sequence/index_metadata/seq_index_0'), 'latin1')).toBe('12');
  });

  it('cancel at concurrency 4: the uploads in flight finish, are recorded and moved; the rest are recorded as cancelled', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const bucket = await newBucket(client, 'sd-replay-cancel4', true);
    const ac = new AbortController();
    const res = await applyReplay(await planFor(fx, bucket, 'none'), {
      client,
      skipProcessCheck: true,
      concurrency: 4,
      signal: ac.signal,
      hooks: { afterUpload: () => ac.abort() },
    });
    const done = res.items.filter((i) => i.state === 'done');
    const notStarted = res.items.filter((i) => i.state === 'planned');
    expect(res.items.filter((i) => i.state === 'failed')).toEqual([]);
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(done.length + notStarted.length).toBe(12);
    for (const it of done) {
      expect(await headObject(client, bucket, it.key)).not.toBeNull();
      expect(existsSync(path.join(fx.root, it.chunkPath))).toBe(false);
    }
    for (const it of notStarted) expect(existsSync(path.join(fx.root, it.chunkPath))).toBe(true);
    const journal = readFileSync(path.join(fx.root, '.store-doctor/replay.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string; chunk?: string });
    const lines = (t: string) =>
      journal
        .filter((l) => l.t === t)
        .map((l) => l.chunk)
        .sort();
    expect(lines('uploaded')).toEqual(done.map((i) => i.chunkPath).sort());
    expect(lines('moved')).toEqual(done.map((i) => i.chunkPath).sort());
    expect(lines('cancelled')).toEqual(notStarted.map((i) => i.chunkPath).sort());
    expect(new Set((await allVersions(client, bucket)).map((v) => v.key))).toEqual(new Set(done.map((i) => i.key)));
  });

  it('HEAD-then-PUT fallback still never overwrites', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const bucket = await newBucket(client, 'sd-replay-ht');
    const plan = await planFor(fx, bucket, 'none');
    const first = plan.replayItems.find((i) => i.state === 'planned')!;
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: first.key, Body: 'keep me' }));
    const res = await applyReplay(plan, { client, skipProcessCheck: true, conditional: 'head-then-put' });
    expect(res.warnings.some((w) => /NOT atomic/.test(w))).toBe(true);
    expect(res.items.filter((i) => i.state === 'done')).toHaveLength(12);
    expect((await getObjectBytes(client, bucket, first.key)).toString()).toBe('keep me');
    expect(existsSync(path.join(fx.root, first.chunkPath))).toBe(false);
  });
});
