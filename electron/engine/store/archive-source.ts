/**
 * Read a `.tar` / `.tar.gz` snapshot of a store in place: one streaming pass with tar-stream, no
 * extraction. Every regular file that may be a chunk is analysed while it streams by; seq_index
 * files are kept (small). The result is a {@link TreeNode} tree like a directory walk gives.
 */
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';
import type { Progress, StoreProblem } from '../../../shared/model';
import { ChunkScanner } from '../chunk';
import { ARCHIVE_CUT } from './chunk-info';
import { StoreError } from './errors';
import { nameText } from './names';
import { newDir, type EntryType, type TreeNode } from './tree';

export const SEQ_CAP = 64 * 1024;
export const MULTIPART_CAP = 4 * 1024 * 1024;
/** Longest entry name or link target (Linux PATH_MAX): no file of a real store has a longer path. */
export const PATH_MAX = 4096;
/** Largest pax header (all its records): a real one holds a path, times and a few numbers. */
export const PAX_MAX = 64 * 1024;

/**
 * Most entries read from one archive: each becomes a node of the tree the scan builds (about a KB
 * with its analysis), so a small .tar.gz of a million empty files took 1.27 GB. A store snapshot
 * with more files is refused (extract it and scan the folder, which is walked stream by stream).
 */
export const MAX_ARCHIVE_ENTRIES = 200_000;

/** An archive entry beyond a sane bound: the whole archive is refused (it is not a store snapshot). */
export class ArchiveLimitError extends Error {}

/**
 * Check one entry's header against the bounds before anything of it is kept. tar-stream itself
 * reads long headers up to 4 MiB each; without this a small .tar.gz of long pax names kept GBs.
 */
export function checkEntryLimits(h: tar.Header & { pax?: Record<string, string> | null }, index: number): void {
  const name = Buffer.byteLength(h.name ?? '', h.pax?.path ? 'utf8' : 'latin1');
  if (name > PATH_MAX)
    throw new ArchiveLimitError(`archive entry ${index} has a name of ${name} bytes, longer than PATH_MAX (${PATH_MAX}): not a snapshot of a store`);
  const link = Buffer.byteLength(h.linkname ?? '', 'utf8');
  if (link > PATH_MAX) throw new ArchiveLimitError(`archive entry ${index} has a link target of ${link} bytes, longer than PATH_MAX (${PATH_MAX})`);
  if (h.pax) {
    let size = 0;
    for (const [k, v] of Object.entries(h.pax)) size += k.length + String(v).length + 4;
    if (size > PAX_MAX) throw new ArchiveLimitError(`archive entry ${index} has a pax header of ${size} bytes (more than 64 KiB)`);
  }
}

/** Detect an archive from its first bytes: gzip magic, or a ustar/GNU tar header. */
export function sniffArchive(head: Buffer): { gzip: boolean } | null {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return { gzip: true };
  if (head.length >= 512) {
    const magic = head.subarray(257, 262).toString('latin1');
    if (magic === 'ustar') return { gzip: false };
    // Old v7 tar: verify the header checksum.
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : head[i];
    const stored = parseInt(head.subarray(148, 156).toString('latin1').replace(/\0.*$/, '').trim(), 8);
    if (head[0] !== 0 && stored === sum) return { gzip: false };
  }
  return null;
}

/** Entry path → segments: strips `./`, leading `/`, empty parts; null for `..` (never followed). */
export function splitEntryPath(name: string): string[] | null {
  const parts = name.split('/').filter((s) => s !== '' && s !== '.');
  return parts.includes('..') ? null : parts;
}

function typeOf(t: string | null | undefined): EntryType {
  if (t === 'file' || t === 'contiguous-file' || t === 'link') return 'file';
  if (t === 'directory') return 'directory';
  if (t === 'symlink') return 'symlink';
  return 'other';
}

function ensureDir(top: TreeNode, parts: string[]): TreeNode {
  let n = top;
  for (const p of parts) {
    let c = n.children?.get(p);
    if (!c || c.type !== 'directory') {
      c = newDir(p);
      n.children?.set(p, c);
    }
    n = c;
  }
  return n;
}

export interface ArchiveRead {
  top: TreeNode;
  entries: number;
  /** The archive ended early or was corrupt after `entries` entries. */
  error: string | null;
}

