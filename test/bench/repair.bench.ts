/**
 * `npm run bench:repair` (not part of CI): what anchored writes (repair/write/anchor.ts, issue 17) cost
 * on a store of REPAIR_BENCH_CHUNKS (default 20,000) chunks, against the unanchored path (the same
 * code with SD_ANCHOR=path: each folder checked by lstat right before the step, no held
 * descriptors — what main did). Each mode runs in its own process on its own copy of the store:
 *   1. repair.apply of repair-index (applyPlan: the write lock, the store watch over all chunks,
 *      the journal and its backup, the atomic index write, read-back), median of REPAIR_BENCH_RUNS;
 *   2. replay's chunk moves: REPAIR_BENCH_MOVES (default 2,000) chunks moved into `.store-doctor/replayed/<stream>/` (rename plus
 *      fsync of both folders), the per-chunk cost of anchoring.
 * Prints each time and the ratio anchored / unanchored (target ≤ 2×) with PASS/FAIL.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { encodeChunk } from '../../electron/engine/chunk';
import { planIndexRepair } from '../../electron/engine/repair/index-actions/index-repair';
import { applyPlan } from '../../electron/engine/repair/apply';
import { durableMove } from '../../electron/engine/repair/write/move';
import { Anchor, anchorMode } from '../../electron/engine/repair/write/anchor';

const CHUNKS = Number(process.env.REPAIR_BENCH_CHUNKS ?? 20_000);
const RUNS = Number(process.env.REPAIR_BENCH_RUNS ?? 7);
const STREAMS = 20;
/** Chunks moved (each move fsyncs two folders: the disk, not the anchoring, sets the pace). */
const MOVES = Math.min(CHUNKS, Number(process.env.REPAIR_BENCH_MOVES ?? 2_000));

function makeStore(): { dir: string; root: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sd-bench-repair-'));
  const root = path.join(dir, 'store', 'bucket');
  const chunk = encodeChunk({ meta: 'bench', content: Buffer.alloc(200, 0x78) });
  for (let s = 0; s < STREAMS; s++) mkdirSync(path.join(root, `stream-${s}`), { recursive: true });
  for (let i = 0; i < CHUNKS; i++) writeFileSync(path.join(root, `stream-${i % STREAMS}`, `${1000 + i}-1700000000.123456789.flb`), chunk);
  return { dir, root };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function child(): Promise<void> {
  const { dir, root } = makeStore();
  try {
    const applyMs: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const plan = await planIndexRepair({ storePath: root, rootPath: root, outputId: 0, safeNextIndex: 12 + r, skipProcessCheck: true });
      const t0 = performance.now();
      const res = await applyPlan(plan, { skipProcessCheck: true });
      applyMs.push(performance.now() - t0);
      if (!res.verified) throw new Error('repair-index was not verified');
    }
    const t0 = performance.now();
    let moved = 0;
    // As in an apply: the root pinned once (the path mode ignores the pin's descriptor).
    await Anchor.pinned(root, undefined, async () => {
      for (let s = 0; s < STREAMS; s++) {
        const src = path.join(root, `stream-${s}`);
        const dest = path.join(root, '.store-doctor', 'replayed', `stream-${s}`);
        for (const n of readdirSync(src).slice(0, Math.ceil(MOVES / STREAMS))) {
          await durableMove(root, path.join(src, n), path.join(dest, n));
          moved++;
        }
      }
    });
    const moveMs = performance.now() - t0;
    process.stdout.write(JSON.stringify({ mode: anchorMode(), applyMs: median(applyMs), moveMs, moved }) + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(mode: 'fd' | 'path'): { mode: string; applyMs: number; moveMs: number; moved: number } {
  const out = execFileSync(process.execPath, [...process.execArgv, __filename, '--child'], {
    env: { ...process.env, SD_ANCHOR: mode === 'path' ? 'path' : '' },
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(out.trim().split('\n').pop()!);
}

function main(): void {
  const ROUNDS = Number(process.env.REPAIR_BENCH_ROUNDS ?? 3);
  console.log(`repair bench: ${CHUNKS} chunks in ${STREAMS} streams, repair.apply median of ${RUNS}, ${MOVES} moves; ${ROUNDS} alternating rounds per mode`);
  const plainRuns: ReturnType<typeof run>[] = [];
  const anchoredRuns: ReturnType<typeof run>[] = [];
  // Alternating, so a busy neighbour slows both modes alike.
  for (let i = 0; i < ROUNDS; i++) {
    plainRuns.push(run('path'));
    anchoredRuns.push(run('fd'));
  }
  if (anchoredRuns[0].mode !== 'fd') console.log('NOTE: /proc/self/fd is not available here; both runs used the path mode');
  const m = (xs: ReturnType<typeof run>[], k: 'applyMs' | 'moveMs') => median(xs.map((x) => x[k]));
  const r1 = m(anchoredRuns, 'applyMs') / m(plainRuns, 'applyMs');
  const r2 = m(anchoredRuns, 'moveMs') / m(plainRuns, 'moveMs');
  const pf = (r: number) => (r <= 2 ? 'PASS' : 'FAIL');
  console.log(
    `repair.apply (repair-index)  unanchored ${m(plainRuns, 'applyMs').toFixed(1)} ms  anchored ${m(anchoredRuns, 'applyMs').toFixed(1)} ms  ratio ${r1.toFixed(2)}x  ${pf(r1)} (target <= 2x)`,
  );
  console.log(
    `replay moves (${MOVES} chunks)  unanchored ${m(plainRuns, 'moveMs').toFixed(0)} ms  anchored ${m(anchoredRuns, 'moveMs').toFixed(0)} ms  ratio ${r2.toFixed(2)}x  ${pf(r2)} (target <= 2x)`,
  );
  if (r1 > 2 || r2 > 2) process.exitCode = 1;
}

if (process.argv.includes('--child')) void child();
else main();
