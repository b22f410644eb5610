/**
 * Findings about `$INDEX`: the persisted file (missing, unreadable, behind the bucket), past
 * resets, the overwrite risk of the next start, overwritten objects. Sequence protection:
 * ./findings-sequence.ts.
 * A value is only recommended when the bucket evidence covers it (`c.safe` non-null).
 */
import type { CollisionAnalysis, Finding, IndexEvidence, NextStep, SeqIndexInfo } from '../../../shared/model';
import type { BucketAnalysis, ParsedKey } from './bucket';
import type { Target } from './targets';
import { strayFloorLine, type SafeIndex } from './safe-index';
import { capped, indexRanges, plural } from './text';
import { evidenceSteps, next } from './next-steps';
import { protect } from './findings-sequence';

export interface IndexContext {
  target: Target;
  seq: SeqIndexInfo | null;
  persisted: number | null;
  /** The next index is at least this (bucket highest + 1 as far as listed, persisted value, multipart records). */
  lowerBound: number;
  /** The next index that reuses no key, when the evidence covers it; else null. */
  safe: number | null;
  /** Exact lower bound when it is above 2^53 - 1 (nothing Store Doctor can write). */
  beyondExactText: string | null;
  cover: IndexEvidence;
  /** Stray seq_index files that raised the lower bound (outputs reordered). */
  strayFloor: SafeIndex['strayFloor'];
  bucket: BucketAnalysis;
  collision: CollisionAnalysis;
  at: Date;
  /** Other S3 outputs of the config that use the same root. */
  rootSiblings: Target[];
  /** Writers the listing shows when more than one (COLLISION_ACROSS_NODES): they, not only resets, reuse indices. */
  writers?: number;
}

const when = (p: ParsedKey) => (p.time ? ` (${p.time})` : '');
/** The highest index exactly (text above 2^53 - 1). */
const highestText = (b: BucketAnalysis) => b.highestIndexText ?? String(b.highestIndex);

/** Why no value is called safe, with the lower bound the local facts give. */
function unknownLine(c: IndexContext): string {
  return `no next index can be called safe: ${c.cover.text}; it must be at least ${c.beyondExactText ?? c.lowerBound}`;
}

/** One line for the evidence: the safe next index, or why there is none. */
function safeLine(c: IndexContext): string {
  return c.safe !== null ? `safe next index: ${c.safe} (${c.cover.text})` : unknownLine(c);
}

/** The repair a finding recommends: the value when it is safe, else the evidence it needs first. */
function repair(c: IndexContext, lead: string): { action: string; next: NextStep[] } {
  const id = c.target.id;
  if (c.beyondExactText !== null) {
    return {
      action:
        `${lead} Store Doctor will not write this value: the next index ${c.beyondExactText} is beyond 2^53 - 1 (see INDEX_BEYOND_EXACT_RANGE). ` +
        `With Fluent Bit stopped, write ${c.beyondExactText} into seq_index_${id} by hand, or find out where the huge $INDEX came from first.`,
      next: [],
    };
  }
  if (c.safe === null) {
    return {
      action: `${lead} First get bucket evidence that covers the key format (${c.cover.text}); then the safe value can be written.`,
      next: evidenceSteps(id, c.target.bucket),
    };
  }
  return { action: `${lead} With Fluent Bit stopped, set seq_index_${id} to ${c.safe}.`, next: [next.repairIndex(id, c.safe)] };
}

