/**
 * Small reads the guard daemon makes about a root: is it still the folder the guard started on,
 * what its index file holds now, which outputs it guards, where a changed path belongs.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { FluentBitConfig, StoreReport } from '../../../shared/model';
import { safeReadFile } from '../store/safe-read';
import type { OutputWatch } from './root-state';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `<root>/<stream>` of a path under one of the roots (else the path itself). */
export function streamFolderOf(p: string, roots: string[]): string {
  const root = roots.find((r) => p.startsWith(r + path.sep));
  return root ? path.join(root, p.slice(root.length + 1).split(path.sep)[0]) : p;
}

/** seq_index values of a root in a report (id → value). */
export function rootFactsOf(report: StoreReport | null, rootPath: string): Map<number, number | null> {
  const root = report?.roots.find((r) => r.path === rootPath);
  return new Map((root?.seqIndex ?? []).filter((x) => x.outputId !== null).map((x) => [x.outputId as number, x.value] as const));
}

export const isDir = (p: string): Promise<boolean> =>
  fsp.stat(p).then(
    (st) => st.isDirectory(),
    () => false,
  );

/** The S3 outputs with $INDEX in their key format, by bucket: what the guard watches. */
export function indexOutputsByBucket(config: FluentBitConfig): Map<string, OutputWatch[]> {
  const byBucket = new Map<string, OutputWatch[]>();
  for (const o of config.outputs)
    if (o.s3?.hasIndex)
      byBucket.set(o.s3.bucket, [
        ...(byBucket.get(o.s3.bucket) ?? []),
        { id: o.id, displayName: o.displayName, bucket: o.s3.bucket, keyFormat: o.s3.s3KeyFormat, endpoint: o.s3.endpoint },
      ]);
  return byBucket;
}

/**
 * Is the root still the folder the guard started on? `lstat` of its path, never followed: 'absent'
 * when it does not exist (Fluent Bit creates it at its start), 'ok' when it is that folder (the
 * first folder seen is fixed as the root), else why not — a symbolic link or another folder in its
 * place, where the guard writes nothing.
 */
export async function checkRootFolder(w: { rootPath: string; folder: { dev: number; ino: number } | null }): Promise<'ok' | 'absent' | string> {
  let st: import('node:fs').Stats;
  try {
    st = await fsp.lstat(w.rootPath);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : `${w.rootPath}: ${(err as Error).message}`;
  }
  if (st.isSymbolicLink())
    return `${w.rootPath} is now a symbolic link (to ${await fsp.readlink(w.rootPath).catch(() => '?')}), not the root folder the guard started on`;
  if (!st.isDirectory()) return `${w.rootPath} is no longer a folder`;
  if (!w.folder) {
    w.folder = { dev: st.dev, ino: st.ino };
    return 'ok';
  }
  if (st.dev !== w.folder.dev || st.ino !== w.folder.ino)
    return `${w.rootPath} is another folder now (device ${st.dev}, inode ${st.ino}; the guard started on inode ${w.folder.ino} of device ${w.folder.dev})`;
  return 'ok';
}

/**
 * The value in `seq_index_<id>` on disk now (null: missing, empty, not a number, or not a regular
 * file — read through the safe reader, never following a link). Not kept: only to see that a
 * restore has nothing left to do (someone repaired the root meanwhile).
 */
export async function indexOnDisk(rootPath: string, id: number): Promise<number | null> {
  try {
    const r = await safeReadFile(path.join(rootPath, 'sequence', 'index_metadata', `seq_index_${id}`), { maxBytes: 64 });
    const text = r.bytes.toString('latin1').trim();
    return /^\d{1,15}$/.test(text) ? Number(text) : null;
  } catch {
    return null;
  }
}
