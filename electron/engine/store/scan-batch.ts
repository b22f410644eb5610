/**
 * The batches of one directory scan (dir-scan.ts): a stream folder being read, its batches of
 * chunk files, and how a batch becomes ChunkInfos — read on this thread, or taken from a worker's
 * wire batch. A file that cannot be read becomes a ChunkInfo with its error and a problem.
 */
import type { ChunkInfo, StoreProblem, StreamKind } from '../../../shared/model';
import { chunkInfoOf, StringPool } from './chunk-info';
import { describeFsError } from './errors';
import { analyzeFileSync } from './io';
import { WireReader, type WireBatch } from './scan-wire';
import type { TreeNode } from './tree';

/** One stream folder being read. */
export interface StreamWork {
  node: TreeNode;
  kind: StreamKind;
  keep: number;
  /** `<stream>/`, shared by the paths of the stream's chunks. */
  prefix: string;
  /** Display path of the stream folder. */
  base: string;
  /** The folder's path with a trailing separator, for the chunk names. */
  dir: string | Buffer;
  /** Entries read so far; when no batch is left the stream is classified and its names let go. */
  infos: ChunkInfo[];
  left: number;
}

export interface Batch {
  work: StreamWork;
  /** Chunk files: a name in the stream folder, or a node (names that are not UTF-8, custom layouts). */
  items: (string | TreeNode)[];
  /** Items read so far (on this thread). */
  next: number;
  errors: StoreProblem[];
}

export interface SeqItem {
  node: TreeNode;
  shown: string;
  errors: StoreProblem[];
}

export const nameOf = (item: string | TreeNode): string => (typeof item === 'string' ? item : item.name);

export function pathOf(w: StreamWork, item: string | TreeNode): string | Buffer {
  if (typeof item !== 'string') return item.fsPath as string | Buffer;
  const dir = w.dir;
  return typeof dir === 'string' ? dir + item : Buffer.concat([dir, Buffer.from(item)]);
}

/**
 * Read a batch on this thread, from `b.next` on, until it is done or `deadline` (ms) has passed.
 * Returns the bytes read.
 */
export function readHere(b: Batch, records: boolean, buf: Buffer, pool: StringPool, deadline = Infinity): number {
  let bytes = 0;
  const w = b.work;
  const opts = { records, keepContent: w.keep };
  while (b.next < b.items.length) {
    const item = b.items[b.next++];
    try {
      const r = analyzeFileSync(pathOf(w, item), opts, buf);
      w.infos.push(pool.shareInfo(chunkInfoOf(nameOf(item), w.node.name, w.kind, { size: r.size, mtime: r.mtime, analysis: r.analysis }, w.prefix, pool)));
      bytes += r.bytesRead;
    } catch (err) {
      failed(b, nameOf(item), err, pool);
    }
    if (Date.now() >= deadline) break;
  }
  return bytes;
}

export function failed(b: Batch, name: string, err: unknown, pool: StringPool): void {
  const w = b.work;
  const shown = `${w.base}/${name}`;
  const readError = describeFsError(err, shown);
  w.infos.push(pool.shareInfo(chunkInfoOf(name, w.node.name, w.kind, { size: 0, mtime: null, readError }, w.prefix)));
  b.errors.push({ severity: 'error', path: shown, message: readError });
}

/** Take a worker's batch. Returns the bytes read. */
export function take(b: Batch, wire: WireBatch, pool: StringPool): number {
  const w = b.work;
  const rd = new WireReader(wire, pool);
  const errs = new Map(wire.errors.map((e) => [e[0], e] as const));
  let bytes = 0;
  for (let k = 0; k < b.items.length; k++) {
    const name = nameOf(b.items[k]);
    const e = errs.get(k);
    if (e) failed(b, name, Object.assign(new Error(e[2]), { code: e[1] }), pool);
    else {
      w.infos.push(rd.chunk(k, name, w.node.name, w.prefix));
      bytes += rd.bytesRead(k);
    }
  }
  return bytes;
}
