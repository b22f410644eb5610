/**
 * `npm run stress`: the long versions of the repair kill trials.
 * - 1,000 SIGKILLs of a child repairing `seq_index_0`: the file always holds the old or the new value.
 * - 300 SIGKILLs of a child repairing and undoing over and over (in the repair, in the undo, holding
 *   the write lock): the next undo, never forced, always completes and the root ends as it began.
 * - 200 kill-and-resume replays against a real S3 (Ceph RGW; a shared one is reused, else a private
 *   one is started and stopped): every chunk exactly one object, nothing overwritten, nothing lost.
 * Counts can be changed with STRESS_INDEX_TRIALS / STRESS_UNDO_TRIALS / STRESS_REPLAY_TRIALS. Prints `N passed, N failed`.
 */
import { runKillTrials } from './kill-index';
import { runUndoKillTrials } from './kill-undo';
import { readHealthyRgw, startRgw, missingRgwBinaries, type RgwServer } from '../support/rgw';

async function main(): Promise<number> {
  const log = (s: string) => process.stdout.write(`${s}\n`);
  let passed = 0;
  let failed = 0;
  const indexTrials = Number(process.env.STRESS_INDEX_TRIALS ?? 1000);
  const undoTrials = Number(process.env.STRESS_UNDO_TRIALS ?? 300);
  const replayTrials = Number(process.env.STRESS_REPLAY_TRIALS ?? 200);

  const t0 = Date.now();
  const k = await runKillTrials(indexTrials, { log });
  log(`kill-index: ${k.trials} trials, ${k.failures.length} failures, ${k.newer} ended on the new value, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  for (const f of k.failures.slice(0, 20)) log(`  ${f}`);
  if (k.failures.length) failed++;
  else passed++;

  const tu = Date.now();
  const u = await runUndoKillTrials(undoTrials, { log });
  log(
    `kill-undo: ${u.trials} trials, ${u.failures.length} failures, ${u.inUndo} killed during an undo, ${u.recoveries} undo runs to recover, ${((Date.now() - tu) / 1000).toFixed(1)} s`,
  );
  for (const f of u.failures.slice(0, 20)) log(`  ${f}`);
  if (u.failures.length) failed++;
  else passed++;

  let server: RgwServer | null = null;
  const shared = await readHealthyRgw();
  if (!shared) {
    if (missingRgwBinaries().length) {
      log('kill-replay: skipped (Ceph RGW not installed: apt-get install -y radosgw ceph-mon ceph-osd)');
      log(`stress: ${passed} passed, ${failed} failed`);
      return failed ? 1 : 0;
    }
    server = await startRgw({ log });
  }
  const s = shared ?? server!;
  process.env.S3_TEST_ENDPOINT = s.endpoint;
  process.env.S3_TEST_REGION = s.region;
  process.env.S3_TEST_ACCESS_KEY_ID = s.accessKeyId;
  process.env.S3_TEST_SECRET_ACCESS_KEY = s.secretAccessKey;
  try {
    const { runReplayKillTrials } = await import('./kill-replay');
    const t1 = Date.now();
    const r = await runReplayKillTrials(replayTrials, { log });
    log(`kill-replay: ${r.trials} trials, ${r.failures.length} failures, ${r.interrupted} interrupted mid-replay, ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    for (const f of r.failures.slice(0, 20)) log(`  ${f}`);
    if (r.failures.length) failed++;
    else passed++;
  } finally {
    await server?.stop();
  }
  log(`stress: ${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (err) => {
    process.stderr.write(`stress failed: ${(err as Error).stack}\n`);
    process.exitCode = 1;
  },
);
