/**
 * Steps the scenarios share: run Fluent Bit until it has uploaded N objects and stop it the
 * chosen way; seed a bucket with objects an earlier run made; read the seq index.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { Lab } from './lab';
import { nextSecond, sleep } from './lab';
import type { FluentBitProcess } from './process';
import { dataChunks, seqIndexValue } from './store';

export const UPLOADED = /Successfully uploaded object/;

export interface RunOptions {
  /** Wait for this many "Successfully uploaded object" lines (or `until` lines) first (default 2). */
  uploads?: number;
  /** The log line to count instead of "Successfully uploaded object". */
  until?: RegExp;
  /** SIGTERM (graceful, default), SIGKILL (crash) or 'none' (leave it running). */
  stop?: 'SIGTERM' | 'SIGKILL' | 'none';
  /** SIGKILL only once at least this many data chunks wait in the store (default 1 for SIGKILL). */
  pendingChunks?: number;
  /** Extra wait before stopping (ms). */
  settleMs?: number;
  timeoutMs?: number;
}

/** Start (in a new second: two starts in one second share a stream name), wait, stop. */
export async function runFluentBit(lab: Lab, config: string, label: string, o: RunOptions = {}): Promise<FluentBitProcess> {
  await nextSecond();
  const p = lab.start(config, label);
  if ((o.uploads ?? 2) > 0) await p.waitFor(o.until ?? UPLOADED, { count: o.uploads ?? 2, timeoutMs: o.timeoutMs ?? 60_000 });
  if (o.settleMs) await sleep(o.settleMs);
  const stop = o.stop ?? 'SIGTERM';
  if (stop === 'SIGKILL') {
    const want = o.pendingChunks ?? 1;
    const deadline = Date.now() + 15_000;
    while (dataChunks(lab.store()).filter((c) => c.contentBytes > 0).length < want) {
      if (Date.now() > deadline) throw new Error(`no ${want} pending chunk(s) in ${lab.root} after 15 s; log:\n${p.tail()}`);
      await sleep(100);
    }
  }
  if (stop !== 'none') await p.stop(stop);
  return p;
}

/** The next $INDEX Fluent Bit will read from seq_index_<id> (null: absent or not a number). */
export function persistedIndex(lab: Lab, outputId = 0): number | null {
  return seqIndexValue(lab.store(), outputId);
}

/**
 * Objects an earlier Fluent Bit run made today at `<tag>/<Y>/<m>/<d>/<i>` for every tag and every
 * i < count, each with two JSON lines of run "seed": whichever tag a reset $INDEX 0…count-1 lands on,
 * it hits an existing key.
 */
export async function seedBucket(lab: Lab, tags: string[], count: number, when = new Date()): Promise<string[]> {
  const d = when.toISOString().slice(0, 10).replace(/-/g, '/');
  const keys: string[] = [];
  for (const tag of tags)
    for (let i = 0; i < count; i++) {
      const key = `${tag}/${d}/${i}`;
      const body =
        [0, 1].map((j) => JSON.stringify({ date: `${when.toISOString().slice(0, 19)}.00000${j}Z`, run: 'seed', tag, seq: i * 2 + j })).join('\n') + '\n';
      await lab.s3.send(new PutObjectCommand({ Bucket: lab.bucket, Key: key, Body: body, ContentLength: Buffer.byteLength(body) }));
      keys.push(key);
    }
  return keys;
}
