/**
 * Findings about what the diagnosis could and could not look at: no config, no or incomplete
 * bucket evidence, a root that is not in the store, no store at all, a source that could not be
 * read completely. They keep every other finding honest: without them, silence reads as "fine".
 */
import type { Finding, IndexEvidence, RootReport, S3Evidence, StoreReport } from '../../../shared/model';
import { evidenceSteps, next } from './next-steps';
import { capped } from './text';
import type { Target } from './targets';

export function evidenceFindings(target: Target, ev: S3Evidence | null, cover: IndexEvidence, report: StoreReport): Finding[] {
  const out: Finding[] = [];
  const id = target.id;
  if (target.inferred) {
    out.push({
      code: 'NO_EVIDENCE',
      severity: 'info',
      summary: `${target.displayName} (id ${id}) was inferred from seq_index_${id} without a Fluent Bit config: its key format is unknown, so bucket keys cannot be matched.`,
      evidence: [`${target.root?.path}/sequence/index_metadata/seq_index_${id}`],
      action: 'Load the Fluent Bit config this store belongs to.',
      next: [next.loadConfig()],
      outputId: id,
      data: { reason: 'no-config' },
    });
  }
  if (!target.root && !target.inferred) {
    out.push({
      code: 'ROOT_NOT_FOUND',
      severity: 'warning',
      summary: `The store has no root for bucket ${target.bucket} (${target.rootPath}): Fluent Bit would create it empty${target.hasIndex ? ' and start $INDEX at 0' : ''}.`,
      evidence: [
        `roots in the store: ${report.roots.map((r) => r.bucket).join(', ') || 'none'}`,
        `config: store_dir ${target.s3?.storeDir}, bucket ${target.bucket}`,
      ],
      action: 'Check that this is the store_dir of this Fluent Bit (or the right snapshot) before repairing anything.',
      next: [],
      outputId: id,
    });
  }
  if (target.inferred) return out;
  if (!ev) {
    out.push({
      code: 'NO_EVIDENCE',
      severity: target.hasIndex ? 'warning' : 'info',
      summary: `${target.displayName} (id ${id}): no bucket evidence for ${target.bucket}: ${target.hasIndex ? 'the highest $INDEX used, past resets, overwrite risk and overwritten versions were' : 'overwritten versions and multipart uploads were'} not checked.`,
      evidence: [`bucket ${target.bucket}, key format ${target.keyFormat}`],
      action: 'List the bucket (live), or import the `aws s3api list-objects-v2` JSON of it.',
      next: evidenceSteps(id, target.bucket),
      outputId: id,
      data: { reason: 'no-evidence' },
    });
    return out;
  }
  if (cover.coverage === 'incomplete') {
    out.push({
      code: 'NO_EVIDENCE',
      severity: 'warning',
      summary: `${target.displayName} (id ${id}): the bucket evidence does not cover the key format, so no next index can be called safe.`,
      evidence: [cover.text, ...ev.notes, `scope: ${ev.scope.join(', ')}`],
      action: 'Complete the listing (every page, the whole key-format prefix, no denied prefix) before repairing the index.',
      next: evidenceSteps(id, target.bucket),
      outputId: id,
      data: { reason: 'incomplete' },
    });
  } else if (ev.notes.length) {
    out.push({
      code: 'NO_EVIDENCE',
      severity: 'info',
      summary: `${target.displayName} (id ${id}): evidence notes: ${ev.notes.join('; ')}`,
      evidence: [...ev.notes, cover.text],
      action:
        cover.coverage === 'window' ? 'None needed for the next start; list every key to check older history too.' : 'None needed; some checks were skipped.',
      next: cover.coverage === 'window' ? [next.listLive(id, true)] : [],
      outputId: id,
      data: { reason: 'notes' },
    });
  }
  return out;
}

/** The path holds no Fluent Bit S3 store at all. */
export function noStoreFinding(report: StoreReport): Finding {
  return {
    code: 'NO_STORE',
    severity: 'error',
    summary: `No Fluent Bit S3 store found in ${report.source.path}: no bucket root (a folder holding stream folders, multipart_upload_metadata/, quarantine/ or sequence/).`,
    evidence: [report.source.description, ...report.problems.slice(0, 5).map((p) => (p.message.startsWith(p.path) ? p.message : `${p.path}: ${p.message}`))],
    action:
      'Open the store_dir of the S3 output (its store_dir setting, /tmp/fluent-bit/s3 by default), one <store_dir>/<bucket> folder, or a .tar/.tar.gz of either.',
    next: [],
    outputId: null,
  };
}

export function rootUnusedFinding(root: RootReport, haveConfig: boolean): Finding {
  return {
    code: 'ROOT_NOT_FOUND',
    severity: 'info',
    summary: `Root ${root.bucket} is used by no S3 output${haveConfig ? ' of the config' : ' found'}.`,
    evidence: [root.path, `${root.totals.chunks} chunks, ${root.totals.bytes} bytes`],
    action: haveConfig ? 'An output was removed or renamed its bucket: replay what is left here, or ignore it.' : 'Load the config to tie it to an output.',
    next: haveConfig ? [] : [next.loadConfig()],
    outputId: null,
  };
}

/**
 * No config and no seq_index file in a root: the index state is unknown. A missing `sequence/` is
 * exactly what a graceful stop of Fluent Bit leaves (it deletes the folder with every index).
 */
export function indexStateUnknownFinding(root: RootReport): Finding {
  const gone = !root.sequence.present;
  return {
    code: 'INDEX_STATE_UNKNOWN',
    severity: 'warning',
    summary: gone
      ? `Index state of root ${root.bucket} unknown: if an output on this root uses $INDEX, a graceful stop deleted its index (sequence/ is missing).`
      : `Index state of root ${root.bucket} unknown: sequence/ holds no seq_index file, and without the config it is unknown whether an output uses $INDEX here.`,
    evidence: [
      root.path,
      gone ? 'no sequence/ folder (a graceful stop deletes it with every seq_index file)' : `sequence/: ${root.sequence.message}`,
      `the folder name is the bucket: ${root.bucket}`,
    ],
    action: `Load the Fluent Bit config (its S3 output for bucket ${root.bucket}) and give a listing of ${root.bucket}: then the index can be checked and, if lost, repaired before the next start.`,
    next: [next.loadConfig(), next.importEvidence(root.bucket, 'listing')],
    outputId: null,
    data: { bucket: root.bucket, sequence: gone ? 'missing' : 'no-index' },
  };
}

/** Problems reading the source itself (truncated archive, permission denied, loops): one finding per severity. */
export function storeProblemFindings(report: StoreReport): Finding[] {
  const out: Finding[] = [];
  for (const severity of ['error', 'warning'] as const) {
    const list = report.problems.filter((p) => p.severity === severity);
    if (!list.length) continue;
    out.push({
      code: 'STORE_UNREADABLE',
      severity,
      summary:
        list.length === 1
          ? `Part of the store could not be read: ${list[0].message}`
          : `${list.length} entries of the store could not be read cleanly (first: ${list[0].message})`,
      evidence: capped(list.map((p) => `${p.path}: ${p.message}`)),
      action: 'What could not be read is not in this diagnosis: fix the cause (permissions, a complete archive) and open the store again.',
      next: [next.rescan()],
      outputId: null,
    });
  }
  return out;
}
