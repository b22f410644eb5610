/**
 * Read one chunk of a scanned store (directory or archive): its info, metadata and content, or a
 * page of its records. `rootPath` is RootReport.path; `chunkPath` is ChunkInfo.path.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';
import type { ChunkInfo, RecordPage } from '../../../shared/model';
import { ChunkScanner, readRecordPage, type ByteSource } from '../chunk';
import { classifyRoot } from './classify';
import { describeFsError, StoreError } from './errors';
import { nameText, unescapeName } from './names';
import { entryMtime, MULTIPART_CAP, sniffArchive, splitEntryPath } from './archive-source';
import { newDir, type TreeNode } from './tree';
import { close, fstat, open, read } from './io';

const MAX_CHUNK_READ = 512 * 1024 * 1024;

function checkRel(chunkPath: string): string[] {
  const parts = chunkPath.split('/');
  if (parts.length !== 2 || parts.some((p) => p === '' || p === '.' || p === '..') || chunkPath.includes('\0')) {
    throw new StoreError(`${chunkPath}: not a chunk path (expected <stream>/<file>)`, chunkPath);
  }
  return parts;
}

/** A path on disk for a relative chunk path, undoing \xNN escapes of non-UTF-8 names. */
function fsPathOf(rootPath: string, parts: string[]): string | Buffer {
  const raw = parts.map((p) => unescapeName(p));
  if (raw.every((r) => r === null)) return path.join(rootPath, ...parts);
  return Buffer.concat([Buffer.from(rootPath + path.sep), raw[0] ?? Buffer.from(parts[0]), Buffer.from(path.sep), raw[1] ?? Buffer.from(parts[1])]);
}

/** Split `archive!/inside` into the archive path and the path inside; null for a directory root. */
export function archiveEntryOf(rootPath: string): { archive: string; inside: string[] } | null {
  const i = rootPath.indexOf('!/');
  if (i < 0) return null;
  return { archive: rootPath.slice(0, i), inside: splitEntryPath(rootPath.slice(i + 2)) ?? [] };
}

/** Hand the bytes of one archive entry (by display path) to `onEntry`; false when it is not there. */
async function withArchiveEntry(
  archive: string,
  want: string[],
  onEntry: (size: number, mtime: string | null, body: AsyncIterable<Buffer>) => Promise<void>,
): Promise<boolean> {
  const fd = await fs.promises.open(archive, 'r').catch((err) => {
    throw new StoreError(describeFsError(err, archive), archive);
  });
  const head = Buffer.alloc(512);
  await fd.read(head, 0, 512, 0);
  await fd.close();
  const kind = sniffArchive(head);
  if (!kind) throw new StoreError(`${archive}: not a .tar/.tar.gz archive`, archive);
  const input = fs.createReadStream(archive, { highWaterMark: 1024 * 1024 });
  const extract = tar.extract({ filenameEncoding: 'latin1' } as Parameters<typeof tar.extract>[0]);
  const src = kind.gzip ? input.pipe(zlib.createGunzip()) : input;
  src.on('error', (e: Error) => extract.destroy(e));
  input.on('error', (e) => extract.destroy(e));
  src.pipe(extract);
  const key = want.join('/');
  try {
    for await (const entry of extract) {
      const h = entry.header as tar.Header & { pax?: Record<string, string> | null };
      const raw = h.pax?.path ? Buffer.from(h.name, 'utf8') : Buffer.from(h.name, 'latin1');
      const name = splitEntryPath(nameText(raw).text)?.join('/');
      if ((h.type === 'file' || h.type === 'contiguous-file') && name === key) {
        await onEntry(h.size ?? 0, entryMtime(h), entry as AsyncIterable<Buffer>);
        return true;
      }
      entry.resume();
    }
  } catch (err) {
    throw new StoreError(`${archive}: unreadable archive (${(err as Error).message})`, archive);
  } finally {
    input.destroy();
  }
  return false;
}

function infoFor(chunkPath: string, rootPath: string, node: TreeNode): ChunkInfo {
  const [stream, name] = chunkPath.split('/');
  const root = newDir('root');
  const s = newDir(stream);
  s.children?.set(name, { ...node, name });
  root.children?.set(stream, s);
  const report = classifyRoot(root, path.basename(rootPath), rootPath);
  return report.streams[0].chunks[0];
}

/**
 * Info, metadata and content of one chunk. The content is kept only when asked (`content`, capped
 * at 512 MiB): the info needs none of it, except a multipart record (at most 4 MiB, as the scan).
 */