/** Stream the archive once into a tree, analysing chunk candidates on the way. */
export async function readArchive(
  file: string,
  gzip: boolean,
  opts: { records: boolean; signal?: AbortSignal; onProgress?: (p: Progress) => void; problems: StoreProblem[] },
): Promise<ArchiveRead> {
  const top = newDir('');
  const size = (await fs.promises.stat(file)).size;
  const input = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
  let compressed = 0;
  input.on('data', (b) => (compressed += b.length));
  const extract = tar.extract({ filenameEncoding: 'latin1' } as Parameters<typeof tar.extract>[0]);
  const source = gzip ? input.pipe(zlib.createGunzip()) : input;
  let failure: Error | null = null;
  const fail = (e: Error) => {
    failure ??= e;
    extract.destroy(e);
  };
  input.on('error', fail);
  if (gzip) source.on('error', fail);
  source.pipe(extract);
  const onAbort = () => fail(opts.signal?.reason instanceof Error ? opts.signal.reason : new Error('scan cancelled'));
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let entries = 0;
  let lastEmit = 0;
  /** Entries with an absolute path (tar -P, or crafted): read relative to the archive, reported once. */
  const absolute = { count: 0, first: '' };
  try {
    for await (const entry of extract) {
      if (++entries > MAX_ARCHIVE_ENTRIES)
        throw new ArchiveLimitError(
          `the archive has more than ${MAX_ARCHIVE_ENTRIES.toLocaleString('en-US')} entries: not a snapshot of one store (extract it and scan the folder, or archive less)`,
        );
      const h = entry.header as tar.Header & { pax?: Record<string, string> | null };
      checkEntryLimits(h, entries);
      // Names are decoded as latin1 to get their exact bytes back (pax paths are UTF-8 already).
      const rawName = h.pax?.path ? Buffer.from(h.name, 'utf8') : Buffer.from(h.name, 'latin1');
      const { text, utf8 } = nameText(rawName);
      if (text.startsWith('/') && absolute.count++ === 0) absolute.first = text;
      const parts = splitEntryPath(text);
      if (!parts || parts.length === 0) {
        if (!parts) opts.problems.push({ severity: 'warning', path: text, message: 'archive entry with ".." in its path: skipped' });
        entry.resume();
        continue;
      }
      if (!utf8) opts.problems.push({ severity: 'warning', path: text, message: 'name is not valid UTF-8 (shown with \\xNN escapes)' });
      else if (h.pax?.path && text.includes('\uFFFD')) {
        opts.problems.push({
          severity: 'warning',
          path: text,
          message: 'name is not valid UTF-8 (its pax path bytes are shown with U+FFFD replacement characters)',
        });
      }
      const type = typeOf(h.type);
      const parent = ensureDir(top, parts.slice(0, -1));
      const leaf = parts[parts.length - 1];
      const base = { size: h.size ?? 0, mtime: entryMtime(h), mode: h.mode ?? null, badName: !utf8 || undefined };
      if (type === 'directory') {
        const d = ensureDir(parent, [leaf]);
        Object.assign(d, base, { size: 0 });
        entry.resume();
      } else {
        const node: TreeNode = { name: leaf, type, ...base, linkTarget: h.linkname ?? null };
        parent.children?.set(leaf, node);
        if (h.type === 'link' && h.linkname) {
          const target = findNode(top, splitEntryPath(h.linkname) ?? []);
          if (target) Object.assign(node, { size: target.size, analysis: target.analysis, raw: target.raw });
          entry.resume();
        } else if (type === 'file' && parts.length >= 2) {
          if (parts[parts.length - 2] === 'index_metadata') {
            const bufs: Buffer[] = [];
            let got = 0;
            for await (const b of entry as AsyncIterable<Buffer>) {
              if (got < SEQ_CAP) bufs.push(b.subarray(0, SEQ_CAP - got));
              got += b.length;
            }
            node.raw = Buffer.concat(bufs);
          } else {
            const keep = parts[parts.length - 2] === 'multipart_upload_metadata' ? MULTIPART_CAP : 0;
            const scanner = new ChunkScanner(node.size, { records: opts.records, keepContent: keep });
            let got = 0;
            try {
              for await (const b of entry as AsyncIterable<Buffer>) {
                got += b.length;
                if (scanner.position < scanner.needUntil) scanner.push(b);
              }
            } catch (err) {
              // The archive ends inside this entry: its bytes in the store are unknown, not damaged.
              node.readError = `${ARCHIVE_CUT} (${got} of its ${node.size} bytes are in the archive)`;
              throw err;
            }
            node.analysis = scanner.finish();
          }
        } else entry.resume();
      }
      const now = Date.now();
      if (opts.onProgress && now - lastEmit > 100) {
        lastEmit = now;
        opts.onProgress({ task: 'scan', done: entries, total: null, bytes: compressed, totalBytes: size, current: text });
      }
    }
  } catch (err) {
    failure ??= err as Error;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    input.destroy();
  }
  if (absolute.count) {
    opts.problems.push({
      severity: 'warning',
      path: absolute.first,
      message: `${absolute.count === 1 ? 'an archive entry has' : `${absolute.count} archive entries have`} an absolute path: read relative to the archive (${absolute.first} as ${absolute.first.replace(/^\/+/, '')}); the store is found by its folders`,
    });
  }
  opts.signal?.throwIfAborted();
  if (failure instanceof ArchiveLimitError) throw new StoreError(`${file}: ${failure.message}`, file);
  opts.onProgress?.({ task: 'scan', done: entries, total: entries, bytes: compressed, totalBytes: size });
  return { top, entries, error: failure ? failure.message : null };
}

function findNode(top: TreeNode, parts: string[]): TreeNode | null {
  let n: TreeNode | undefined = top;
  for (const p of parts) n = n?.children?.get(p);
  return n ?? null;
}

/** mtime of an entry, with the sub-second precision of a pax `mtime` record when there is one. */
export function entryMtime(h: tar.Header & { pax?: Record<string, string> | null }): string | null {
  // Rounded to the millisecond, as Node's fs.Stats.mtime does for files on disk.
  const m = /^(\d+)(?:\.(\d+))?$/.exec(h.pax?.mtime ?? '');
  if (m) return new Date(Number(m[1]) * 1000 + Math.round(Number(`0.${m[2] ?? '0'}`) * 1000)).toISOString();
  return h.mtime ? h.mtime.toISOString() : null;
}
