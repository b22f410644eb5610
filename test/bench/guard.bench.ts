/**
 * `npm run bench:guard` (not part of CI; real Fluent Bit, the shared RGW): issue 11's targets.
 *   1. GUARD_BENCH_CYCLES (default 50) graceful stop/start cycles of a real Fluent Bit (5.0.9, or
 *      GUARD_BENCH_VERSION) with /$TAG/%Y/%m/%d/$INDEX under `store-doctor guard`: objects
 *      overwritten (target 0) and starts whose "Continuing at index" is not the highest index in
 *      the bucket + 1 (target 0); the time from the deletion of sequence/ to the restored
 *      seq_index file on disk, watched from this process (p99 target ≤ 100 ms), against the
 *      physical floor measured in the same run (one atomic write: temp, fsync, rename, fsync);
 *      the guard's CPU (target ≤ 1 % of one core) and RSS (target ≤ 80 MB) while Fluent Bit runs.
 *   2. The same loop without the guard, in the same run: it overwrites.
 *   3. A scrape of /metrics on a 100,000-chunk store (target ≤ 50 ms), against GET /healthz of
 *      the same server (the HTTP floor); then ten deletions of sequence/ on that store, each
 *      restored by the guard (the same ≤ 100 ms: the plan diagnoses and fingerprints a big store).
 * Each figure is printed with PASS/FAIL. FLUENT_BIT_DIR defaults to ../shared/fluent-bit.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, openSync, fsyncSync, closeSync, renameSync } from 'node:fs';
import * as path from 'node:path';
import { encodeChunk } from '../../electron/engine/chunk';
import { overwritten, type BucketSnapshot } from '../fluent-bit/support/bucket';
import { discoverFluentBit } from '../fluent-bit/support/binaries';
import { continuingAt, highestIndex } from '../fluent-bit/support/checks';
import { REPO } from '../fluent-bit/support/cli';
import { startGuard, type GuardProcess } from '../fluent-bit/support/guard';
import { Lab, scratchBase, sleep } from '../fluent-bit/support/lab';
import { reapAll } from '../fluent-bit/support/process';
import { runFluentBit } from '../fluent-bit/support/scenario';

const CYCLES = Number(process.env.GUARD_BENCH_CYCLES ?? 50);
const CHUNKS = Number(process.env.GUARD_BENCH_CHUNKS ?? 100_000);
process.env.FLUENT_BIT_DIR ??= path.resolve(REPO, '..', 'shared', 'fluent-bit');

const GUARD_ENV: Record<string, string> = {
  NODE_OPTIONS: '--max-semi-space-size=1',
  ...(process.env.GUARD_BENCH_TRACE === '1' ? { STORE_DOCTOR_GUARD_TRACE: '1' } : {}),
};

const results: { name: string; value: string; target: string; pass: boolean }[] = [];
function figure(name: string, value: string, target: string, pass: boolean): void {
  results.push({ name, value, target, pass });
  console.log(`${name}: ${value}  (target ${target})  ${pass ? 'PASS' : 'FAIL'}`);
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

/** CPU seconds (user + system) and RSS bytes of a process, from /proc. */
function procUsage(pid: number): { cpu: number; rss: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpu = (Number(f[11]) + Number(f[12])) / 100; // utime + stime in clock ticks (USER_HZ 100)
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
  return { cpu, rss };
}

/** From the moment seq_index_0 disappears to the moment it is back with a number: watched by polling every 5 ms. */
function watchRestore(file: string, timeoutMs: number): Promise<{ deletedAt: number; restoredAt: number | null }> {
  return new Promise((resolve) => {
    let deletedAt: number | null = null;
    const start = Date.now();
    const tick = setInterval(() => {
      const now = performance.now();
      // in-place rewrites can show the file empty for a moment: only its absence is the deletion
      if (deletedAt === null) {
        if (!existsSync(file)) deletedAt = now;
      } else if (existsSync(file) && /^\d+$/.test(readFileSync(file, 'latin1'))) {
        clearInterval(tick);
        resolve({ deletedAt, restoredAt: now });
      }
      if (Date.now() - start > timeoutMs) {
        clearInterval(tick);
        resolve({ deletedAt: deletedAt ?? now, restoredAt: null });
      }
    }, 5);
  });
}

