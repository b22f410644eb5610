/**
 * Findings about what a root holds: buffered backlog, quarantine, damaged chunks, multipart
 * records vs server uploads, shared roots and seq_index files of other output ids.
 */
import type { FluentBitConfig, Finding, NextStep, RootReport, S3UploadEntry } from '../../../shared/model';
import type { Target } from './targets';
import { normalizeRootPath } from './targets';
import { strayFloorLine, strayIndexFiles, type SafeIndex } from './safe-index';
import { capped, plural, sizeText as bytes } from './text';
import { next } from './next-steps';
import { flatten, streamFacts, type StreamFacts } from '../store/stream-facts';
import { backlogVersionLines, nulPaddingFinding, quarantineFinding, stopLossFinding, type VersionView } from './findings-version';
const total = (fs: StreamFacts[], f: (x: StreamFacts) => number) => fs.reduce((a, x) => a + f(x), 0);

/**
 * Backlog, quarantine, NUL padding, stop loss and damaged chunks of one root, as the Fluent Bit
 * version `v` treats them (`retryLimit`: the output's raw `retry_limit`, when known).
 */
export function backlogFindings(root: RootReport, outputId: number | null, v: VersionView, retryLimit?: string): Finding[] {
  const out: Finding[] = [];
  // per stream, cached by the stream object (./stream-facts.ts): a plan after a refresh walks only the streams it changed
  const data = root.streams.filter((s) => s.kind === 'data' && streamFacts(s).ok.length);
  if (data.length) {
    const facts = data.map(streamFacts);
    const count = total(facts, (f) => f.ok.length);
    out.push({
      code: 'BUFFERED_BACKLOG',
      severity: 'warning',
      summary: `${plural(count, 'chunk')} (${total(facts, (f) => f.okRecords)} records, ${bytes(total(facts, (f) => f.okContentLength))} of record data) wait in ${root.bucket} for upload.`,
      evidence: [
        ...data.map((s, i) => `${s.name}: ${plural(facts[i].ok.length, 'chunk')}, ${facts[i].okRecords} records, tags ${facts[i].okTags.join(', ')}`),
        ...backlogVersionLines(v, retryLimit),
      ],
      action:
        'Fluent Bit sends these with PutObject at its next start (key time = restart time, one $INDEX each): repair the index first, or replay them to the bucket create-only without Fluent Bit.',
      next: outputId !== null ? [next.replay(outputId)] : [],
      outputId,
      data: { chunks: flatten(facts.map((f) => f.okPaths)) },
    });
  }
  for (const f of [stopLossFinding(root, v, outputId, retryLimit), nulPaddingFinding(root, v, outputId), quarantineFinding(root, v, outputId)])
    if (f) out.push(f);
  const damaged = flatten(root.streams.map((s) => streamFacts(s).damaged));
  // A legacy-length chunk is how 1.x always writes (docs/fluent-bit-versions.md §1), not damage; its NUL tail is CHUNK_NUL_PADDING.
  const odd = flatten(root.streams.map((s) => streamFacts(s).zeroByte));
  if (damaged.length || odd.length) {
    out.push({
      code: 'CHUNK_DAMAGED',
      severity: damaged.length ? 'error' : 'warning',
      summary: damaged.length
        ? `${plural(damaged.length, 'chunk')} Fluent Bit rejects (never uploaded; deleted with their stream at a graceful stop if no valid sibling).`
        : `${plural(odd.length, 'zero-byte chunk')} Fluent Bit re-initialises when it loads ${odd.length === 1 ? 'it' : 'them'}.`,
      evidence: capped([...damaged, ...odd].map((c) => `${c.path}: ${c.status} — ${c.message}; ${c.fluentBitAction}`)),
      action: 'Inspect each file; salvage the records and move damaged files out of the stream before Fluent Bit starts.',
      next: [],
      outputId,
      data: { chunks: damaged.map((c) => c.path), rewritten: odd.map((c) => c.path) },
    });
  }
  return out;
}

const stripQuotes = (e: string) => e.replace(/^\s*"|"\s*$/g, '').trim();

