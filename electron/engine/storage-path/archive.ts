/**
 * A storage.path inside a `.tar` / `.tar.gz` (a support snapshot), read in place in one streaming
 * pass with tar-stream, never extracted: the folder whose first-level folders hold `*.flb` files is
 * the storage.path; each chunk is analysed while it streams by (at most MAX_ENGINE_CHUNK bytes
 * kept). Archives are read-only evidence: salvage refuses them.
 */
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';
import type { EngineChunkInfo, FluentBitConfig, StoragePathReport } from '../../../shared/model';
import { checkEntryLimits, sniffArchive, splitEntryPath } from '../store/archive-source';
import { analyzeEngineChunk } from './chunk';
import { buildReport, MAX_ENGINE_CHUNK, engineStreamOf } from './scan';

/** The archive format of `file`, or null when it is not a tar. */
export async function archiveKind(file: string): Promise<{ gzip: boolean } | null> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await fh.read(head, 0, 512, 0);
    return sniffArchive(head.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

interface Entry {
  parts: string[];
  info: EngineChunkInfo;
}

export async function scanStoragePathArchive(file: string, opts: { config?: FluentBitConfig | null } = {}): Promise<StoragePathReport | null> {
  const kind = await archiveKind(file);
  if (!kind) return null;
  const extract = tar.extract();
  const input = fs.createReadStream(file);
  const source = kind.gzip ? input.pipe(zlib.createGunzip()) : input;
  let failure: Error | null = null;
  const fail = (e: Error) => {
    failure ??= e;
    extract.destroy(e);
  };
  input.on('error', fail);
  source.on('error', fail);
  source.pipe(extract);
  const files: Entry[] = [];
  let n = 0;
  for await (const entry of extract) {
    const h = entry.header as tar.Header & { pax?: Record<string, string> | null };
    checkEntryLimits(h, ++n);
    const parts = splitEntryPath(h.name);
    if (h.type !== 'file' || !parts || parts.length < 2 || !parts[parts.length - 1].endsWith('.flb') || parts.some((p) => p.startsWith('.'))) {
      entry.resume();
      continue;
    }
    const size = h.size ?? 0;
    const stream = parts[parts.length - 2];
    const name = parts[parts.length - 1];
    const mtime = h.mtime instanceof Date ? h.mtime : null;
    if (size > MAX_ENGINE_CHUNK) {
      entry.resume();
      const a = analyzeEngineChunk(stream, name, Buffer.alloc(0), mtime).info;
      files.push({ parts, info: { ...a, fileSize: size, fateChecksumOn: 'unknown', fateChecksumOff: 'unknown', fateText: `${size} bytes: not analyzed` } });
      continue;
    }
    const bufs: Buffer[] = [];
    for await (const b of entry as AsyncIterable<Buffer>) bufs.push(b);
    files.push({ parts, info: analyzeEngineChunk(stream, name, Buffer.concat(bufs), mtime).info });
  }
  if (failure) throw failure;
  if (!files.length) return null;
  // The storage.path is the folder two levels above the first chunk; chunks elsewhere are not its.
  const rootParts = files[0].parts.slice(0, -2);
  const prefix = rootParts.join('/');
  const byStream = new Map<string, EngineChunkInfo[]>();
  const ignored: StoragePathReport['ignored'][number][] = [];
  for (const f of files) {
    if (f.parts.length !== rootParts.length + 2 || f.parts.slice(0, -2).join('/') !== prefix) {
      ignored.push({ path: f.parts.join('/'), reason: 'a chunk outside the storage.path found first in the archive' });
      continue;
    }
    const list = byStream.get(f.info.stream) ?? [];
    list.push(f.info);
    byStream.set(f.info.stream, list);
  }
  const streams = [...byStream.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, chunks]) =>
      engineStreamOf(
        name,
        chunks.sort((a, b) => (a.name < b.name ? -1 : 1)),
      ),
    );
  return buildReport(`${file}${prefix ? `/${prefix}` : ''}`, streams, ignored, opts.config ?? null);
}
