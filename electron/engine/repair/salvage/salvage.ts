/**
 * `salvage`: for each chunk Fluent Bit would reject, a valid chunk in its place — same name, the
 * same metadata, every event that decodes kept, a torn last event cut (and reported), the CRC
 * recomputed. Engine buffers (storage.path) only, see docs/storage-path.md. Plan first; the apply
 * re-reads each chunk and writes only when its bytes are still the planned ones, through the one
 * write path (process check, journal with backups, atomic write, read-back verify, undo).
 */
import * as path from 'node:path';
import type { PlanStep, RepairPlan, RepairResult, StoragePathReport } from '../../../../shared/model';
import { engineSalvageRefusal } from '../../../../shared/storage-path-backlog';
import { decodeChunkHeader } from '../../chunk';
import { analyzeEngineChunk, readChunkBytes } from '../../storage-path';
import { atomicWriteFile } from '../write';
import { assertNotRefused, finishPlan } from '../outcome';
import { checkWriteAllowed, type WriteFrame, writeFrame, type WriteTestHooks } from '../preconditions';
import { startResult } from '../outcome';
import { readStoreChunk } from './salvage-store';
import { fluentBitsConfiguredFor } from '../preconditions';
import { sha256 } from '../journal';

/** Whether a chunk needs salvage given the checksum setting: the one rule, shared with the app. */
const needsSalvage = (c: StoragePathReport['streams'][number]['chunks'][number], checksum: boolean | null) => engineSalvageRefusal(c, checksum) === null;

/** Refusals for Fluent Bit processes whose config names this storage.path (forceable like the open-file check). */
async function configuredUsers(rootPath: string, skip?: boolean): Promise<{ reason: string; forceable: boolean }[]> {
  if (skip) return [];
  return (await fluentBitsConfiguredFor(rootPath)).map((p) => ({
    reason: `Fluent Bit process ${p.pid} (${p.command}) runs with ${p.config}, whose storage.path is this folder: stop it first (it holds no chunk open after rejecting them, but writes here).`,
    forceable: true,
  }));
}

export async function planSalvage(
  report: StoragePathReport,
  opts: { storePath?: string; force?: boolean; skipProcessCheck?: boolean; archive?: boolean; only?: readonly string[] } = {},
): Promise<RepairPlan> {
  const only = opts.only ? new Set(opts.only.map((p) => path.resolve(p))) : null;
  const rootPath = report.path;
  const checksum = report.limits.checksum;
  const chunks: NonNullable<Extract<RepairPlan['details'], { kind: 'salvage' }>>['chunks'] = [];
  const steps: PlanStep[] = [];
  let inArchive = 0;
  for (const s of report.streams)
    for (const c of s.chunks) {
      if (!needsSalvage(c, checksum)) continue;
      if (only && !only.has(path.join(rootPath, s.name, c.name))) continue;
      if (opts.archive) {
        inArchive++; // read-only evidence: refused below
        continue;
      }
      const r = await readChunkBytes(path.join(rootPath, s.name), s.name, c.name);
      if (!r.bytes || !r.salvage) continue;
      const file = path.join(rootPath, s.name, c.name);
      chunks.push({ path: file, beforeSha256: sha256(r.bytes), afterSha256: sha256(r.salvage), records: r.info.records, cutBytes: r.info.tornBytes });
      const why = [
        c.crc === 'invalid' ? 'CRC recomputed (was stale or wrong)' : c.crc === 'absent' ? 'CRC written (storage.checksum is on)' : null,
        c.tornBytes ? `torn last record cut (${c.tornBytes} bytes)` : null,
      ]
        .filter(Boolean)
        .join('; ');
      steps.push({
        kind: 'write-file',
        target: file,
        description: `Replace ${c.path} (tag ${c.tag ?? '?'}) with a valid chunk keeping its ${r.info.records} record(s): ${why}.`,
      });
    }
  const check = await checkWriteAllowed(rootPath, { skipProcessCheck: opts.skipProcessCheck, archive: opts.archive });
  const records = chunks.reduce((n, c) => n + c.records, 0);
  const cut = chunks.filter((c) => c.cutBytes > 0);
  const plan: RepairPlan = {
    action: 'salvage',
    storePath: opts.storePath ?? rootPath,
    rootPath,
    summary: opts.archive
      ? `${inArchive} chunk(s) of ${rootPath} need salvage, but an archive is read-only: extract it and salvage the folder.`
      : chunks.length
        ? `Salvage ${chunks.length} chunk(s) of ${rootPath}: ${records} record(s) kept${cut.length ? `, ${cut.length} torn last record(s) cut` : ''}.`
        : `Nothing to salvage in ${rootPath}: no chunk${only ? ' of those named' : ''} Fluent Bit would reject${checksum === null ? ' (checksum setting unknown: give --config)' : ''}.`,
    why: [
      checksum === false
        ? 'storage.checksum is off: Fluent Bit does not check CRCs, only torn last records are cut.'
        : 'With storage.checksum on, Fluent Bit rejects a chunk whose CRC does not match ("format check failed") and never delivers its records; a chunk left by SIGKILL has a stale CRC.',
    ],
    steps,
    warnings: [...check.warnings],
    refusals: [...check.refusals, ...(opts.archive ? [] : await configuredUsers(rootPath, opts.skipProcessCheck))],
    details: { kind: 'salvage', rootPath, layout: 'storage-path', chunks },
    confirm: path.basename(rootPath),
  };
  return finishPlan(plan, opts.force);
}

