/**
 * `npm run bench:scan` (not part of CI): a 100,000-chunk store (~1.3 GB, chunk sizes like the real
 * fixtures) under os.tmpdir(), reused when present. On warm cache it compares
 *   full scan (every header, every record counted)  vs  find … -print0 | xargs -0 cat  (throughput ratio, target ≥ 0.8)
 *   header-only scan (records:false)                 vs  find … -exec head -q -c 64 {} +  (time ratio, target ≤ 1.5)
 * The head baseline is the physical limit of reading every header: one `head` per ~ARG_MAX of paths
 * (not one process per file), each file opened, read (64 bytes) and closed; `find` walks the folders.
 * The scan does that too plus one fstat per file (a chunk's size and file time are in its report)
 * and the header's decoding. Both sides' CPU time is printed as well: on a busy machine the wall
 * times depend on the share of the cores each side gets, the CPU times much less.
 * and prints the peak RSS (target ≤ 200 MB), each with PASS/FAIL. The scans run in a child process
 * (scan-child.ts, started like `npx store-doctor`) so that the RSS is the scanner's; cat/head and the
 * scans alternate over BENCH_ROUNDS rounds (default 2) and the best of each is compared.
 * BENCH_CHUNKS=<n> makes a smaller store.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchStore } from './bench-store';

const { STORE, DONE, generate } = benchStore();

/** Run `cmd` in bash: its wall time and the CPU time (user + system) of its processes, from bash's `times`. */
function shCpu(cmd: string): { wall: number; cpu: number } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('bash', ['-c', `${cmd}\ntimes >&3`], { stdio: ['ignore', 'ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} failed`);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  // Second line of `times`: the children's user and system time, e.g. "0m0.103s 0m0.166s".
  const secs = [
    ...String(r.output[3] ?? '')
      .split('\n')[1]
      .matchAll(/(\d+)m([\d.]+)s/g),
  ].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return { wall, cpu: secs.reduce((a, b) => a + b, 0) };
}

function sh(cmd: string): number {
  return shCpu(cmd).wall;
}

interface ChildResult {
  times: number[];
  cpu: number[];
  chunks: number;
  records: number;
  maxRssMb: number;
}

/** Scan in a fresh process (node -r tsx/cjs, like `npx store-doctor`): `runs` scans, the first one cold (workers start). */
function scanChild(mode: 'full' | 'header', runs: number): ChildResult {
  const r = spawnSync(process.execPath, ['-r', 'tsx/cjs', path.join(__dirname, 'scan-child.ts'), STORE, mode, String(runs)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: path.join(__dirname, '..', '..'),
  });
  if (r.status !== 0) throw new Error(`scan child (${mode}) failed`);
  return JSON.parse(r.stdout.trim().split('\n').pop() as string) as ChildResult;
}

function verdict(ok: boolean): string {
  return ok ? 'PASS' : 'FAIL';
}

async function main(): Promise<void> {
  generate();
  const bytes = Number(fs.readFileSync(DONE, 'utf8'));
  const q = JSON.stringify(STORE);
  const catCmd = `find ${q} -type f -print0 | xargs -0 cat > /dev/null`;
  const headCmd = `find ${q} -type f -exec head -q -c 64 {} + > /dev/null`;
  sh(catCmd); // warm the page cache
  // Interleaved rounds so that load from other processes hits both sides alike; best of each.
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
  let cat = Infinity;
  let head = Infinity;
  let headCpu = Infinity;
  let full = Infinity;
  let hdr = Infinity;
  let fullCold = Infinity;
  let hdrCold = Infinity;
  let rss = 0;
  let fullCpu = Infinity;
  let hdrCpu = Infinity;
  let chunks = 0;
  let records = 0;
  for (let round = 0; round < ROUNDS; round++) {
    cat = Math.min(cat, sh(catCmd));
    const f = scanChild('full', 2);
    full = Math.min(full, ...f.times);
    fullCold = Math.min(fullCold, f.times[0]);
    const hd = shCpu(headCmd);
    head = Math.min(head, hd.wall);
    headCpu = Math.min(headCpu, hd.cpu);
    const h = scanChild('header', 2);
    hdr = Math.min(hdr, ...h.times);
    hdrCold = Math.min(hdrCold, h.times[0]);
    rss = Math.max(rss, f.maxRssMb, h.maxRssMb);
    fullCpu = Math.min(fullCpu, ...f.cpu);
    hdrCpu = Math.min(hdrCpu, ...h.cpu);
    chunks = f.chunks;
    records = f.records;
  }
  const mb = bytes / 1e6;
  const [load] = os.loadavg();
  const fullRatio = cat / full;
  const hdrRatio = hdr / head;
  console.log(
    `store: ${chunks} chunks, ${records} records, ${(bytes / 1e9).toFixed(2)} GB (${os.cpus().length} CPUs, load average ${load.toFixed(1)}; best of ${ROUNDS} interleaved rounds)`,
  );
  console.log(
    `full scan:   ${full.toFixed(2)} s (${(mb / full).toFixed(0)} MB/s; first scan of a process ${fullCold.toFixed(2)} s; ${fullCpu.toFixed(2)} s CPU)  vs cat ${cat.toFixed(2)} s (${(mb / cat).toFixed(0)} MB/s): throughput ratio ${fullRatio.toFixed(2)}× (target ≥ 0.8×) ${verdict(fullRatio >= 0.8)}`,
  );
  console.log(
    `header scan: ${hdr.toFixed(2)} s (first scan of a process ${hdrCold.toFixed(2)} s; ${hdrCpu.toFixed(2)} s CPU)  vs head -c 64 ${head.toFixed(2)} s: time ratio ${hdrRatio.toFixed(2)}× (target ≤ 1.5×) ${verdict(hdrRatio <= 1.5)}`,
  );
  console.log(
    `             CPU (user + system, all threads; less subject to load): ${hdrCpu.toFixed(2)} s vs find + head ${headCpu.toFixed(2)} s: ${(hdrCpu / headCpu).toFixed(2)}× (information)`,
  );
  console.log(`peak RSS:    ${rss.toFixed(0)} MB of the scanning process, 2 scans each (target ≤ 200 MB) ${verdict(rss <= 200)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