export async function readChunk(
  storePath: string,
  rootPath: string,
  chunkPath: string,
  opts: { content?: boolean } = {},
): Promise<{ info: ChunkInfo; meta: Buffer; content: Buffer; headerHex: string }> {
  void storePath;
  const parts = checkRel(chunkPath);
  let result: { info: ChunkInfo; meta: Buffer; content: Buffer; headerHex: string } | null = null;
  const keep = opts.content ? MAX_CHUNK_READ : parts[0] === 'multipart_upload_metadata' ? MULTIPART_CAP : 0;
  const analyse = async (size: number, mtime: string | null, body: AsyncIterable<Buffer>) => {
    const scanner = new ChunkScanner(size, { records: true, keepContent: keep });
    let head = Buffer.alloc(0);
    for await (const b of body) {
      if (head.length < 24) head = Buffer.concat([head, b.subarray(0, 24 - head.length)]);
      scanner.push(b);
    }
    const analysis = scanner.finish();
    const info = infoFor(chunkPath, rootPath, { name: parts[1], type: 'file', size, mtime, mode: null, analysis });
    result = { info, meta: analysis.meta ?? Buffer.alloc(0), content: analysis.content ?? Buffer.alloc(0), headerHex: head.toString('hex') };
  };
  const arch = archiveEntryOf(rootPath);
  if (arch) {
    const found = await withArchiveEntry(arch.archive, [...arch.inside, ...parts], analyse);
    if (!found) throw new StoreError(`${rootPath}/${chunkPath}: no such chunk in the archive`, `${rootPath}/${chunkPath}`);
  } else {
    const p = fsPathOf(rootPath, parts);
    try {
      const fd = await open(p);
      try {
        const st = await fstat(fd);
        await analyse(st.size, st.mtime.toISOString(), fileBlocks(fd, st.size));
      } finally {
        await close(fd);
      }
    } catch (err) {
      if (err instanceof StoreError) throw err;
      throw new StoreError(describeFsError(err, `${rootPath}/${chunkPath}`), `${rootPath}/${chunkPath}`, (err as NodeJS.ErrnoException).code);
    }
  }
  return result as unknown as { info: ChunkInfo; meta: Buffer; content: Buffer; headerHex: string };
}

async function* fileBlocks(fd: number, size: number): AsyncIterable<Buffer> {
  for (let pos = 0; pos < size;) {
    const buf = Buffer.allocUnsafe(Math.min(1024 * 1024, size - pos));
    const n = await read(fd, buf, buf.length, pos);
    if (n === 0) return;
    yield buf.subarray(0, n);
    pos += n;
  }
}

/** A page of records of a data chunk (streamed; checkpoints cached for directory stores). */
export async function readRecords(storePath: string, rootPath: string, chunkPath: string, offset: number, limit: number): Promise<RecordPage> {
  void storePath;
  const parts = checkRel(chunkPath);
  const arch = archiveEntryOf(rootPath);
  let page: RecordPage | null = null;
  if (arch) {
    const found = await withArchiveEntry(arch.archive, [...arch.inside, ...parts], async (size, _mtime, body) => {
      const r = await readRecordPage({ fileSize: size, stream: () => body }, offset, limit);
      page = { chunkPath, offset, records: r.records, total: r.total, nextOffset: r.nextOffset };
    });
    if (!found) throw new StoreError(`${rootPath}/${chunkPath}: no such chunk in the archive`, `${rootPath}/${chunkPath}`);
    return page as unknown as RecordPage;
  }
  const p = fsPathOf(rootPath, parts);
  let fd: number;
  try {
    fd = await open(p);
  } catch (err) {
    throw new StoreError(describeFsError(err, `${rootPath}/${chunkPath}`), `${rootPath}/${chunkPath}`, (err as NodeJS.ErrnoException).code);
  }
  try {
    const st = await fstat(fd);
    const src: ByteSource = {
      fileSize: st.size,
      id: `${String(p)}:${st.size}:${st.mtimeMs}:${st.ino}`,
      read: async (position, length) => {
        const b = Buffer.allocUnsafe(length);
        const n = await read(fd, b, length, position);
        return b.subarray(0, n);
      },
    };
    const r = await readRecordPage(src, offset, limit);
    return { chunkPath, offset, records: r.records, total: r.total, nextOffset: r.nextOffset };
  } finally {
    await close(fd);
  }
}
