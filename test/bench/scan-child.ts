/**
 * Child process of `npm run bench:scan`: runs scanStore on a store `runs` times in one mode and
 * prints one JSON line { times, cpu (seconds of CPU, all threads), chunks, records, maxRssMb }. It runs under `node -r tsx/cjs`, as
 * `npx store-doctor` does, so its peak RSS is the scanner's (not the bench harness's).
 */
import { scanStore } from '../../electron/engine/store';

/** One timed scan; the report is dropped when it returns (as the bench always did). */
async function once(store: string, records: boolean): Promise<{ time: number; cpu: number; chunks: number; records: number }> {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const r = await scanStore(store, { records });
  const time = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  return {
    time,
    cpu: (c.user + c.system) / 1e6,
    chunks: r.roots.reduce((a, x) => a + x.totals.chunks, 0),
    records: r.roots.reduce((a, x) => a + x.totals.records, 0),
  };
}

async function main(): Promise<void> {
  const [store, mode, runsArg] = process.argv.slice(2);
  const runs = Number(runsArg ?? 2);
  const times: number[] = [];
  const cpu: number[] = [];
  let chunks = 0;
  let records = 0;
  for (let i = 0; i < runs; i++) {
    const r = await once(store, mode === 'full');
    times.push(r.time);
    cpu.push(r.cpu);
    chunks = r.chunks;
    records = r.records;
  }
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ times, cpu, chunks, records, maxRssMb })}\n`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
