/**
 * Open a Fluent Bit engine buffer (`storage.path`): one folder per input instance (`dummy.0`,
 * `tail.1`, …) holding chunk files (`<pid>-<sec>.<nsec>.flb`); each chunk analyzed (chunk.ts), the
 * backlog per input and what the config's storage limits do with it (limits.ts). Reads only; never
 * follows a link; a chunk file is read whole only up to MAX_ENGINE_CHUNK bytes.
 */
import { constants as C, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { EngineChunkInfo, EngineStreamInfo, FluentBitConfig, StoragePathReport } from '../../../shared/model';
import { analyzeEngineChunk } from './chunk';
import { checksumOf, storageLimits } from './limits';
import { nextStartFate } from '../../../shared/storage-path-backlog';

/** Fluent Bit's input chunks are ~2 MB; anything far larger is not read whole. */
export const MAX_ENGINE_CHUNK = 64 * 1024 * 1024;
const OPEN_FLAGS = C.O_RDONLY | (C.O_NOFOLLOW ?? 0) | (C.O_NONBLOCK ?? 0) | (C.O_NOCTTY ?? 0);
const STREAM_RE = /^([A-Za-z0-9_-]+)\.(\d+)$/;

/** True when `dir` looks like a storage.path (a first-level folder holding a `*.flb` file, or named `<plugin>.<n>` with chunk files), not a store_dir. */
export async function isStoragePath(dir: string): Promise<boolean> {
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const e of entries) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue;
    let inner: string[];
    try {
      inner = await fsp.readdir(path.join(dir, e.name));
    } catch {
      continue;
    }
    if (inner.some((n) => n.endsWith('.flb') && !n.startsWith('.'))) return true;
  }
  return false;
}

export interface ScanStoragePathOptions {
  config?: FluentBitConfig | null;
}

export async function scanStoragePath(dir: string, opts: ScanStoragePathOptions = {}): Promise<StoragePathReport> {
  const root = path.resolve(dir);
  const st = await fsp.lstat(root);
  if (!st.isDirectory()) throw new Error(`${root} is not a folder`);
  const streams: EngineStreamInfo[] = [];
  const ignored: StoragePathReport['ignored'][number][] = [];
  const entries = (await fsp.readdir(root, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith('.')) {
      ignored.push({ path: e.name, reason: 'name starts with "." — chunkio skips dot entries' });
      continue;
    }
    if (!e.isDirectory()) {
      ignored.push({ path: e.name, reason: e.isSymbolicLink() ? 'symbolic link — not followed' : 'not a folder — only folders are streams' });
      continue;
    }
    streams.push(await scanStream(root, e.name, ignored));
  }
  return buildReport(root, streams, ignored, opts.config ?? null);
}

/** The report of a storage.path from its streams (a folder or an archive). */
export function buildReport(
  root: string,
  streams: EngineStreamInfo[],
  ignored: StoragePathReport['ignored'],
  config: FluentBitConfig | null,
): StoragePathReport {
  const totals = { chunks: 0, bytes: 0, records: 0, rejected: 0, rejectedRecords: 0, torn: 0 };
  const checksum = config?.service ? checksumOf(config.service) : null;
  for (const s of streams)
    for (const c of s.chunks) {
      totals.chunks++;
      totals.bytes += c.fileSize;
      totals.records += c.records;
      if (nextStartFate(c, checksum) === 'reject') {
        totals.rejected++;
        totals.rejectedRecords += c.records;
      }
      if (c.tornBytes) totals.torn++;
    }
  const limits = storageLimits(streams, config);
  const findings: string[] = [];
  const when = checksum === null ? 'with storage.checksum on' : checksum ? '(storage.checksum is on)' : '(storage.checksum is off)';
  if (totals.rejected)
    findings.push(
      `${totals.rejected} chunk(s) holding ${totals.rejectedRecords} record(s) will be rejected at the next start ${when} ("format check failed"): run \`store-doctor salvage\`.`,
    );
  if (totals.torn) findings.push(`${totals.torn} chunk(s) end with a torn last record (cut by salvage).`);
  findings.push(...limits.effects);
  return { kind: 'storage-path', path: root, streams, ignored, totals, limits, findings };
}

async function scanStream(root: string, name: string, ignored: StoragePathReport['ignored'][number][]): Promise<EngineStreamInfo> {
  const chunks: EngineChunkInfo[] = [];
  const dir = path.join(root, name);
  let entries: import('node:fs').Dirent[] = [];
  try {
    entries = (await fsp.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    ignored.push({ path: name, reason: `could not be read: ${(err as Error).message}` });
  }
  for (const e of entries) {
    if (e.name.startsWith('.') || !e.isFile()) {
      ignored.push({
        path: `${name}/${e.name}`,
        reason: e.name.startsWith('.') ? 'dot entry — skipped by chunkio' : 'not a regular file — chunkio registers only files',
      });
      continue;
    }
    chunks.push(await readEngineChunk(dir, name, e.name));
  }
  return engineStreamOf(name, chunks);
}

/** A stream's summary from its analysed chunks. */
export function engineStreamOf(name: string, chunks: EngineChunkInfo[]): EngineStreamInfo {
  const m = STREAM_RE.exec(name);
  const times = chunks
    .flatMap((c) => [c.firstTime, c.lastTime])
    .filter((t): t is string => !!t)
    .sort();
  return {
    name,
    plugin: m ? m[1] : null,
    instance: m ? Number(m[2]) : null,
    chunks,
    records: chunks.reduce((s, c) => s + c.records, 0),
    bytes: chunks.reduce((s, c) => s + c.fileSize, 0),
    oldestTime: times[0] ?? null,
    newestTime: times[times.length - 1] ?? null,
  };
}

/** Read and analyze one chunk file (exported for salvage: it re-reads right before writing). */
export async function readEngineChunk(dir: string, stream: string, name: string): Promise<EngineChunkInfo> {
  return (await readChunkBytes(dir, stream, name)).info;
}

export async function readChunkBytes(dir: string, stream: string, name: string) {
  const file = path.join(dir, name);
  const fh = await fsp.open(file, OPEN_FLAGS);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new Error(`${file} is not a regular file`);
    if (st.size > MAX_ENGINE_CHUNK) {
      const a = analyzeEngineChunk(stream, name, Buffer.alloc(0), st.mtime);
      const info: EngineChunkInfo = {
        ...a.info,
        fileSize: st.size,
        fateText: `${st.size} bytes: larger than Store Doctor reads whole (${MAX_ENGINE_CHUNK}); not analyzed.`,
        fateChecksumOn: 'unknown',
        fateChecksumOff: 'unknown',
      };
      return { ...a, info, bytes: null as Buffer | null, file };
    }
    const bytes = await fh.readFile();
    return { ...analyzeEngineChunk(stream, name, bytes, st.mtime), bytes: bytes as Buffer | null, file };
  } finally {
    await fh.close();
  }
}