/** The floor of a restore: one atomic write of an index file in the same folder (temp, fsync, rename, fsync of the folder). */
function atomicWriteFloor(dir: string): number {
  mkdirSync(dir, { recursive: true });
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    const tmp = path.join(dir, `.seq.tmp`);
    const fd = openSync(tmp, 'w');
    writeFileSync(fd, String(i));
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, path.join(dir, 'seq_index_0'));
    const d = openSync(dir, 'r');
    fsyncSync(d);
    closeSync(d);
    times.push(performance.now() - t0);
  }
  return pct(times, 50);
}

interface LoopResult {
  overwrites: number;
  wrongStarts: number;
  latencies: number[];
  /** Deletion of sequence/ → Fluent Bit's exit (observed by this process). */
  exitLag: number[];
  /** Fluent Bit's exit → the restored file. */
  afterExit: number[];
  missed: number;
}

async function loop(lab: Lab, conf: string, guard: GuardProcess | null, label: string, onMiddle?: () => Promise<void>): Promise<LoopResult> {
  const r: LoopResult = { overwrites: 0, wrongStarts: 0, latencies: [], exitLag: [], afterExit: [], missed: 0 };
  let before: BucketSnapshot = await lab.snapshot();
  let expectNext: number | null = null;
  const file = path.join(lab.root, 'sequence', 'index_metadata', 'seq_index_0');
  for (let i = 0; i < CYCLES; i++) {
    const run = await runFluentBit(lab, conf, `${label}${i}`, { uploads: 2, stop: 'none' });
    if (i === Math.floor(CYCLES / 2) && onMiddle) await onMiddle();
    const watched = guard ? watchRestore(file, 20_000) : null;
    const exitedAt = await run.stop('SIGTERM').then(() => performance.now());
    const at = continuingAt(run);
    if (expectNext !== null && at !== expectNext) r.wrongStarts++;
    const after = await lab.snapshot();
    r.overwrites += overwritten(before, after).length;
    const hi = highestIndex(after.objects.map((o) => o.key));
    expectNext = hi === null ? 0 : hi + 1;
    if (watched) {
      const w = await watched;
      if (w.restoredAt === null) r.missed++;
      else {
        r.latencies.push(w.restoredAt - w.deletedAt);
        // the guard must wait for Fluent Bit's process to be gone: its exit is part of the time
        r.exitLag.push(Math.max(0, exitedAt - w.deletedAt));
        r.afterExit.push(w.restoredAt - Math.max(exitedAt, w.deletedAt));
      }
    }
    before = after;
    process.stdout.write(`\r${label}: cycle ${i + 1}/${CYCLES}, ${r.overwrites} overwritten so far`);
  }
  process.stdout.write('\n');
  return r;
}