/** Local multipart records vs the server's in-progress uploads (null = not listed). */
export function multipartFindings(
  root: RootReport,
  uploads: S3UploadEntry[] | null,
  keyBelongs: (key: string) => boolean,
  outputId: number | null,
  bucket: string,
): Finding[] {
  const records = root.streams
    .filter((s) => s.kind === 'multipart')
    .flatMap((s) => s.chunks.filter((c) => c.multipart).map((c) => ({ chunk: c, rec: c.multipart! })));
  const pending: string[] = [];
  const orphaned: string[] = [];
  let orphanedSeverity: 'error' | 'warning' = 'warning';
  const matched = new Set<string>();
  /** Records with two lines for one part number: the two-tag crash of docs/fluent-bit-versions.md §9. */
  const mixed: string[] = [];
  for (const { chunk, rec } of records) {
    const label = `${chunk.path}: ${rec.s3Key} upload ${rec.uploadId}, local parts ${rec.completeParts.map((p) => p.partNumber).join(',') || 'none'}`;
    if (rec.problems.length || !rec.completeParts.length) {
      orphaned.push(`${label} — Fluent Bit skips this record forever: ${rec.problems.join('; ') || 'no part line parsed'}`);
      orphanedSeverity = 'error';
      continue;
    }
    const twice = [...new Set(rec.parts.filter((p, i) => rec.parts.findIndex((q) => q.partNumber === p.partNumber) !== i).map((p) => p.partNumber))];
    if (twice.length) {
      mixed.push(chunk.path);
      if (uploads?.some((u) => u.key === rec.s3Key && u.uploadId === rec.uploadId)) matched.add(`${rec.s3Key}\n${rec.uploadId}`);
      orphaned.push(
        `${label} — ${twice.map((n) => `${rec.parts.filter((p) => p.partNumber === n).length} lines for part ${n}`).join(', ')}: a crash with two uploads in flight wrote another upload's part lines into this record (docs/fluent-bit-versions.md §9, all five versions); Fluent Bit completes with the last line of each part and fails with InvalidPart at every start, both uploads stay open`,
      );
      orphanedSeverity = 'error';
      continue;
    }
    if (!uploads) {
      pending.push(`${label} — server state not listed`);
      continue;
    }
    const server = uploads.find((u) => u.key === rec.s3Key && u.uploadId === rec.uploadId);
    if (!server) {
      orphaned.push(`${label} — no such upload on the server: completion fails (NoSuchUpload) at every start and the record stays`);
      orphanedSeverity = 'error';
      continue;
    }
    matched.add(`${server.key}\n${server.uploadId}`);
    if (server.parts) {
      const local = rec.completeParts.map((p) => `${p.partNumber}:${stripQuotes(p.etag)}`).join(' ');
      const remote = [...server.parts]
        .sort((a, b) => a.partNumber - b.partNumber)
        .map((p) => `${p.partNumber}:${stripQuotes(p.etag)}`)
        .join(' ');
      if (local !== remote) {
        orphaned.push(`${label} — parts differ: local [${local}] vs server [${remote}]; completion would fail (InvalidPart) or leave parts out`);
        orphanedSeverity = 'error';
        continue;
      }
    }
    pending.push(
      `${label} — matches the server upload${server.parts ? ` (${plural(server.parts.length, 'part')}, ${bytes(server.parts.reduce((a, p) => a + p.size, 0))})` : ''}${server.initiated ? `, initiated ${server.initiated}` : ''}`,
    );
  }
  for (const u of uploads ?? []) {
    if (matched.has(`${u.key}\n${u.uploadId}`) || !keyBelongs(u.key)) continue;
    orphaned.push(
      `${u.key} upload ${u.uploadId}${u.initiated ? ` (initiated ${u.initiated})` : ''} — on the server with no local record: Fluent Bit never completes it${mixed.length ? `; its part lines may be in ${mixed.join(', ')} (the two-tag crash): settling completes it when ListParts proves every part by those lines` : ''}`,
    );
  }
  const out: Finding[] = [];
  if (pending.length) {
    out.push({
      code: 'MULTIPART_PENDING',
      severity: uploads ? 'info' : 'warning',
      summary: `${plural(pending.length, 'multipart upload')} in progress: Fluent Bit completes ${pending.length === 1 ? 'it' : 'them'} at its next start${uploads ? '' : ' (server side not checked)'}.`,
      evidence: pending,
      action: uploads ? 'Nothing to do, or complete the uploads now.' : 'Check the server side: list the in-progress multipart uploads of the bucket.',
      next: uploads
        ? outputId !== null
          ? [next.multipart(outputId, 'complete')]
          : []
        : [...(outputId !== null ? [next.listLive(outputId)] : []), next.importEvidence(bucket, 'multipart', outputId ?? undefined)],
      outputId,
    });
  }
  if (orphaned.length) {
    out.push({
      code: 'MULTIPART_ORPHANED',
      severity: orphanedSeverity,
      summary: `${plural(orphaned.length, 'multipart upload')} where the local record and the server disagree.`,
      evidence: capped(orphaned),
      action: mixed.length
        ? "Settle the uploads before Fluent Bit starts: the record lines are matched to each upload's parts (ListParts), every upload they prove is completed, then the record goes."
        : 'Reconcile records and server uploads: complete what the server holds, abort what no record will ever complete, drop records of vanished uploads.',
      next: outputId !== null ? [next.multipart(outputId)] : [],
      outputId,
    });
  }
  return out;
}