export function indexFileFindings(c: IndexContext): Finding[] {
  const { target, seq, bucket } = c;
  if (!target.hasIndex) return [];
  const out: Finding[] = [];
  const id = target.id;
  const listError = target.root?.sequence.indexMetadataError;
  if (!seq && listError) {
    // index_metadata/ could not be listed by this user: the file may well be there.
    out.push({
      code: 'INDEX_FILE_NOT_READ',
      severity: 'warning',
      summary: `seq_index_${id} could not be looked for: Store Doctor cannot list ${target.root?.path}/sequence/index_metadata, so whether the index is there is unknown.`,
      evidence: [listError],
      action: 'Run Store Doctor as the user Fluent Bit runs as, or as root, and diagnose again. Do not repair an index that could not be read.',
      next: [],
      outputId: id,
      data: { path: `${target.root?.path}/sequence/index_metadata`, status: 'unreadable' },
    });
  } else if (!seq) {
    const used = bucket.highestIndex !== null;
    const empty = c.safe === 0 && !used && !c.strayFloor;
    const fix = repair(
      c,
      bucket.evidence ? 'Restore the index before Fluent Bit starts again.' : 'Restore the index before Fluent Bit starts again; the bucket decides the value.',
    );
    out.push({
      code: 'INDEX_FILE_MISSING',
      severity: empty ? 'info' : 'error',
      summary: `seq_index_${id} is missing: Fluent Bit will start $INDEX at 0${used ? ` although the bucket already has index ${highestText(bucket)}` : ''}.`,
      evidence: [
        target.root
          ? `${target.root.path}/sequence/index_metadata/seq_index_${id} does not exist`
          : `root ${target.rootPath ?? target.bucket} is not in the store`,
        target.root && !target.root.sequence.present ? 'sequence/ is gone: the usual result of a graceful stop (fluent/fluent-bit#11987)' : '',
        used
          ? `highest $INDEX in the bucket: ${highestText(bucket)} (${bucket.highestKey})`
          : !bucket.evidence
            ? 'no bucket evidence: the highest index used is unknown'
            : c.safe === null
              ? 'no key of this format in the part of the bucket that could be listed'
              : 'no key of this format in the bucket',
        safeLine(c),
        c.strayFloor ? strayFloorLine(c.strayFloor) : '',
      ].filter(Boolean),
      action: empty ? 'Nothing to repair: the bucket has no key of this format, so starting at 0 reuses nothing.' : fix.action,
      next: empty ? [] : fix.next,
      outputId: id,
      data: {
        expectedPath: target.root ? `${target.root.path}/sequence/index_metadata/seq_index_${id}` : null,
        safeNextIndex: c.safe,
        lowerBound: c.lowerBound,
      },
    });
  } else if (seq.status === 'empty' || seq.status === 'not-a-number') {
    const fix = repair(c, 'Replace the file with a valid value.');
    out.push({
      code: 'INDEX_FILE_UNREADABLE',
      severity: 'critical',
      summary: `seq_index_${id} cannot be read (${seq.status}): Fluent Bit refuses to start ("Failed to read from sequential index metadata file").`,
      evidence: [
        `${seq.path}: ${seq.fileSize} bytes, ${JSON.stringify(seq.raw)}`,
        seq.message,
        'an empty or non-numeric file stops every start the same way (verified with Fluent Bit 5.0.9: exit status 255, no request sent)',
        safeLine(c),
      ],
      ...fix,
      outputId: id,
      data: { path: seq.path, status: seq.status },
    });
  } else if (seq.status === 'unreadable') {
    // Store Doctor could not read it (another user than Fluent Bit's): nothing is known about the file.
    out.push({
      code: 'INDEX_FILE_NOT_READ',
      severity: 'warning',
      summary: `seq_index_${id} could not be read by Store Doctor: the index Fluent Bit continues at is unknown (nothing is wrong with the file as far as is known).`,
      evidence: [seq.message],
      action: 'Run Store Doctor as the user Fluent Bit runs as, or as root, and diagnose again. Do not repair an index that could not be read.',
      next: [],
      outputId: id,
      data: { path: seq.path, status: seq.status },
    });
  } else if (seq.status === 'not-regular' || seq.status === 'too-large') {
    const special = seq.status === 'not-regular';
    const fix = repair(c, 'Replace the file with a valid value.');
    out.push({
      code: 'INDEX_FILE_UNREADABLE',
      severity: special && /FIFO/.test(seq.message) ? 'critical' : 'error',
      summary: special
        ? `seq_index_${id} ${/FIFO/.test(seq.message) ? 'is a FIFO (Fluent Bit blocks opening it at start)' : 'is not a regular file'}: not a file Fluent Bit writes; Store Doctor does not open or follow it, so the index Fluent Bit would read is unknown.`
        : `seq_index_${id} is larger than 64 KiB: not a file Fluent Bit writes (it holds a few digits); Store Doctor reads only its first bytes.`,
      evidence: [`${seq.path}: ${seq.fileSize} bytes`, seq.message],
      action: special
        ? 'Look at the entry and remove it by hand (Store Doctor never replaces a file that is not a regular file), then diagnose again and repair the index.'
        : fix.action,
      next: special ? [] : fix.next,
      outputId: id,
      data: { path: seq.path, status: seq.status },
    });
  } else if (c.persisted !== null && bucket.highestIndex !== null && c.persisted <= bucket.highestIndex) {
    const fix = repair(c, 'Move the index past the bucket.');
    out.push({
      code: 'INDEX_BEHIND_BUCKET',
      severity: 'error',
      summary: `seq_index_${id} holds ${c.persisted} but the bucket already has index ${highestText(bucket)}: the next uploads reuse used values.`,
      evidence: [`${seq.path} = ${seq.valueText ?? c.persisted}`, `highest $INDEX in the bucket: ${highestText(bucket)} (${bucket.highestKey})`, safeLine(c)],
      ...fix,
      outputId: id,
      data: { persisted: c.persisted, highest: bucket.highestIndex, highestText: highestText(bucket) },
    });
  }
  const beyond = beyondExactFinding(c);
  if (beyond) out.push(beyond);
  return out;
}

