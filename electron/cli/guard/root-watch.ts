/**
 * What the guard keeps per root it watches, its options, and two small lookups on the report. Its
 * behaviour is in ./door.ts.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { FluentBitConfig, StoreReport } from '../../../shared/model';
import { safeReadFile } from '../../engine/store/safe-read';

export interface GuardOptions {
  store: string;
  config: string;
  stateDir: string;
  /** Also keep a marker chunk in sequence/ where it is safe. */
  marker?: boolean;
  pollMs?: number;
  refreshDebounceMs?: number;
  /** First wait before a restore is tried again (doubles per attempt, up to 30 s). Default 25 ms. */
  retryMs?: number;
  /** Log every session request with its duration. */
  trace?: boolean;
  log: (line: string) => void;
}

export interface OutputWatch {
  id: number;
  displayName: string;
  bucket: string;
  /** The output's s3_key_format and endpoint (null: AWS): its key identity across nodes. */
  keyFormat: string;
  endpoint: string | null;
}

export interface RootWatch {
  bucket: string;
  rootPath: string;
  shadowDir: string;
  outputs: OutputWatch[];
  guarded: Map<number, { value: number; final: boolean }>;
  restores: Map<number, number>;
  lastRestoreAt: string | null;
  /** No process uses the root (checked), and nothing wrote in place since. */
  idle: boolean;
  deletedAt: number | null;
  restoring: boolean;
  /** Another deletion was seen while restoring: go round once more. */
  again: boolean;
  /** Processes seen using the root while Fluent Bit ran (waited for after a graceful stop). */
  pids: number[];
  learning: boolean;
  /** The processes were looked up during this run of Fluent Bit (again after the next restore). */
  learned: boolean;
  /** Values the guard restored itself, until a different one is read (reading them back is not Fluent Bit at work). */
  ownWrites: Map<number, number>;
  /** Ends the wait between two attempts. */
  wake: (() => void) | null;
  problem: string | null;
  /** Device and inode of the root folder, fixed when the guard first saw it (at its start, or when Fluent Bit created it). */
  identity: { dev: number; ino: number } | null;
  /** Why the root is no longer the folder the guard started on (a symbolic link, another folder): nothing is written there. */
  replaced: string | null;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `<root>/<stream>` of a path under one of the roots (else the path itself). */
export function streamOf(p: string, roots: string[]): string {
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

/** A root's watch as the guard starts it: the values of its state folder, final where known. */
export function newRootWatch(
  where: Pick<RootWatch, 'bucket' | 'rootPath' | 'shadowDir' | 'outputs'>,
  values: Map<number, number | null>,
  finals: Map<number, number | null>,
): RootWatch {
  const guarded = new Map<number, { value: number; final: boolean }>();
  for (const [id, v] of values) if (v !== null) guarded.set(id, { value: v, final: finals.get(id) === v });
  return {
    ...where,
    guarded,
    restores: new Map(),
    lastRestoreAt: null,
    idle: false,
    deletedAt: null,
    restoring: false,
    again: false,
    wake: null,
    pids: [],
    learning: false,
    learned: false,
    ownWrites: new Map(),
    problem: null,
    identity: null,
    replaced: null,
  };
}

/**
 * Is the root still the folder the guard started on? `lstat` of its path, never followed: 'absent'
 * when it does not exist (Fluent Bit creates it at its start), 'ok' when it is that folder (the
 * first folder seen is fixed as the root), else why not — a symbolic link or another folder in its
 * place, where the guard writes nothing.
 */
export async function checkRootIdentity(w: RootWatch): Promise<'ok' | 'absent' | string> {
  let st: import('node:fs').Stats;
  try {
    st = await fsp.lstat(w.rootPath);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : `${w.rootPath}: ${(err as Error).message}`;
  }
  if (st.isSymbolicLink())
    return `${w.rootPath} is now a symbolic link (to ${await fsp.readlink(w.rootPath).catch(() => '?')}), not the root folder the guard started on`;
  if (!st.isDirectory()) return `${w.rootPath} is no longer a folder`;
  if (!w.identity) {
    w.identity = { dev: st.dev, ino: st.ino };
    return 'ok';
  }
  if (st.dev !== w.identity.dev || st.ino !== w.identity.ino)
    return `${w.rootPath} is another folder now (device ${st.dev}, inode ${st.ino}; the guard started on inode ${w.identity.ino} of device ${w.identity.dev})`;
  return 'ok';
}

/** Wait `ms`, or less when `w.wake()` is called (another deletion was seen meanwhile). */
export async function waitOrWake(w: RootWatch, ms: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    w.wake = () => {
      clearTimeout(t);
      resolve();
    };
  });
  w.wake = null;
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
