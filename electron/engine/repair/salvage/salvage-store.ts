/**
 * `salvage` of a store_dir (S3 output buffer): for each chunk the S3 output rejects at start — a
 * header whose `24 + M + L` runs past the file ("truncated"), or whose magic bytes are wrong — a
 * valid chunk in its place: the same name, the same tag (metadata), the content that is in the file
 * kept up to its last complete line (S3 chunks hold raw log lines / JSON lines, not msgpack), a torn
 * last line cut and reported, the CRC field 0 as the S3 output writes it (its store opens without
 * checksums, so a CRC mismatch is loaded, never rejected: not salvaged). A chunk shorter than the
 * header holds nothing to keep: reported, left alone. Plan here; applySalvage writes it
 * (docs/fluent-bit-store-format.md "What a start does with each file").
 */
import { constants as bufferConstants } from 'node:buffer';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PlanStep, RepairPlan, SalvageDetails } from '../../../../shared/model';
import { decodeChunkHeader, encodeChunk, HEADER_SIZE } from '../../chunk';
import { safeReadFile } from '../../store/safe-read';
import { isStoragePath } from '../../storage-path';
import { isChunkLikeName, isStreamLikeName, OWN_DIR } from '../../store/tree';
import { finishPlan } from '../outcome';
import { checkWriteAllowed } from '../preconditions';
import { sha256 } from '../journal';

/** Folders of a root that hold no data chunk of an output (multipart state, quarantine, the $INDEX folder). */
const NOT_DATA = new Set(['multipart_upload_metadata', 'quarantine', 'sequence', OWN_DIR]);

export interface StoreChunkSalvage {
  /** What the S3 output does with the file at start: `rejected` ones are the ones salvaged. */
  rejected: boolean;
  /** Why it is rejected (or why it is not salvageable); null when loaded. */
  reason: string | null;
  /** The valid chunk to write in its place; null when loaded or nothing can be kept. */
  salvage: Buffer | null;
  /** Complete lines kept. */
  records: number;
  /** Bytes of a torn last line cut. */
  cutBytes: number;
}

const printable = (b: Buffer) => b.every((c) => c >= 0x20 && c < 0x7f);

/** The salvage of one store_dir chunk file (pure: bytes in, bytes out). */
export function salvageStoreChunk(buf: Buffer): StoreChunkSalvage {
  const h = decodeChunkHeader(buf, buf.length);
  const none = (rejected: boolean, reason: string | null): StoreChunkSalvage => ({ rejected, reason, salvage: null, records: 0, cutBytes: 0 });
  if (h.status !== 'truncated' && h.status !== 'bad-magic' && h.status !== 'too-short') return none(false, null);
  if (h.status === 'too-short') return none(true, `${h.message} Nothing to keep: left alone.`);
  const metaEnd = HEADER_SIZE + (h.metaLength ?? 0);
  const meta = buf.subarray(HEADER_SIZE, Math.min(metaEnd, buf.length));
  // A tag the S3 output wrote is printable; a damaged header's metadata length points at garbage.
  if (metaEnd > buf.length || !printable(meta)) return none(true, `${h.message} The metadata (tag) does not decode: nothing kept, left alone.`);
  const field = h.contentLengthField ?? 0;
  let end = h.status === 'bad-magic' && field > 0 && metaEnd + field <= buf.length ? metaEnd + field : buf.length;
  while (end > metaEnd && buf[end - 1] === 0) end--; // page padding
  const body = buf.subarray(metaEnd, end);
  const last = body.lastIndexOf(0x0a);
  const kept = body.subarray(0, last + 1);
  const records = kept.length ? kept.toString('latin1').split('\n').length - 1 : 0;
  if (!records) return none(true, `${h.message} No complete line in it: nothing kept, left alone.`);
  return { rejected: true, reason: h.message, salvage: encodeChunk({ meta, content: kept, crc: false }), records, cutBytes: body.length - kept.length };
}

/** Read one store_dir chunk (the one safe reader) and its salvage. */
export async function readStoreChunk(file: string): Promise<{ bytes: Buffer; s: StoreChunkSalvage }> {
  const { bytes } = await safeReadFile(file, { maxBytes: bufferConstants.MAX_LENGTH });
  return { bytes, s: salvageStoreChunk(bytes) };
}

