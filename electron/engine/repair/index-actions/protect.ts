/**
 * Protect the index from the next graceful stop (docs/fluent-bit-store-format.md#graceful-stop).
 * - marker: a valid empty chunk `sequence/store-doctor-marker` keeps `sequence/` through graceful
 *   stops. Refused when another S3 output sharing the root lacks `$INDEX` (verified in docs/fluent-bit-store-format.md#graceful-stop:
 *   that output uploads the marker as a 0-byte object, deletes it, and the index is lost).
 * - shadow: copy every `seq_index_<id>` outside store_dir (never lowering a shadow value), for
 *   `restore-index` in a pre-start hook.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { PlanStep, RepairPlan, RepairResult } from '../../../../shared/model';
import { decodeChunkHeader, encodeChunk } from '../../chunk';
import { atomicWriteFile, mkdirExact } from '../write';
import { assertNotRefused, finishPlan, startResult, startPlan } from '../outcome';
import { pathExists } from '../write';
import { checkWriteAllowed, type WriteFrame, writeFrame, type WriteTestHooks } from '../preconditions';
import { folderThenFileChanges } from '../journal';
import { readSeqIndexState } from './index-file';
import { copyToShadow, defaultShadowDir, readShadow } from '../shadow';
import { safeReadFile, type SafeReadError } from '../../store/safe-read';

export const MARKER_NAME = 'store-doctor-marker';
export const MARKER_META = 'store-doctor-marker';

export interface OutputOnRoot {
  id: number;
  displayName: string;
  hasIndex: boolean;
}

export interface ProtectInput {
  storePath: string;
  rootPath: string;
  method: 'marker' | 'shadow';
  /** S3 outputs whose root is this root (from the config); null when no config was given. */
  outputsOnRoot: OutputOnRoot[] | null;
  shadowDir?: string;
  readOnlySource?: boolean;
  archive?: boolean;
  skipProcessCheck?: boolean;
  force?: boolean;
}

/** The marker chunk bytes: CRC 0, content length 0, metadata `store-doctor-marker`, 4096 bytes. */
export function markerBytes(): Buffer {
  return encodeChunk({ meta: MARKER_META, content: Buffer.alloc(0), pageSize: 4096 });
}

/** `seq_index_<id>` files of a root's `sequence/index_metadata/` with what Fluent Bit would read (a shadow folder is read by ./shadow.ts). */
export async function seqIndexValues(dir: string): Promise<Map<number, number | null>> {
  const out = new Map<number, number | null>();
  let names: string[] = [];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    const m = /^seq_index_(\d+)$/.exec(n);
    if (!m) continue;
    const s = await readSeqIndexState(path.join(dir, n));
    out.set(Number(m[1]), s.state === 'value' ? s.value : null);
  }
  return out;
}

