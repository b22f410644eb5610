/**
 * `npm run bench:scan` (not part of CI): a 100,000-chunk store (~1.3 GB, chunk sizes like the real
 * fixtures) under os.tmpdir(), reused when present. On warm cache it compares
 *   full scan (every header, every record counted)  vs  find … -print0 | xargs -0 cat  (throughput ratio, target ≥ 0.8)
 *   header-only scan (records:false)                 vs  find … -exec head -q -c 64 {} +  (time ratio, target ≤ 1.5)
 * and prints the peak RSS (target ≤ 200 MB). BENCH_CHUNKS=<n> makes a smaller store.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { encodeChunk } from '../../electron/engine/chunk';
import { scanStore } from '../../electron/engine/store';
import { jsonLines } from '../fixtures/generate';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
const STREAMS = 20;
const BASE = path.join(os.tmpdir(), `store-doctor-bench-${CHUNKS}`);
const STORE = path.join(BASE, 'store');
const DONE = path.join(BASE, 'complete');

/** File size classes seen in the real fixtures (content about 60 % of the file), with their share. */
const CLASSES = [
  { share: 0.75, fileSize: 4096 },
  { share: 0.22, fileSize: 36864 },
  { share: 0.03, fileSize: 69632 },
];

function template(fileSize: number, tag: string): Buffer {
  let lines = '';
  let n = 1;
  while (24 + tag.length + lines.length < fileSize * 0.6) lines = jsonLines(n++, { start: 1795977420 });
  return encodeChunk({ meta: tag, content: lines });
}

function generate(): void {
  if (fs.existsSync(DONE)) return;
  fs.rmSync(BASE, { recursive: true, force: true });
  const tags = ['app.web', 'app.db', 'sys.kernel'];
  const templates = CLASSES.map((c) => tags.map((t) => template(c.fileSize, t)));
  const t0 = Date.now();
  let bytes = 0;
  for (let i = 0; i < CHUNKS; i++) {
    const stream = path.join(STORE, 'bench', i % STREAMS === STREAMS - 1 ? 'quarantine' : `2026-11-29T18:${String(i % STREAMS).padStart(2, '0')}:00`);
    if (i < STREAMS) fs.mkdirSync(stream, { recursive: true });
    const r = (i * 2654435761) % 1000 / 1000;
    const cls = r < CLASSES[0].share ? 0 : r < CLASSES[0].share + CLASSES[1].share ? 1 : 2;
    const buf = templates[cls][i % tags.length];
    fs.writeFileSync(path.join(stream, `${6953322175898 + i}-${(i * 7919) % 1e9}`), buf);
    bytes += buf.length;
  }
  fs.mkdirSync(path.join(STORE, 'bench', 'sequence', 'index_metadata'), { recursive: true });
  fs.writeFileSync(path.join(STORE, 'bench', 'sequence', 'index_metadata', 'seq_index_0'), '123');
  fs.writeFileSync(DONE, String(bytes));
  console.log(`generated ${CHUNKS} chunks, ${(bytes / 1e9).toFixed(2)} GB in ${((Date.now() - t0) / 1000).toFixed(1)} s at ${STORE}`);
}

function sh(cmd: string): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('bash', ['-c', cmd], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} failed`);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

async function main(): Promise<void> {
  generate();
  const bytes = Number(fs.readFileSync(DONE, 'utf8'));
  const q = JSON.stringify(STORE);
  sh(`find ${q} -type f -print0 | xargs -0 cat > /dev/null`); // warm the page cache
  const cat = Math.min(sh(`find ${q} -type f -print0 | xargs -0 cat > /dev/null`), sh(`find ${q} -type f -print0 | xargs -0 cat > /dev/null`));
  const head = Math.min(sh(`find ${q} -type f -exec head -q -c 64 {} + > /dev/null`), sh(`find ${q} -type f -exec head -q -c 64 {} + > /dev/null`));
  let chunks = 0;
  const full = Math.min(
    await timed(async () => {
      const r = await scanStore(STORE, { records: true });
      chunks = r.roots.reduce((a, x) => a + x.totals.chunks, 0);
    }),
    await timed(() => scanStore(STORE, { records: true })),
  );
  const hdr = Math.min(await timed(() => scanStore(STORE, { records: false })), await timed(() => scanStore(STORE, { records: false })));
  const rssMb = process.resourceUsage().maxRSS / 1024;
  const mb = bytes / 1e6;
  console.log(`store: ${chunks} chunks, ${(bytes / 1e9).toFixed(2)} GB (${os.cpus().length} CPUs)`);
  console.log(`full scan:   ${full.toFixed(2)} s (${(mb / full).toFixed(0)} MB/s)  vs cat ${cat.toFixed(2)} s (${(mb / cat).toFixed(0)} MB/s): throughput ratio ${(cat / full).toFixed(2)}× (target ≥ 0.8×)`);
  console.log(`header scan: ${hdr.toFixed(2)} s  vs head -c 64 ${head.toFixed(2)} s: time ratio ${(hdr / head).toFixed(2)}× (target ≤ 1.5×)`);
  console.log(`peak RSS:    ${rssMb.toFixed(0)} MB (target ≤ 200 MB)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