/** The next index is above 2^53 - 1: exact as text, but nothing Store Doctor counts or writes. */
function beyondExactFinding(c: IndexContext): Finding | null {
  if (c.beyondExactText === null) return null;
  const { bucket, target } = c;
  return {
    code: 'INDEX_BEYOND_EXACT_RANGE',
    severity: 'error',
    summary: `The next $INDEX must be at least ${c.beyondExactText}, beyond 2^53 - 1: Store Doctor shows it exactly but will not write or allocate it.`,
    evidence: [
      ...capped(
        bucket.beyondExact.map((p) => `index ${p.indexText}: ${p.key}${when(p)}`),
        10,
      ),
      bucket.highestIndexText !== null ? `highest $INDEX in the bucket: ${bucket.highestIndexText} (${bucket.highestKey})` : '',
      c.strayFloor ? strayFloorLine(c.strayFloor) : '',
      `highestIndexInBucket / lowerBoundNextIndex as numbers are rounded up (${bucket.highestIndex ?? '—'} / ${c.lowerBound}); the exact values are in highestIndexInBucketText / lowerBoundNextIndexText`,
      'Fluent Bit counts $INDEX as a uint64 and wraps to 0 after 18446744073709551615; an index this large usually comes from a corrupted or hand-edited seq_index file',
    ].filter(Boolean),
    action: `Check where the huge index came from before writing anything; if it is real, stop Fluent Bit and write ${c.beyondExactText} into seq_index_${target.id} by hand.`,
    next: [],
    outputId: target.id,
    data: { lowerBoundNextIndexText: c.beyondExactText, highestIndexText: bucket.highestIndexText, keys: bucket.beyondExact.map((p) => p.key) },
  };
}