/** Several S3 outputs on one `store_dir/bucket` (docs/fluent-bit-store-format.md, "Shared roots"). */
export function sharedRootFinding(target: Target, all: Target[]): Finding | null {
  if (!target.rootPath || target.inferred) return null;
  const same = all.filter((t) => t.rootPath && normalizeRootPath(t.rootPath) === normalizeRootPath(target.rootPath!));
  if (same.length < 2) return null;
  return {
    code: 'SHARED_STORE_ROOT',
    severity: 'error',
    summary: `${same.map((t) => t.displayName).join(', ')} share ${normalizeRootPath(target.rootPath)}: each deletes the others' buffers, multipart records and sequence/ at its graceful stop.`,
    evidence: [
      ...same.map((t) => `${t.displayName} (id ${t.id}): store_dir ${t.s3?.storeDir} + bucket ${t.bucket}, key format ${t.keyFormat}`),
      'old buffers are uploaded by whichever output drains first, with its key format (fluent/fluent-bit#7941)',
    ],
    action: 'Give every S3 output its own store_dir in the Fluent Bit config (stop Fluent Bit, move nothing by hand), then repair and protect each index.',
    next: [],
    outputId: target.id,
    data: { outputs: same.map((t) => t.id) },
  };
}

/** The index of a diagnosed output, as OUTPUT_ID_MISMATCH reports it. */
export interface MismatchSafe {
  safe: number | null;
  lowerBound: number;
  beyondExactText: string | null;
  strayFloor: SafeIndex['strayFloor'];
}

/** What repairing a lacking output writes, and why the stray value counts (evidence). */
function mismatchRepair(id: number, bucket: string, safe: MismatchSafe | undefined): { action: string; next: NextStep[]; evidence: string[] } {
  if (!safe)
    return {
      action: "Write the right value into the config's file (the stray file's value is a lower bound).",
      next: [next.repairIndex(id, null)],
      evidence: [],
    };
  const evidence = safe.strayFloor ? [strayFloorLine(safe.strayFloor)] : [];
  if (safe.beyondExactText !== null)
    return {
      action: `Write ${safe.beyondExactText} into seq_index_${id} by hand with Fluent Bit stopped: it is beyond 2^53 - 1, which Store Doctor will not write (INDEX_BEYOND_EXACT_RANGE).`,
      next: [],
      evidence,
    };
  if (safe.safe === null) {
    return {
      action: `Get bucket evidence that covers the key format, then write the safe next index (at least ${safe.lowerBound}, the stray value included) into the config's file.`,
      next: [next.listLive(id), next.importEvidence(bucket, 'listing', id)],
      evidence,
    };
  }
  return {
    action: `Write the safe next index ${safe.safe} into the config's file (never below the stray file's value).`,
    next: [next.repairIndex(id, safe.safe)],
    evidence,
  };
}

/** seq_index files in a root that no `$INDEX` output of the config owns (outputs reordered). */
export function outputIdMismatch(
  root: RootReport,
  config: FluentBitConfig | null,
  owners: Target[],
  safe: Map<number, MismatchSafe> = new Map(),
): { finding: Finding; attachTo: number | null } | null {
  if (!config) return null;
  const ownerIds = new Set(owners.filter((t) => t.hasIndex).map((t) => t.id));
  const stray = strayIndexFiles(root, owners);
  if (!stray.length) return null;
  const lacking = owners.filter((t) => t.hasIndex && !root.seqIndex.some((s) => s.outputId === t.id));
  const repair = lacking.length ? mismatchRepair(lacking[0].id, root.bucket, safe.get(lacking[0].id)) : null;
  const describe = (id: number | null) => {
    const o = id === null ? undefined : config.outputs.find((x) => x.id === id);
    return o
      ? `output ${id} is ${o.displayName} (${o.plugin}${o.s3 ? `, bucket ${o.s3.bucket}${o.s3.hasIndex ? '' : ', no $INDEX'}` : ''})`
      : `no output has id ${id}`;
  };
  return {
    attachTo: lacking[0]?.id ?? owners[0]?.id ?? null,
    finding: {
      code: 'OUTPUT_ID_MISMATCH',
      severity: lacking.length ? 'error' : 'warning',
      summary: `${plural(stray.length, 'seq_index file')} in ${root.bucket} belong${stray.length === 1 ? 's' : ''} to no $INDEX output of the config${lacking.length ? `; ${lacking.map((t) => `seq_index_${t.id}`).join(', ')} (the config's) ${lacking.length === 1 ? 'is' : 'are'} missing` : ''}: outputs were probably reordered and the index silently restarted.`,
      evidence: [
        ...stray.map((s) => `${s.path} = ${s.valueText ?? s.raw} — ${s.outputId === null ? 'the suffix is not a number' : describe(s.outputId)}`),
        ...owners.filter((t) => t.hasIndex).map((t) => `${t.displayName} uses $INDEX and reads seq_index_${t.id}`),
        'the id is the 0-based position among ALL outputs, S3 or not',
        ...(repair?.evidence ?? []),
      ],
      action: repair ? repair.action : 'Remove or keep the stray file; it is harmless unless the outputs are reordered back.',
      next: repair?.next ?? [],
      outputId: lacking[0]?.id ?? null,
      data: { stray: stray.map((s) => s.fileName), expected: [...ownerIds] },
    },
  };
}