async function generateStore(base: string): Promise<string> {
  const done = path.join(base, 'complete');
  const store = path.join(base, 'store');
  if (existsSync(done)) return store;
  rmSync(base, { recursive: true, force: true });
  const chunk = encodeChunk({ meta: 'app.web', content: '{"date":1795977420.0,"msg":"GET /index.html 200"}\n'.repeat(40) });
  for (let i = 0; i < CHUNKS; i++) {
    const s = i % 20;
    const dir = path.join(store, 'bench', s === 19 ? 'quarantine' : `2026-11-29T18:${String(s).padStart(2, '0')}:00`);
    if (i < 20) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${1000 + i}-${i * 7919}`), chunk);
  }
  mkdirSync(path.join(store, 'bench', 'sequence', 'index_metadata'), { recursive: true });
  writeFileSync(path.join(store, 'bench', 'sequence', 'index_metadata', 'seq_index_0'), '12');
  writeFileSync(done, '');
  return store;
}

async function scrapeBench(): Promise<void> {
  const base = path.join(scratchBase(), `store-doctor-bench-guard-${CHUNKS}`);
  const t0 = Date.now();
  const store = await generateStore(base);
  console.log(`${CHUNKS}-chunk store ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (${store})`);
  const conf = path.join(base, 'fluent-bit.conf');
  writeFileSync(
    conf,
    `[OUTPUT]\n    name s3\n    match *\n    bucket bench\n    region us-east-1\n    store_dir ${store}\n    s3_key_format /$TAG/%Y/%m/%d/$INDEX\n`,
  );
  const fake = { dir: base, storeDir: store, name: 'scrape' } as unknown as Lab;
  const g = await startGuard(fake, conf, { stateDir: path.join(base, 'state'), env: GUARD_ENV });
  try {
    await g.until('the first scan', (r) => r.guard.state === 'watching', 300_000);
    const time = async (url: string) => {
      const t = performance.now();
      await (await fetch(url)).text();
      return performance.now() - t;
    };
    for (let i = 0; i < 3; i++) await time(`${g.url}/metrics`); // warm
    const scrapes: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < 30; i++) {
      scrapes.push(await time(`${g.url}/metrics`));
      floor.push(await time(`${g.url}/healthz`));
    }
    const body = await g.metrics();
    const chunks = /^store_doctor_backlog_chunks\{bucket="bench",kind="old"\} (\d+)$/m.exec(body)?.[1];
    console.log(`metrics report ${chunks} old chunks of ${CHUNKS}; last scan ${(await g.report()).lastScanSeconds} s`);
    figure(
      `/metrics scrape on a ${CHUNKS}-chunk store (p95 of 30)`,
      `${pct(scrapes, 95).toFixed(1)} ms (median ${pct(scrapes, 50).toFixed(1)} ms; GET /healthz floor ${pct(floor, 50).toFixed(1)} ms, ratio ${(pct(scrapes, 50) / pct(floor, 50)).toFixed(1)}×)`,
      '≤ 50 ms',
      pct(scrapes, 95) <= 50,
    );
    // the restore on a big store: the plan diagnoses it, the basis fingerprints it (per stream, cached)
    const seqDir = path.join(store, 'bench', 'sequence');
    const file = path.join(seqDir, 'index_metadata', 'seq_index_0');
    const lat: number[] = [];
    for (let i = 0; i < 10; i++) {
      await sleep(300);
      const watched = watchRestore(file, 20_000);
      await sleep(20);
      rmSync(seqDir, { recursive: true, force: true });
      const w = await watched;
      if (w.restoredAt !== null) lat.push(w.restoredAt - w.deletedAt);
    }
    figure(
      `sequence/ deletion → restored seq_index on a ${CHUNKS}-chunk store (no Fluent Bit), p99 of 10`,
      lat.length ? `${pct(lat, 99).toFixed(0)} ms (p50 ${pct(lat, 50).toFixed(0)} ms, ${lat.length} restores)` : 'no restore seen',
      '≤ 100 ms',
      lat.length === 10 && pct(lat, 99) <= 100,
    );
  } finally {
    await g.stop();
  }
}

async function main(): Promise<void> {
  const d = discoverFluentBit();
  const want = process.env.GUARD_BENCH_VERSION ?? '5.0.9';
  const fb = d.binaries.find((b) => b.version === want);
  if (!fb) throw new Error(`no Fluent Bit ${want}: ${d.skipReason ?? 'not found'} (set FLUENT_BIT_DIR)`);
  console.log(`bench:guard — Fluent Bit ${fb.version}, ${CYCLES} cycles each way, key format /$TAG/%Y/%m/%d/$INDEX`);

  const lab = await Lab.open(fb, 'bench-guard');
  const lab2 = await Lab.open(fb, 'bench-noguard');
  try {
    const floorMs = atomicWriteFloor(path.join(lab.dir, 'floor'));
    const conf = lab.writeConfig('guarded', { output: { uploadTimeout: '1s' } });
    // as deployed (README systemd unit, deploy/kubernetes, Dockerfile): a small young generation
    const guard = await startGuard(lab, conf, { env: GUARD_ENV });
    let usage: { cpuPct: number; rssMax: number; idleCpuPct: number } | null = null;
    let g: LoopResult;
    try {
      g = await loop(lab, conf, guard, 'with the guard', async () => {
        // Fluent Bit running normally: the guard's steady state (nothing to restore)
        const a = procUsage(guard.pid);
        let rssMax = a.rss;
        for (let s = 0; s < 20; s++) {
          await sleep(1000);
          rssMax = Math.max(rssMax, procUsage(guard.pid).rss);
        }
        const b = procUsage(guard.pid);
        usage = { cpuPct: ((b.cpu - a.cpu) / 20) * 100, rssMax, idleCpuPct: NaN };
      });
      // Fluent Bit stopped: the guard alone (after its last restore)
      await guard.until('the last restore', (x) => x.guard.restores >= CYCLES && x.guard.state === 'watching', 60_000).catch(() => undefined);
      await sleep(3000);
      const a = procUsage(guard.pid);
      await sleep(10_000);
      const b = procUsage(guard.pid);
      usage!.idleCpuPct = ((b.cpu - a.cpu) / 10) * 100;
      usage!.rssMax = Math.max(usage!.rssMax, b.rss);
    } finally {
      await guard.stop();
    }
    const conf2 = lab2.writeConfig('unguarded', { output: { uploadTimeout: '1s' } });
    const u = await loop(lab2, conf2, null, 'without the guard');

    figure('objects overwritten with the guard', String(g.overwrites), '0', g.overwrites === 0);
    figure('starts not continuing at the highest index in the bucket + 1, with the guard', `${g.wrongStarts} of ${CYCLES - 1}`, '0', g.wrongStarts === 0);
    figure('objects overwritten without the guard (same loop)', String(u.overwrites), '> 0 (shows the defect)', u.overwrites > 0);
    figure('starts not continuing without the guard', `${u.wrongStarts} of ${CYCLES - 1}`, '> 0', u.wrongStarts > 0);
    const lat = g.latencies;
    figure(
      'sequence/ deletion → restored seq_index on disk, p99',
      lat.length
        ? `${pct(lat, 99).toFixed(0)} ms (p50 ${pct(lat, 50).toFixed(0)} ms, max ${Math.max(...lat).toFixed(0)} ms, ${lat.length} restores, ${g.missed} not seen; of it Fluent Bit's exit after the deletion p50 ${pct(g.exitLag, 50).toFixed(0)} / p99 ${pct(g.exitLag, 99).toFixed(0)} ms, the guard after the exit p50 ${pct(g.afterExit, 50).toFixed(0)} / p99 ${pct(g.afterExit, 99).toFixed(0)} ms; floor: one atomic write ${floorMs.toFixed(2)} ms)`
        : `no restore seen (${g.missed} missed)`,
      '≤ 100 ms',
      lat.length === CYCLES && pct(lat, 99) <= 100,
    );
    const use = usage as { cpuPct: number; rssMax: number; idleCpuPct: number } | null;
    figure(
      'guard CPU while Fluent Bit runs (20 s)',
      `${use!.cpuPct.toFixed(2)} % of one core (Fluent Bit stopped, 10 s: ${use!.idleCpuPct.toFixed(2)} %)`,
      '≤ 1 %',
      use!.cpuPct <= 1,
    );
    figure(
      'guard RSS (max, NODE_OPTIONS=--max-semi-space-size=1 as deployed)',
      `${(use!.rssMax / 1024 / 1024).toFixed(1)} MB`,
      '≤ 80 MB',
      use!.rssMax <= 80 * 1024 * 1024,
    );
  } finally {
    await reapAll();
    await lab.close();
    await lab2.close();
  }
  await scrapeBench();
  const failed = results.filter((r) => !r.pass).length;
  console.log(`\n${results.length - failed} PASS, ${failed} FAIL`);
  process.exitCode = failed ? 1 : 0;
}

main().catch(async (err) => {
  console.error(err);
  await reapAll();
  process.exitCode = 1;
});
