/**
 * `scanStore`: open a store_dir, one root, or a .tar/.tar.gz snapshot of either (read in place),
 * analyse every chunk (directory stores: dir-scan.ts), and report it as Fluent Bit sees it. Read-only.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { plural } from '../../../shared/format';
import type { Progress, RootReport, StoreProblem, StoreReport, StoreSourceInfo } from '../../../shared/model';
import { classifyRoot } from './classify';
import { StringPool } from './chunk-info';
import { scanDirectory } from './dir-scan';
import { describeFsError, StoreError } from './errors';
import { readArchive, sniffArchive } from './archive-source';
import { detectLayout, rootsOf } from './tree';

export interface ScanStoreOptions {
  /** Count records in every data chunk (reads all content). Default true; false reads headers only. */
  records?: boolean;
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
  /** Folders listed at the same time (default 8). */
  concurrency?: number;
  /**
   * Worker threads that read chunk files of big directory stores besides this thread (default: one
   * per core but one, 1..3;
   * env STORE_DOCTOR_SCAN_WORKERS). 0 reads on this thread in short slices. The report is the same.
   */
  workers?: number;
  /** Fewest chunk files for which workers are used (default 4096). */
  workerThreshold?: number;
}

async function scanArchive(
  abs: string,
  given: string,
  gzip: boolean,
  opts: ScanStoreOptions,
  problems: StoreProblem[],
): Promise<{ roots: RootReport[]; source: StoreSourceInfo }> {
  const read = await readArchive(abs, gzip, { records: opts.records ?? true, signal: opts.signal, onProgress: opts.onProgress, problems });
  if (read.error) {
    if (read.entries === 0) throw new StoreError(`${abs}: unreadable archive (${read.error})`, abs);
    problems.push({
      severity: 'error',
      path: abs,
      message: `archive is truncated or corrupt after ${read.entries} entries (${read.error}); the report shows what could be read`,
    });
  }
  const layout = detectLayout(read.top, true);
  if (!layout) {
    problems.push({ severity: 'error', path: abs, message: `${abs}: not a Fluent Bit store — the archive holds no stream folders and no bucket roots` });
    return {
      roots: [],
      source: {
        kind: 'archive',
        path: given,
        archive: { gzip, entries: read.entries, layout: 'store_dir' },
        readOnly: true,
        description: `a ${gzip ? '.tar.gz' : '.tar'} archive with no Fluent Bit store in it (no stream folders and no bucket roots)`,
      },
    };
  }
  const inside = layout.prefix.join('/');
  const base = `${abs}!/${inside}`;
  if (layout.kind === 'root' && layout.prefix.length === 0) layout.node.name = path.basename(abs).replace(/\.(tar\.gz|tgz|tar)$/i, '');
  const roots = rootsOf(layout.kind, layout.node, layout.kind === 'root' ? base : base.replace(/\/$/, ''), problems);
  const pool = new StringPool();
  const reports = roots.map((r) => classifyRoot(r.node, r.bucket, r.path, pool));
  // seq_index entries not read as an index (a directory scan reports them while reading)
  for (const r of reports) {
    for (const s of r.seqIndex) {
      if (s.status === 'not-regular' || s.status === 'too-large' || s.status === 'unreadable')
        problems.push({ severity: 'error', path: `${r.path.replace(/\/$/, '')}/${s.path}`, message: s.message });
    }
  }
  const what =
    layout.kind === 'root'
      ? `one root (bucket ${roots[0].bucket})`
      : `a store_dir with ${plural(roots.length, 'bucket root')}${roots.length ? ` (${roots.map((r) => r.bucket).join(', ')})` : ''}`;
  return {
    roots: reports,
    source: {
      kind: 'archive',
      path: given,
      archive: { gzip, entries: read.entries, layout: layout.kind },
      readOnly: true,
      description: `a ${gzip ? '.tar.gz' : '.tar'} snapshot of ${what}${inside ? ` under ${inside}/` : ''}, read in place`,
    },
  };
}

/** Scan a store. Throws {@link StoreError} when the path is missing, unreadable or not a store. */
export async function scanStore(p: string, opts: ScanStoreOptions = {}): Promise<StoreReport> {
  const abs = path.resolve(p);
  let st: fs.Stats;
  try {
    st = await fs.promises.stat(abs);
  } catch (err) {
    throw new StoreError(describeFsError(err, abs), abs, (err as NodeJS.ErrnoException).code);
  }
  const problems: StoreProblem[] = [];
  let result: { roots: RootReport[]; source: StoreSourceInfo };
  if (st.isDirectory()) result = await scanDirectory(abs, p, opts, problems);
  else if (st.isFile()) {
    let head: Buffer;
    try {
      const fd = await fs.promises.open(abs, 'r');
      try {
        head = Buffer.alloc(512);
        const { bytesRead } = await fd.read(head, 0, 512, 0);
        head = head.subarray(0, bytesRead);
      } finally {
        await fd.close();
      }
    } catch (err) {
      throw new StoreError(describeFsError(err, abs), abs, (err as NodeJS.ErrnoException).code);
    }
    const kind = sniffArchive(head);
    if (!kind) throw new StoreError(`${abs}: not a store — a regular file that is neither a directory nor a .tar/.tar.gz archive`, abs);
    result = await scanArchive(abs, p, kind.gzip, opts, problems);
  } else throw new StoreError(`${abs}: not a directory or an archive file`, abs);
  return { source: result.source, roots: result.roots, scannedAt: new Date().toISOString(), problems };
}
