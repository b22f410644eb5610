/**
 * The benchmarks' store (bench:scan, bench:ui's app open): BENCH_CHUNKS (default 100,000) chunks
 * with sizes like the real fixtures (~1 GB) in 20 streams, under os.tmpdir(), made once and reused.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { encodeChunk } from '../../electron/engine/chunk';
import { jsonLines } from '../fixtures/generate';

export const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
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
    const r = ((i * 2654435761) % 1000) / 1000;
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

/** The store's paths; generate() makes it when it is not there yet. */
export function benchStore(): { STORE: string; DONE: string; generate: () => void } {
  return { STORE, DONE, generate };
}