async function isBucketRoot(dir: string): Promise<boolean> {
  for (const d of await fs.promises.readdir(dir, { withFileTypes: true })) {
    if (!d.isDirectory() || d.name.startsWith('.')) continue;
    if (isStreamLikeName(d.name)) return true;
    const files = await fs.promises.readdir(path.join(dir, d.name), { withFileTypes: true });
    if (files.some((f) => f.isFile() && isChunkLikeName(f.name) && !f.name.endsWith('.flb'))) return true;
  }
  return false;
}

/**
 * The bucket roots a salvage of `p` works on: `p` itself when it is a bucket root (stream folders,
 * out_s3 chunk names), else its folders that are (a store_dir); null when `p` is neither (a
 * storage.path, a file, an unrelated folder).
 */
export async function storeRootOf(p: string): Promise<{ roots: string[] } | null> {
  const st = await fs.promises.stat(p).catch(() => null); // the path as given may be a link (as store.open takes it): apply resolves and pins it
  if (!st?.isDirectory() || (await isStoragePath(p))) return null;
  if (await isBucketRoot(p)) return { roots: [p] };
  const roots: string[] = [];
  for (const d of await fs.promises.readdir(p, { withFileTypes: true }))
    if (d.isDirectory() && !d.name.startsWith('.') && (await isBucketRoot(path.join(p, d.name)))) roots.push(path.join(p, d.name));
  return roots.length ? { roots: roots.sort() } : null;
}

export async function planStoreSalvage(
  rootPath: string,
  opts: { storePath?: string; force?: boolean; skipProcessCheck?: boolean; only?: readonly string[] } = {},
): Promise<RepairPlan> {
  const only = opts.only ? new Set(opts.only.map((p) => path.resolve(p))) : null;
  const chunks: SalvageDetails['chunks'] = [];
  const steps: PlanStep[] = [];
  const left: string[] = [];
  for (const s of await fs.promises.readdir(rootPath, { withFileTypes: true })) {
    if (!s.isDirectory() || NOT_DATA.has(s.name)) continue;
    for (const f of await fs.promises.readdir(path.join(rootPath, s.name), { withFileTypes: true })) {
      if (!f.isFile() || !isChunkLikeName(f.name) || f.name.endsWith('.flb')) continue;
      const file = path.join(rootPath, s.name, f.name);
      if (only && !only.has(file)) continue;
      const { bytes, s: r } = await readStoreChunk(file);
      if (!r.rejected) continue;
      if (!r.salvage) {
        left.push(`${s.name}/${f.name}: ${r.reason}`);
        continue;
      }
      chunks.push({ path: file, beforeSha256: sha256(bytes), afterSha256: sha256(r.salvage), records: r.records, cutBytes: r.cutBytes });
      steps.push({
        kind: 'write-file',
        target: file,
        description: `Replace ${s.name}/${f.name} with a valid chunk keeping its ${r.records} complete line(s)${r.cutBytes ? `, a torn last line cut (${r.cutBytes} bytes)` : ''}: ${r.reason}`,
      });
    }
  }
  const check = await checkWriteAllowed(rootPath, { skipProcessCheck: opts.skipProcessCheck });
  const records = chunks.reduce((n, c) => n + c.records, 0);
  const plan: RepairPlan = {
    action: 'salvage',
    storePath: opts.storePath ?? rootPath,
    rootPath,
    summary: chunks.length
      ? `Salvage ${chunks.length} chunk(s) of ${rootPath}: ${records} line(s) kept${chunks.some((c) => c.cutBytes) ? `, ${chunks.filter((c) => c.cutBytes).length} torn last line(s) cut` : ''}.`
      : `Nothing to salvage in ${rootPath}: no chunk${only ? ' of those named' : ''} the S3 output would reject${left.length ? ` that holds a complete line` : ''}.`,
    why: [
      'The S3 output rejects at start a chunk whose header says more bytes than the file holds ("truncated") or whose magic is wrong, and never uploads nor deletes it: its lines are never delivered.',
      ...left.map((l) => `Left alone: ${l}`),
    ],
    steps,
    warnings: [...check.warnings],
    refusals: [...check.refusals],
    details: { kind: 'salvage', rootPath, layout: 'store-dir', chunks },
    confirm: path.basename(rootPath),
  };
  return finishPlan(plan, opts.force);
}
