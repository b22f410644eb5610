/**
 * The guard's view of the config's `[SERVICE] storage.path` (Fluent Bit's engine buffer): per input
 * folder, chunks, bytes and the chunks Fluent Bit will reject at its next start — for
 * store_doctor_storage_path_* metrics. Cheap and bounded: a refresh lists the input folders and
 * reads each chunk's 24-byte header (a header Fluent Bit rejects: too short, bad magic, truncated);
 * with storage.checksum on, a chunk's CRC is checked once per (inode, size, mtime) — the content is
 * read then and the answer cached — within a byte budget per refresh; a chunk not yet checked is
 * counted `unchecked`, never guessed. At most `maxChunks` chunks are looked at; never follows a link.
 */
import { constants as C, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { crc32, decodeChunkHeader, HEADER_SIZE } from '../chunk';

const OPEN_FLAGS = C.O_RDONLY | (C.O_NOFOLLOW ?? 0) | (C.O_NONBLOCK ?? 0) | (C.O_NOCTTY ?? 0);
const HEADER_REJECTS = new Set(['too-short', 'bad-magic', 'truncated']);

export interface InputBacklog {
  input: string;
  chunks: number;
  bytes: number;
  /** Chunks Fluent Bit will reject at its next start (header, or with checksum on the CRC). */
  rejected: number;
  /** With checksum on: chunks whose CRC was not checked yet (byte budget, too large, unreadable). */
  unchecked: number;
}

export interface StoragePathBacklogOptions {
  /** storage.checksum: true checks CRCs; false/null only headers (null: the config does not say). */
  checksum: boolean;
  /** Chunks looked at per refresh, all inputs together (default 100 000). */
  maxChunks?: number;
  /** Bytes of chunk content read per refresh for CRC checks (default 64 MiB). */
  crcBudgetBytes?: number;
}

/** Fluent Bit's input chunks are ~2 MB; a larger file is not read for its CRC. */
const MAX_CRC_FILE = 64 * 1024 * 1024;

export class StoragePathBacklog {
  inputs: InputBacklog[] = [];
  /** Chunk files left out because maxChunks was reached at the last refresh. */
  skipped = 0;
  private crcCache = new Map<string, { key: string; ok: boolean }>();

  constructor(
    readonly dir: string,
    readonly opts: StoragePathBacklogOptions,
  ) {}

  async refresh(): Promise<void> {
    const maxChunks = this.opts.maxChunks ?? 100_000;
    let budget = this.opts.crcBudgetBytes ?? 64 * 1024 * 1024;
    let seen = 0;
    let skipped = 0;
    const inputs: InputBacklog[] = [];
    const live = new Set<string>();
    let entries: import('node:fs').Dirent[] = [];
    try {
      entries = await fsp.readdir(this.dir, { withFileTypes: true });
    } catch {
      entries = [];
    }
    for (const e of entries.filter((x) => x.isDirectory() && !x.name.startsWith('.')).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const b: InputBacklog = { input: e.name, chunks: 0, bytes: 0, rejected: 0, unchecked: 0 };
      let files: import('node:fs').Dirent[] = [];
      try {
        files = await fsp.readdir(path.join(this.dir, e.name), { withFileTypes: true });
      } catch {
        files = [];
      }
      for (const f of files) {
        if (!f.isFile() || f.name.startsWith('.')) continue;
        if (seen >= maxChunks) {
          skipped++;
          continue;
        }
        seen++;
        const file = path.join(this.dir, e.name, f.name);
        live.add(file);
        const r = await this.readOne(file, budget);
        if (!r) continue; // gone since the listing
        budget -= r.read;
        b.chunks++;
        b.bytes += r.size;
        if (r.rejected === true) b.rejected++;
        else if (r.rejected === null) b.unchecked++;
      }
      inputs.push(b);
    }
    for (const k of this.crcCache.keys()) if (!live.has(k)) this.crcCache.delete(k);
    this.inputs = inputs;
    this.skipped = skipped;
  }

  /** rejected: true / false, or null when the CRC could not be checked this time. */
  private async readOne(file: string, budget: number): Promise<{ size: number; rejected: boolean | null; read: number } | null> {
    let fh;
    try {
      fh = await fsp.open(file, OPEN_FLAGS);
    } catch {
      return null;
    }
    try {
      const st = await fh.stat();
      if (!st.isFile()) return null;
      const head = Buffer.alloc(HEADER_SIZE);
      const { bytesRead } = await fh.read(head, 0, HEADER_SIZE, 0);
      const h = decodeChunkHeader(head.subarray(0, bytesRead), st.size);
      if (h.status === 'zero-byte') return { size: st.size, rejected: false, read: 0 };
      if (HEADER_REJECTS.has(h.status) || h.contentStart === null) return { size: st.size, rejected: true, read: 0 };
      if (!this.opts.checksum) return { size: st.size, rejected: false, read: 0 };
      // Checksum on: a zero CRC (written with checksum off) or non-zero padding is rejected as well (measured).
      const field = head.readUInt32BE(2);
      if (field === 0 || !h.crcPaddingZero) return { size: st.size, rejected: true, read: 0 };
      const key = `${st.ino}:${st.size}:${st.mtimeMs}`;
      const cached = this.crcCache.get(file);
      if (cached?.key === key) return { size: st.size, rejected: !cached.ok, read: 0 };
      if (st.size > MAX_CRC_FILE || st.size > budget) return { size: st.size, rejected: null, read: 0 };
      const buf = await fh.readFile();
      const again = decodeChunkHeader(buf, buf.length);
      const end = again.logicalEnd ?? buf.length;
      const ok = buf.length >= HEADER_SIZE && crc32(buf.subarray(22, end)) === field;
      this.crcCache.set(file, { key, ok });
      return { size: st.size, rejected: !ok, read: buf.length };
    } catch {
      return { size: 0, rejected: null, read: 0 };
    } finally {
      await fh.close();
    }
  }
}
