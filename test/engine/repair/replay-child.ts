/**
 * Child process for replay kill trials: plans and applies a replay of one root with small random
 * delays between the journaled steps, so a SIGKILL lands anywhere (after the intent, after the
 * PUT, after the move...). Prints `ready` first. Connection from the S3_TEST_* environment.
 * Usage: node replay-child.js <storeDir> <root> <bucket> <keyFormat> [concurrency] [batch]
 */
import { writeSync } from 'node:fs';
import { scanStore } from '../../../electron/engine/store/scan';
import { planReplay } from '../../../electron/engine/repair/bucket/replay-plan';
import { applyReplay } from '../../../electron/engine/repair/bucket/replay-run';
import { testClient } from './s3env';

const [storeDir, root, bucket, keyFormat, concurrency = '8', batch = '3'] = process.argv.slice(2);
const jitter = () => new Promise<void>((r) => setTimeout(r, Math.floor(Math.random() * 15)));

async function main(): Promise<void> {
  const report = await scanStore(storeDir);
  const plan = await planReplay({
    storePath: storeDir,
    root: report.roots[0],
    rootPath: root,
    target: { bucket, keyFormat, compression: 'none', outputId: 0 },
    safeNextIndex: 0,
    skipProcessCheck: true,
  });
  writeSync(1, 'ready\n');
  await applyReplay(plan, {
    client: testClient(),
    skipProcessCheck: true,
    concurrency: Number(concurrency),
    batch: Number(batch),
    resumeSettleMs: 1000,
    conditional: 'if-none-match',
    hooks: { afterIntent: jitter, afterUpload: jitter, afterMove: jitter },
  });
  writeSync(1, 'finished\n');
}
main().catch((err) => {
  writeSync(2, `child failed: ${(err as Error).stack}\n`);
  process.exit(3);
});
