/**
 * Real Fluent Bit engine buffers (`storage.path`) for the harness and the tests: make one (dummy
 * inputs with `storage.type filesystem`, never flushed, then SIGKILL), derive the damaged kinds
 * from it (a torn last record), and restart a binary on a copy with only a stdout `json_lines`
 * output (no inputs, so no stream name collides with the backlog's) to see what it does with each
 * file: records delivered, `format check failed`, files left.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { analyzeEngineChunk } from '../../../electron/engine/storage-path';
import { startFluentBit, type FluentBitProcess } from './process';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type BufferKind = 'kill-checksum-on' | 'kill-checksum-off' | 'torn-last-record' | 'chunks-down';
export const BUFFER_KINDS: BufferKind[] = ['kill-checksum-on', 'kill-checksum-off', 'torn-last-record', 'chunks-down'];

/** Every chunk file of a storage.path, relative (`dummy.0/…flb`), sorted. */
export function chunkFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const s of readdirSync(dir).sort()) {
    const sd = path.join(dir, s);
    if (s.startsWith('.') || !statSync(sd).isDirectory()) continue;
    for (const f of readdirSync(sd).sort()) if (!f.startsWith('.') && statSync(path.join(sd, f)).isFile()) out.push(`${s}/${f}`);
  }
  return out;
}

/** Records in the chunks of `dir` (our analysis). */
export function recordsIn(dir: string): number {
  return chunkFiles(dir).reduce(
    (n, rel) => n + analyzeEngineChunk(path.dirname(rel), path.basename(rel), readFileSync(path.join(dir, rel)), null).info.records,
    0,
  );
}

function genConfig(store: string, kind: BufferKind): string {
  const checksum = kind === 'kill-checksum-on' || kind === 'chunks-down' ? 'on' : 'off';
  const big = kind === 'chunks-down';
  const input = (tag: string) =>
    `[INPUT]\n    Name dummy\n    Tag ${tag}\n    Rate ${big ? 2000 : 50}\n    Dummy {"msg":"${big ? 'x'.repeat(1500) : tag}","n":1}\n    storage.type filesystem\n`;
  return (
    `[SERVICE]\n    Flush 3600\n    Grace 1\n    Log_Level info\n    storage.path ${store}\n    storage.checksum ${checksum}\n` +
    (big ? '    storage.max_chunks_up 1\n' : '') +
    input('app.a') +
    input('app.b') +
    `[OUTPUT]\n    Name stdout\n    Match app.*\n    Format json_lines\n`
  );
}

/**
 * Run `bin` on an empty `store` until the buffer holds enough (each input has a chunk with ≥ 50
 * records; chunks-down: ≥ 4 chunk files), then SIGKILL. Returns the config used.
 */
export async function makeBuffer(bin: string, work: string, kind: BufferKind): Promise<{ config: string; log: string }> {
  const store = path.join(work, 'store');
  mkdirSync(store, { recursive: true });
  const config = path.join(work, 'generate.conf');
  writeFileSync(config, genConfig(store, kind === 'torn-last-record' ? 'kill-checksum-off' : kind));
  const log = path.join(work, 'generate.log');
  const fb = startFluentBit({ bin, config, logFile: log, env: {} });
  const enough = () => {
    const files = chunkFiles(store);
    if (kind === 'chunks-down') return files.length >= 4;
    const per = new Map<string, number>();
    try {
      for (const f of files)
        per.set(f.split('/')[0], (per.get(f.split('/')[0]) ?? 0) + analyzeEngineChunk('s', 'c', readFileSync(path.join(store, f)), null).info.records);
    } catch {
      return false;
    }
    return per.size >= 2 && [...per.values()].every((n) => n >= 100);
  };
  for (let i = 0; i < 600 && !enough(); i++) {
    if (!fb.running) throw new Error(`Fluent Bit exited while generating:\n${fb.tail()}`);
    await sleep(100);
  }
  await fb.stop('SIGKILL');
  if (kind === 'torn-last-record') tearLastRecord(store);
  return { config, log };
}

/** Cut the last event of the first chunk in half (the content length shrinks, the cut bytes are zeroed): a write torn by a crash. */
export function tearLastRecord(store: string): { file: string; cut: number } {
  const rel = chunkFiles(store)[0];
  const file = path.join(store, rel);
  const buf = readFileSync(file);
  const meta = buf.readUInt16BE(22);
  const a = analyzeEngineChunk(path.dirname(rel), path.basename(rel), buf, null).info;
  if (a.records < 2) throw new Error(`${rel}: fewer than 2 records to tear`);
  let len = buf.readUInt32BE(10);
  if (len === 0) len = buf.length - 24 - meta; // legacy header (1.9.x): the zero padding is trimmed below
  let end = 24 + meta + len;
  while (end > 24 + meta && buf[end - 1] === 0) end--; // skip padding to the last event's end
  const cut = 7;
  if (buf.readUInt32BE(10) === 0) {
    // Legacy header (Fluent Bit < 2.1.10): the length is the file's; a torn write ends the file.
    writeFileSync(file, buf.subarray(0, end - cut));
    return { file: rel, cut };
  }
  buf.fill(0, end - cut, buf.length);
  buf.writeUInt32BE(end - cut - 24 - meta, 10);
  writeFileSync(file, buf);
  return { file: rel, cut };
}

export interface RestartResult {
  delivered: number;
  unique: number;
  formatCheckFailed: string[];
  crcInvalid: number;
  left: string[];
  exit: { code: number | null; signal: string | null };
  log: string;
}

/** Start `bin` on `store` (stdout json_lines, no inputs), wait until `expect` records are out (or nothing more comes), stop gracefully. */
export async function restart(bin: string, work: string, store: string, checksum: boolean, expect: number | null): Promise<RestartResult> {
  const config = path.join(work, `restart-${checksum ? 'on' : 'off'}.conf`);
  writeFileSync(
    config,
    `[SERVICE]\n    Flush 1\n    Grace 2\n    Log_Level info\n    storage.path ${store}\n    storage.checksum ${checksum ? 'on' : 'off'}\n[OUTPUT]\n    Name stdout\n    Match *\n    Format json_lines\n`,
  );
  const logFile = path.join(work, `restart-${checksum ? 'on' : 'off'}.log`);
  const fb: FluentBitProcess = startFluentBit({ bin, config, logFile, env: {} });
  const count = () =>
    fb
      .log()
      .split('\n')
      .filter((l) => l.startsWith('{')).length;
  let last = -1;
  let quiet = 0;
  for (let i = 0; i < 600; i++) {
    const n = count();
    if (expect !== null && n >= expect) break;
    quiet = n === last ? quiet + 1 : 0;
    last = n;
    if (expect === null && quiet >= 40) break; // measuring: nothing new for a while
    if (!fb.running) break;
    await sleep(100);
  }
  const exit = await fb.stop('SIGTERM');
  const log = fb.log();
  const lines = log.split('\n').filter((l) => l.startsWith('{'));
  return {
    delivered: lines.length,
    unique: new Set(lines).size,
    formatCheckFailed: [...log.matchAll(/format check failed: (\S+)/g)].map((m) => m[1]),
    crcInvalid: [...log.matchAll(/invalid crc32/g)].length,
    left: chunkFiles(store),
    exit,
    log,
  };
}