export function reuseFindings(c: IndexContext): Finding[] {
  const { bucket, target } = c;
  const out: Finding[] = [];
  if (bucket.reused.size) {
    const indices = [...bucket.reused.keys()].sort((a, b) => a - b);
    const maxUses = [...bucket.reused.values()].reduce((m, l) => Math.max(m, l.length), 0);
    const lines = indices.map(
      (i) =>
        `index ${i}: ${bucket.reused
          .get(i)!
          .map((p) => `${p.key}${when(p)}`)
          .join(', ')}`,
    );
    const p = protect(c);
    out.push({
      code: 'INDEX_REUSED',
      severity: 'warning',
      summary: `$INDEX ${indexRanges(indices)} used ${maxUses === 2 ? 'twice' : `up to ${maxUses} times`}: ${
        c.writers
          ? `${c.writers} writers with one counter each render the same indices (COLLISION_ACROSS_NODES)`
          : `the index was reset ${plural(bucket.resets.length || 1, 'time')} in the past`
      }.`,
      evidence: [
        ...bucket.resets.map((r) => `at ${r.time} the index went back from ${r.from} to ${r.to}`),
        ...capped(lines, 15),
        c.collision.risk === 'practically-never' || c.collision.risk === 'never' ? `no key collided: ${c.collision.explanation}` : '',
      ].filter(Boolean),
      action: `${c.writers ? 'Give every node a node-unique key (COLLISION_ACROSS_NODES). ' : ''}Keep the index from resetting after repairing it. ${p.action} Consumers that expect unique $INDEX values must de-duplicate ${indexRanges(indices)}.`,
      next: p.next,
      outputId: target.id,
      data: { indices, resets: bucket.resets },
    });
  }
  if (bucket.overwritten.size) {
    const keys = [...bucket.overwritten.keys()].sort();
    out.push({
      code: 'OBJECTS_OVERWRITTEN',
      severity: 'critical',
      summary: `${plural(keys.length, 'object')} written more than once: earlier data survives only as non-current versions.`,
      evidence: capped(
        keys.map((k) => {
          const vs = bucket.overwritten.get(k)!;
          return `${k}: ${vs.length} versions ${vs.map((v) => `${v.versionId ?? '?'}${when(v)}`).join(', ')}`;
        }),
      ),
      action: 'Copy the overwritten versions to new keys (create-only, with a manifest), then repair and protect the index.',
      next: [next.recoverVersions(target.id)],
      outputId: target.id,
      data: { keys },
    });
  }
  return out;
}

/**
 * Keys the next start would overwrite: Fluent Bit starts at the persisted value (0 when the
 * file is missing) and uses each following value once, with key times from `at` onwards.
 */
export function overwriteRiskFinding(c: IndexContext): Finding | null {
  const { target, bucket, collision } = c;
  if (!target.hasIndex || collision.hasUuid || !bucket.evidence) return null;
  if (c.seq && c.persisted === null) return null; // Fluent Bit will not start at all
  if (!c.seq && c.target.root?.sequence.indexMetadataError) return null; // the index could not be looked for: unknown
  const start = c.seq ? c.persisted! : 0;
  const at = c.at.getTime();
  const periodic = collision.timeResolutionSeconds !== null && collision.risk === 'same-window';
  const atRisk = bucket.objects.filter((p) => {
    if (p.index === null || p.index < start) return false;
    if (p.window) return p.window.end.getTime() > at;
    return collision.timeResolutionSeconds === null || periodic; // no time, or periodic time fields
  });
  if (!atRisk.length) return null;
  atRisk.sort((a, b) => (a.index ?? 0) - (b.index ?? 0) || a.key.localeCompare(b.key));
  const until = atRisk.reduce((m, p) => Math.max(m, p.window?.end.getTime() ?? Infinity), 0);
  const window = until === Infinity ? `from ${c.at.toISOString()} on, at any time` : `from ${c.at.toISOString()} until ${new Date(until).toISOString()} (UTC)`;
  const fix = repair(c, 'Move the index past the bucket first.');
  return {
    code: 'OVERWRITE_RISK',
    severity: 'critical',
    summary: `If Fluent Bit starts now it uses $INDEX ${start}, ${start + 1}, … and overwrites ${plural(atRisk.length, 'existing object')} ${until === Infinity ? '' : 'in the same time window '}(${collision.riskText}).`,
    evidence: [
      `next index after a restart: ${start} (${c.seq ? `persisted in ${c.seq.path}` : `seq_index_${target.id} missing`}); ${safeLine(c)}`,
      `assumed restart time ${c.at.toISOString()}; collision window ${window}`,
      collision.explanation,
      ...capped(atRisk.map((p) => `index ${p.index}: ${p.key}${when(p)}${p.window ? ` — collides until ${p.window.end.toISOString()}` : ''}`)),
    ],
    action: `Do not start Fluent Bit yet. ${fix.action}`,
    next: fix.next,
    outputId: target.id,
    data: {
      startIndex: start,
      keys: atRisk.map((p) => p.key),
      indices: atRisk.map((p) => p.index),
      windowStart: c.at.toISOString(),
      windowEnd: until === Infinity ? null : new Date(until).toISOString(),
    },
  };
}