async function rereadStore(file: string): Promise<{ bytes: Buffer | null; salvage: Buffer | null }> {
  const { bytes, s } = await readStoreChunk(file);
  return { bytes, salvage: s.salvage };
}

function verifyEngine(file: string, written: Buffer) {
  return analyzeEngineChunk(path.basename(path.dirname(file)), path.basename(file), written, null).info;
}

/** A written store_dir chunk: its header loads (the S3 output's check) and its content is whole lines. */
function verifyStore(written: Buffer): { crc: string; tornBytes: number; records: number } {
  const h = decodeChunkHeader(written, written.length);
  if (h.status !== 'ok' || h.contentStart === null || h.contentLength === null) return { crc: h.status, tornBytes: 0, records: 0 };
  const body = written.subarray(h.contentStart, h.contentStart + h.contentLength);
  const last = body.lastIndexOf(0x0a);
  return {
    crc: 'valid',
    tornBytes: body.length - (last + 1),
    records:
      body
        .subarray(0, last + 1)
        .toString('latin1')
        .split('\n').length - 1,
  };
}

export async function applySalvage(
  plan: RepairPlan,
  opts: { force?: boolean; skipProcessCheck?: boolean; hooks?: WriteTestHooks; frame?: WriteFrame } = {},
): Promise<RepairResult> {
  const d = plan.details;
  if (d?.kind !== 'salvage') throw new Error('not a salvage plan');
  const result = startResult(plan);
  assertNotRefused(plan.refusals, opts.force);
  if (!d.chunks.length) return { ...result, verified: true };
  const frame = writeFrame(opts);
  const chunks = d.chunks.map((c) => {
    const rel = path.relative(d.rootPath, c.path);
    const [stream, name, ...rest] = rel.split(path.sep);
    if (!stream || !name || rest.length || rel.startsWith('..')) throw new Error(`${c.path}: not a chunk directly in a stream of ${d.rootPath}`);
    return { ...c, stream, name };
  });
  const writes: { path: string; bytes: Buffer; records: number }[] = [];
  const { verified } = await frame.journaled(
    plan,
    result,
    {
      root: d.rootPath,
      scope: [...new Set(chunks.map((c) => c.stream))],
      what: 'the salvage',
      check: { also: d.layout === 'store-dir' ? [] : await configuredUsers(d.rootPath, opts.skipProcessCheck) },
      // Every chunk still holds the planned bytes, and gives the planned salvage: else nothing is written.
      changes: async () => {
        for (const c of chunks) {
          const r = d.layout === 'store-dir' ? await rereadStore(c.path) : await readChunkBytes(path.join(d.rootPath, c.stream), c.stream, c.name);
          if (!r.bytes || sha256(r.bytes) !== c.beforeSha256) throw new Error(`${c.path} changed since the plan was made: plan again`);
          if (!r.salvage || sha256(r.salvage) !== c.afterSha256) throw new Error(`${c.path}: the salvage is not the planned one: plan again`);
          writes.push({ path: c.path, bytes: r.salvage, records: c.records });
        }
        return writes.map((w) => ({ kind: 'file' as const, path: w.path }));
      },
    },
    async () => {
      let verified = true;
      for (const [i, w] of writes.entries()) {
        const out = await atomicWriteFile(d.rootPath, w.path, w.bytes);
        result.warnings.push(...out.warnings);
        const back = d.layout === 'store-dir' ? verifyStore(out.written) : verifyEngine(w.path, out.written);
        const ok = back.crc === 'valid' && back.tornBytes === 0 && back.records === w.records;
        verified &&= ok;
        result.steps.push({
          step: plan.steps[i],
          ok,
          message: ok
            ? `written; read back: ${d.layout === 'store-dir' ? 'header loads' : 'CRC valid'}, ${back.records} record(s), no torn tail`
            : `written but the read-back does not verify (${back.crc}, ${back.records} records)`,
        });
      }
      return { verified, expected: writes.map((w) => w.path) };
    },
  );
  result.verified = verified;
  result.summary = `Salvaged ${writes.length} chunk(s) (${writes.reduce((n, w) => n + w.records, 0)} record(s))${verified ? ', verified' : ', NOT verified'}; undo with \`store-doctor undo ${d.rootPath} --apply\`.`;
  return result;
}
