/**
 * Kill-and-resume trials for replay against the real S3 (RGW): a child replays the chunks of
 * `buffered-backlog-no-ordering` (quarantine/ and the newest stream, which no Fluent Bit uses) and
 * is SIGKILLed at a random moment; then the replay is
 * resumed in this process. The child uploads with a pool (default concurrency 8) and moves in
 * small batches, so kills land between concurrent uploads, batched journal lines and moves.
 * Afterwards every chunk is exactly one object (matched by content MD5), under exactly the key the
 * plan gave it before the run (keys assigned in order before any upload), no key has a second
 * version (nothing overwritten, the bucket is versioned), nothing is lost, no chunk is left in the
 * streams, and the next index is above every key used.
 * Shared by the CI test (20 trials) and `npm run stress` (200).
 */
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scanStore } from '../../electron/engine/store/scan';
import { planReplay } from '../../electron/engine/repair/bucket/replay-plan';
import { applyReplay } from '../../electron/engine/repair/bucket/replay-run';
import { readChunkFile } from '../../electron/engine/repair/bucket/chunkfile';
import { extractFixture } from '../engine/repair/helpers';
import { allVersions, newBucket, testClient } from '../engine/repair/s3env';

const KEY_FORMAT = '/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX';

export function buildReplayChild(outDir: string): string {
  const out = path.join(outDir, 'replay-child.js');
  const esbuild = path.resolve(__dirname, '../../node_modules/.bin/esbuild');
  execFileSync(esbuild, [
    path.resolve(__dirname, '../engine/repair/replay-child.ts'),
    '--bundle',
    '--platform=node',
    '--format=cjs',
    `--outfile=${out}`,
    '--log-level=error',
  ]);
  return out;
}

function runChild(child: string, args: string[], killAfterMs: number): Promise<{ finished: boolean; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | null = null;
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!timer && out.includes('ready\n')) timer = setTimeout(() => p.kill('SIGKILL'), killAfterMs);
    });
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('close', () => {
      if (timer) clearTimeout(timer);
      resolve({ finished: out.includes('finished\n'), stderr: err });
    });
  });
}

export interface ReplayKillResult {
  trials: number;
  failures: string[];
  /** Trials where the kill landed before the child finished. */
  interrupted: number;
}

export async function runReplayKillTrials(
  trials: number,
  opts: { maxKillMs?: number; settleMs?: number; concurrency?: number; log?: (s: string) => void } = {},
): Promise<ReplayKillResult> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'sd-kill-replay-'));
  const client = testClient();
  const res: ReplayKillResult = { trials, failures: [], interrupted: 0 };
  try {
    const child = buildReplayChild(work);
    for (let i = 0; i < trials; i++) {
      const fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
      try {
        const report = await scanStore(fx.storeDir);
        const buffered = report.roots[0].streams.filter((s) => s.kind === 'quarantine' || s.kind === 'data').flatMap((s) => s.chunks);
        const md5s = new Map<string, string>();
        for (const c of buffered)
          md5s.set(
            createHash('md5')
              .update((await readChunkFile(path.join(fx.root, c.path))).content)
              .digest('hex'),
            c.path,
          );
        const bucket = await newBucket(client, 'sd-kill', true);
        // the keys the child's plan gives (the same scan, the same plan): the only keys allowed
        const first = await planReplay({
          storePath: fx.storeDir,
          root: report.roots[0],
          rootPath: fx.root,
          target: { bucket, keyFormat: KEY_FORMAT, compression: 'none', outputId: 0 },
          safeNextIndex: 0,
          skipProcessCheck: true,
        });
        const planned = first.replayItems.filter((x) => x.state === 'planned').map((x) => x.key);
        const r = await runChild(
          child,
          [fx.storeDir, fx.root, bucket, KEY_FORMAT, String(opts.concurrency ?? 8)],
          Math.floor(Math.random() * (opts.maxKillMs ?? 600)),
        );
        if (!r.finished) res.interrupted++;
        if (r.stderr.includes('child failed')) res.failures.push(`trial ${i}: ${r.stderr.slice(0, 300)}`);
        // resume
        const again = await scanStore(fx.storeDir);
        const plan = await planReplay({
          storePath: fx.storeDir,
          root: again.roots[0],
          rootPath: fx.root,
          target: { bucket, keyFormat: KEY_FORMAT, compression: 'none', outputId: 0 },
          safeNextIndex: 0,
          skipProcessCheck: true,
        });
        const done = await applyReplay(plan, { client, skipProcessCheck: true, conditional: 'if-none-match', resumeSettleMs: opts.settleMs ?? 1000 });
        if (!done.verified) res.failures.push(`trial ${i}: resume not verified: ${done.summary}`);
        // verify
        const versions = await allVersions(client, bucket);
        const keys = new Set(versions.map((v) => v.key));
        if (keys.size !== versions.length) {
          const twice = [...keys].filter((k) => versions.filter((v) => v.key === k).length > 1);
          res.failures.push(
            `trial ${i}: a key has ${versions.length - keys.size} extra version(s): something was overwritten (${twice.join(', ')}; child ${r.finished ? 'finished' : 'killed'})`,
          );
        }
        const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
        const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
        const etags = (listed.Contents ?? []).map((o) => (o.ETag ?? '').replace(/"/g, ''));
        for (const [md5, p] of md5s) {
          const n = etags.filter((e) => e === md5).length;
          if (n !== 1) res.failures.push(`trial ${i}: ${p} is in the bucket ${n} times`);
        }
        if (etags.length !== md5s.size) res.failures.push(`trial ${i}: ${etags.length} objects for ${md5s.size} chunks`);
        const got = (listed.Contents ?? []).map((o) => o.Key!).sort();
        if (JSON.stringify(got) !== JSON.stringify([...planned].sort()))
          res.failures.push(`trial ${i}: the keys are not the planned ones: ${got.filter((k) => !planned.includes(k)).join(', ')}`);
        const left = (await scanStore(fx.storeDir)).roots[0].streams
          .filter((s) => s.kind === 'quarantine' || s.kind === 'data')
          .reduce((n, s) => n + s.chunks.length, 0);
        if (left) res.failures.push(`trial ${i}: ${left} chunks still in the streams`);
        const maxIndex = Math.max(...(listed.Contents ?? []).map((o) => Number(/-(\d+)$/.exec(o.Key!)?.[1] ?? -1)));
        const idxFile = path.join(fx.root, 'sequence/index_metadata/seq_index_0');
        const next = existsSync(idxFile) ? Number(readFileSync(idxFile, 'latin1')) : -1;
        if (!(next > maxIndex)) res.failures.push(`trial ${i}: next index ${next} is not above the highest key index ${maxIndex}`);
      } finally {
        fx.cleanup();
      }
      if (opts.log && (i + 1) % 20 === 0) opts.log(`kill-replay: ${i + 1}/${trials} trials, ${res.failures.length} failures`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return res;
}
