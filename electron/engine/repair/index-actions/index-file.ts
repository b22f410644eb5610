/**
 * The `$INDEX` state file (docs/fluent-bit-store-format.md#the-index-file): path, the read rule Fluent Bit applies
 * (`fscanf("%" PRIu64)`), and the one way we write it (atomic, ASCII decimal, no newline,
 * `sequence/` 0755 and `index_metadata/` 0700 created when missing).
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { SeqIndexInfo } from '../../../../shared/model';
import { parseSeqIndex, seqIndexInfo, SEQ_INDEX_MAX } from '../../store/seq-index';
import { previewBytes, safeReadFile, SafeReadError } from '../../store/safe-read';
import { atomicWriteFile, mkdirExact, type AtomicWriteHooks } from '../write';

export function seqIndexPaths(rootPath: string, outputId: number): { sequenceDir: string; indexDir: string; file: string } {
  const sequenceDir = path.join(rootPath, 'sequence');
  const indexDir = path.join(sequenceDir, 'index_metadata');
  return { sequenceDir, indexDir, file: path.join(indexDir, `seq_index_${outputId}`) };
}

/**
 * What Fluent Bit's `fscanf("%" PRIu64)` reads from these bytes, exactly as the scanner reads it
 * (store/seq-index.ts): null when no digit follows (Fluent Bit then refuses to start).
 */
export function fscanfU64(bytes: Buffer): bigint | null {
  const parsed = parseSeqIndex(bytes);
  return parsed.valueText === null ? null : BigInt(parsed.valueText);
}

export type SeqIndexState =
  | { state: 'missing'; value: null; bytes: null }
  | {
      state: 'empty' | 'unreadable';
      value: null;
      /** The bytes read: at most 64 KiB; empty for a file that is not opened (FIFO, symlink, device). */
      bytes: Buffer;
      /** Why it was not read as an index: "is a FIFO…", "is larger than 64 KiB…" (null: it holds no number). */
      problem?: string | null;
      /** Not a regular file: never opened, followed or replaced by Store Doctor. */
      notRegular?: boolean;
      /** The file's size when more than `bytes` were there. */
      size?: number;
    }
  | { state: 'value'; value: number; valueText: string; bytes: Buffer };

/**
 * Read an index file through the one safe reader (store/safe-read.ts): a symlink, FIFO or device
 * is never opened or followed (state `unreadable`, `notRegular`), at most 64 KiB are read (a bigger
 * file is `unreadable` with its first bytes). Throws, naming the file, when it cannot be read at all.
 */
export async function readSeqIndexState(file: string): Promise<SeqIndexState> {
  let r: Awaited<ReturnType<typeof safeReadFile>>;
  try {
    r = await safeReadFile(file, { maxBytes: SEQ_INDEX_MAX, head: true });
  } catch (err) {
    const e = err as SafeReadError;
    if (e.code === 'ENOENT') return { state: 'missing', value: null, bytes: null };
    if (e instanceof SafeReadError && e.kind !== 'io') return { state: 'unreadable', value: null, bytes: Buffer.alloc(0), problem: e.reason, notRegular: true };
    throw new Error(`${file}: cannot read the index file (${e instanceof SafeReadError ? e.reason : (err as Error).message})`);
  }
  const bytes = r.bytes;
  if (r.truncated) return { state: 'unreadable', value: null, bytes, problem: `is larger than 64 KiB (${r.size} bytes)`, size: r.size };
  if (bytes.length === 0) return { state: 'empty', value: null, bytes };
  const v = fscanfU64(bytes);
  if (v === null) return { state: 'unreadable', value: null, bytes, problem: null };
  return { state: 'value', value: v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v), valueText: v.toString(), bytes };
}

/** The bytes a plan shows of an index file: exact when short printable ASCII, else at most 64 bytes escaped. */
export function shownBytes(s: SeqIndexState): string | null {
  if (s.bytes === null) return null;
  const size = s.state === 'unreadable' ? (s.size ?? s.bytes.length) : s.bytes.length;
  if (size <= 64 && /^[\x20-\x7e]*$/.test(s.bytes.toString('latin1'))) return s.bytes.toString('latin1');
  return previewBytes(s.bytes, size);
}

export function describeSeqIndexState(s: SeqIndexState): string {
  if (s.state === 'missing') return 'missing (Fluent Bit would start again at 0)';
  if (s.state === 'empty') return 'empty (Fluent Bit refuses to start)';
  if (s.state === 'unreadable' && s.notRegular) return `${s.problem}: Store Doctor does not open, follow or replace it`;
  if (s.state === 'unreadable' && s.problem) return `${s.problem}, starting ${previewBytes(s.bytes, s.size)} (not a file Fluent Bit writes)`;
  if (s.state === 'unreadable') return `not a number: ${previewBytes(s.bytes)} (Fluent Bit refuses to start)`;
  return s.state === 'value' ? s.valueText : '?';
}

/** Why an index value cannot be handled exactly (JavaScript numbers are exact only up to 2^53 - 1), or null. */
export function unsafeIndexReason(value: number | bigint, what: string): string | null {
  if (typeof value === 'bigint' ? value <= BigInt(Number.MAX_SAFE_INTEGER) : Number.isSafeInteger(value) && value >= 0) return null;
  return `${what} ${value.toString()} is beyond 2^53 - 1 (${Number.MAX_SAFE_INTEGER}): Store Doctor cannot count exactly from there, so it will not write or allocate index values at that size. Set the file by hand if you really need it.`;
}

/** The exact value of a readable index file (uint64, may exceed 2^53). */
export function exactValue(s: SeqIndexState): bigint | null {
  return s.state === 'value' ? BigInt(s.valueText) : null;
}

export function encodeSeqIndex(value: number): Buffer {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`index ${value} is not a non-negative integer below 2^53`);
  return Buffer.from(String(value), 'ascii');
}

/**
 * Write `value` into `seq_index_<id>` atomically, creating `sequence/` (0755) and
 * `index_metadata/` (0700) when missing. New files and folders get the owner of the root, so a
 * Fluent Bit running as another user can still rewrite them. Returns which directories it created.
 */
export async function writeSeqIndex(
  rootPath: string,
  outputId: number,
  value: number,
  hooks?: AtomicWriteHooks,
): Promise<{ file: string; createdDirs: string[]; warnings: string[]; info: SeqIndexInfo }> {
  const { sequenceDir, indexDir, file } = seqIndexPaths(rootPath, outputId);
  const st = await fsp.stat(rootPath);
  const owner = { uid: st.uid, gid: st.gid };
  const createdDirs: string[] = [];
  if (await mkdirExact(rootPath, sequenceDir, 0o755, owner)) createdDirs.push(sequenceDir);
  if (await mkdirExact(rootPath, indexDir, 0o700, owner)) createdDirs.push(indexDir);
  const res = await atomicWriteFile(rootPath, file, encodeSeqIndex(value), { mode: 0o644, owner, hooks });
  // The one read-back, parsed by the scanner's own fscanf rule: what Fluent Bit will read.
  const name = path.basename(file);
  const info = seqIndexInfo(name, `sequence/index_metadata/${name}`, res.written, res.written.length, new Date().toISOString());
  if (info.valueText !== String(value)) throw new Error(`${file}: Fluent Bit would read ${info.valueText ?? 'nothing'} instead of ${value}`);
  return { file, createdDirs, warnings: res.warnings, info };
}
