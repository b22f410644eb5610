/**
 * Scan worker thread: reads batches of chunk files (open, fstat, header and, when asked, all the
 * content) with one reused read buffer, builds each entry with the same {@link chunkInfoOf} as the
 * in-thread scan, and posts the batch back in the compact {@link WireBatch} form. Read-only.
 * Started by scan-pool.ts; does nothing when loaded outside a worker.
 */
import { parentPort } from 'node:worker_threads';
import { analyzeFileSync } from './io';
import { chunkInfoOf, StringPool } from './chunk-info';
import { WireWriter, type ScanJob } from './scan-wire';

const buf = Buffer.allocUnsafe(1024 * 1024);
/** Repeated tags and sentences are decoded once per worker (and cross to the main thread once per batch). */
const pool = new StringPool(10_000);

export function runJob(job: ScanJob): ReturnType<WireWriter['finish']> {
  const w = new WireWriter(job.paths.length);
  const opts = { records: job.records, keepContent: job.keep };
  for (let i = 0; i < job.paths.length; i++) {
    const p = job.paths[i];
    try {
      const r = analyzeFileSync(typeof p === 'string' ? p : Buffer.from(p.buffer, p.byteOffset, p.length), opts, buf);
      w.put(i, pool.shareInfo(chunkInfoOf('', '', job.kind, { size: r.size, mtime: r.mtime, analysis: r.analysis }, '/', pool)), r.bytesRead);
    } catch (err) {
      w.fail(i, err);
    }
  }
  return w.finish();
}

parentPort?.on('message', (msg: { id: number; job: ScanJob }) => {
  let out: { id: number; batch?: ReturnType<WireWriter['finish']>; error?: string };
  try {
    out = { id: msg.id, batch: runJob(msg.job) };
  } catch (err) {
    out = { id: msg.id, error: String((err as Error)?.stack ?? err) };
  }
  parentPort?.postMessage(out, out.batch ? [out.batch.num.buffer as ArrayBuffer, out.batch.str.buffer as ArrayBuffer] : []);
});