export async function planProtectIndex(input: ProtectInput): Promise<RepairPlan> {
  const rootPath = path.resolve(input.rootPath);
  const plan = startPlan('protect-index', path.resolve(input.storePath), rootPath);
  const indexDir = path.join(rootPath, 'sequence', 'index_metadata');
  const disk = await seqIndexValues(indexDir);
  if (!disk.size) plan.warnings.push('No seq_index file in this root yet: nothing holds an index. Run repair-index first.');
  if (input.method === 'marker') {
    plan.why.push(
      'A graceful stop deletes sequence/ because Fluent Bit registers no chunk in it. A valid empty chunk directly in sequence/ keeps the folder; the $INDEX owner never uploads it (verified with Fluent Bit 5.0.9).',
    );
    if (input.outputsOnRoot === null) {
      plan.refusals.push({
        reason:
          'Without the Fluent Bit config it cannot be checked that every S3 output sharing this root uses $INDEX, and a marker is only safe then. Load the config, or force if you know it is so.',
        forceable: true,
      });
    } else {
      for (const o of input.outputsOnRoot.filter((x) => !x.hasIndex)) {
        plan.refusals.push({
          reason: `Output ${o.displayName} (id ${o.id}) shares this root and its s3_key_format has no $INDEX: at its start it would upload the marker as a 0-byte object, delete it, and the next graceful stop deletes sequence/ with the index (verified with Fluent Bit 5.0.9). Use a shadow copy instead, or give each output its own store_dir.`,
          forceable: false,
        });
      }
    }
    const marker = path.join(rootPath, 'sequence', MARKER_NAME);
    // Read through the safe reader: a FIFO or symlink planted as the marker is never opened or followed.
    const read = await safeReadFile(marker, { maxBytes: 64 * 1024, head: true }).then(
      (r) => ({ bytes: r.bytes, problem: null }),
      (e: SafeReadError) => ({ bytes: null, problem: e.code === 'ENOENT' ? null : e.message }),
    );
    const existing = read.bytes;
    if (read.problem)
      plan.refusals.push({ reason: `${read.problem}: Store Doctor will not replace it; remove it by hand, then plan again.`, forceable: false });
    if (existing && existing.equals(markerBytes())) {
      plan.summary = 'Already protected: the marker chunk is in place.';
      plan.details = { kind: 'protect-marker', rootPath, marker, noChange: true };
    } else {
      if (!(await pathExists(path.join(rootPath, 'sequence'))))
        plan.steps.push({ kind: 'mkdir', target: path.join(rootPath, 'sequence'), description: 'create sequence/ (0755)' });
      plan.steps.push({
        kind: 'write-file',
        target: marker,
        description: `write a valid empty chunk (4096 bytes, CRC 0, content length 0, metadata "${MARKER_META}", mode 0600) through a dot-named temp file + rename`,
        before: existing ? `${existing.length} bytes` : null,
        after: '4096-byte marker chunk',
      });
      plan.summary = `Protect sequence/ of ${path.basename(rootPath)} with a marker chunk.`;
      plan.details = { kind: 'protect-marker', rootPath, marker, noChange: false, expectedBeforeHex: existing ? existing.toString('hex') : null };
    }
    const g = await checkWriteAllowed(rootPath, { readOnlySource: input.readOnlySource, archive: input.archive, skipProcessCheck: input.skipProcessCheck });
    plan.refusals.push(...g.refusals);
    plan.warnings.push(...g.warnings);
  } else {
    const shadow = input.shadowDir ? path.resolve(input.shadowDir) : await defaultShadowDir(rootPath);
    plan.why.push(
      `A copy outside store_dir survives graceful stops; restore-index (ExecStartPre / init container) puts back the highest of shadow, disk and bucket evidence.`,
    );
    const old = (await readShadow(shadow)).values;
    const writes: { id: number; value: number }[] = [];
    for (const [id, v] of disk) {
      if (v === null) {
        plan.warnings.push(`seq_index_${id} is unreadable: not copied.`);
        continue;
      }
      const prev = old.get(id) ?? null;
      if (prev !== null && prev > v) {
        plan.warnings.push(
          `seq_index_${id} on disk (${v}) is below the shadow copy (${prev}): the index went back (reset?). The shadow keeps ${prev}; run restore-index before Fluent Bit starts.`,
        );
        continue;
      }
      if (prev === v) continue;
      writes.push({ id, value: v });
      plan.steps.push({
        kind: 'write-file',
        target: path.join(shadow, `seq_index_${id}`),
        description: `copy seq_index_${id} = ${v} to the shadow folder`,
        before: prev === null ? null : String(prev),
        after: String(v),
      });
    }
    plan.summary = writes.length ? `Copy ${writes.length} index file(s) to ${shadow}.` : `Nothing to copy: the shadow copy in ${shadow} is up to date.`;
    plan.details = { kind: 'protect-shadow', rootPath, shadowDir: shadow, writes, noChange: !writes.length };
    // A shadow copy is taken outside the store: no need for Fluent Bit to be stopped.
    const g = await checkWriteAllowed(rootPath, { readOnlySource: input.readOnlySource, archive: input.archive, skipProcessCheck: true });
    plan.refusals.push(...g.refusals);
  }
  return finishPlan(plan, input.force);
}

export async function applyProtectPlan(
  plan: RepairPlan,
  opts: { force?: boolean; skipProcessCheck?: boolean; hooks?: WriteTestHooks; frame?: WriteFrame } = {},
): Promise<RepairResult> {
  const d = plan.details;
  if (d?.kind !== 'protect-marker' && d?.kind !== 'protect-shadow') throw new Error('not a protect-index plan');
  const result = startResult(plan);
  assertNotRefused(plan.refusals, opts.force);
  if (d.noChange) {
    result.verified = true;
    return result;
  }
  if (d.kind === 'protect-marker') {
    const frame = writeFrame(opts);
    const marker = d.marker;
    const seq = path.dirname(marker);
    const made: string[] = [];
    const out = await frame.journaled(
      plan,
      result,
      {
        root: d.rootPath,
        scope: ['sequence'],
        what: 'the protection',
        changes: () => folderThenFileChanges([seq], marker, made),
      },
      async () => {
        const st = await fsp.stat(d.rootPath);
        await mkdirExact(d.rootPath, seq, 0o755, { uid: st.uid, gid: st.gid });
        const w = await atomicWriteFile(d.rootPath, marker, markerBytes(), { mode: 0o600, owner: { uid: st.uid, gid: st.gid } });
        result.warnings.push(...w.warnings);
        const back = w.written;
        const h = decodeChunkHeader(back, back.length);
        const verified = h.status === 'ok' && h.contentLength === 0 && back.subarray(24, 24 + (h.metaLength ?? 0)).toString() === MARKER_META;
        return { verified, expected: [marker, seq] };
      },
    );
    result.verified = out.verified;
    result.summary = `Marker chunk written to ${marker}${result.verified ? ' (verified: a valid empty chunk)' : ' (NOT verified)'}.`;
  } else {
    // Written outside the store, and meant to run while Fluent Bit runs: no store watch. But never
    // for an archive or a read-only source (re-checked here; the plan already refuses them).
    await writeFrame(opts).assertSource(d.rootPath);
    // Not in the store's undo journal: the copy lies outside the store, and a journal in a store may
    // only ever name paths inside it (undo-check.ts). The shadow never goes down: nothing to undo, and
    // a timer run must not become the "last action" that undo reverts.
    const shadow = d.shadowDir;
    const writes = d.writes;
    const back = await copyToShadow(shadow, d.rootPath, writes);
    result.verified = writes.every((w) => back.get(w.id) === w.value);
    result.summary = `Shadow copy of ${writes.map((w) => `seq_index_${w.id}=${w.value}`).join(', ')} in ${shadow}.`;
  }
  result.applied = true;
  result.steps = plan.steps.map((s: PlanStep) => ({ step: s, ok: true, message: 'done' }));
  return result;
}
