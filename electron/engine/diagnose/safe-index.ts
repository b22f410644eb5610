/**
 * The lowest next `$INDEX` of one output the local facts and the listed keys allow, computed exactly
 * (uint64, as BigInt) — the safe next index when the evidence covers the format: never below the
 * bucket's highest index + 1, the persisted value, a local multipart record's index + 1, and — for
 * an output whose own seq_index file is missing — the value of a stray seq_index file in its root
 * (outputs reordered: the stray file is most likely this output's former index; output ids are
 * positions among all outputs, docs/fluent-bit-store-format.md).
 */
import type { FluentBitConfig, RootReport, SeqIndexInfo } from '../../../shared/model';
import { parseKey } from '../../../shared/keyformat';
import { ceilToNumber, type BucketAnalysis } from './bucket';
import type { Target } from './targets';

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/** seq_index files of a root that no `$INDEX` output of the config (among `owners`) reads. */
export function strayIndexFiles(root: RootReport, owners: Target[]): SeqIndexInfo[] {
  const ownerIds = new Set(owners.filter((t) => t.hasIndex).map((t) => t.id));
  return root.seqIndex.filter((s) => s.outputId === null || !ownerIds.has(s.outputId));
}

export interface SafeIndex {
  /** The next index is at least this; rounded up to a number when above 2^53 - 1 (never below the exact value). */
  lowerBound: number;
  /** Exact decimal, only when above 2^53 - 1. */
  lowerBoundText: string | null;
  /** Stray files that raised the safe index above every other source. */
  strayFloor: { value: string; files: SeqIndexInfo[] } | null;
}

export function safeIndexOf(
  target: Target,
  bucket: BucketAnalysis,
  persisted: number | null,
  ownSeq: SeqIndexInfo | null,
  all: Target[],
  config: FluentBitConfig | null,
): SafeIndex {
  let safe = bucket.highestIndexText !== null ? BigInt(bucket.highestIndexText) + 1n : 0n;
  // the exact persisted value (uint64, also above 2^53 - 1): Fluent Bit continues there
  const persistedExact = ownSeq?.valueText != null ? BigInt(ownSeq.valueText) : persisted !== null ? BigInt(persisted) : null;
  if (persistedExact !== null && persistedExact > safe) safe = persistedExact;
  for (const c of (target.root?.streams ?? []).filter((s) => s.kind === 'multipart').flatMap((s) => s.chunks)) {
    if (!c.multipart || !target.keyFormat) continue;
    const p = parseKey(target.keyFormat, c.multipart.s3Key, { tagDelimiters: target.tagDelimiters });
    const i = p?.index !== undefined ? BigInt(p.index) : p?.indexText !== undefined ? BigInt(p.indexText) : null;
    if (i !== null && i + 1n > safe) safe = i + 1n;
  }
  let strayFloor: SafeIndex['strayFloor'] = null;
  if (config && target.hasIndex && target.root && !ownSeq) {
    const root = target.root;
    const strays = strayIndexFiles(
      root,
      all.filter((t) => t.root === root),
    ).filter((s) => s.valueText !== null);
    const max = strays.reduce((m, s) => (BigInt(s.valueText!) > m ? BigInt(s.valueText!) : m), -1n);
    if (max > safe) {
      strayFloor = { value: max.toString(), files: strays.filter((s) => BigInt(s.valueText!) === max) };
      safe = max;
    }
  }
  return { lowerBound: ceilToNumber(safe), lowerBoundText: safe > MAX_EXACT ? safe.toString() : null, strayFloor };
}

/** Why a stray seq_index file raised the safe index (evidence line). */
export function strayFloorLine(floor: NonNullable<SafeIndex['strayFloor']>): string {
  return (
    `the next index (at least ${floor.value}) includes ${floor.files.map((f) => `${f.fileName} = ${f.valueText}`).join(', ')}: if that file was this output's index ` +
    `before the outputs were reordered, values below ${floor.value} may be used by objects that expired or were not listed; ` +
    'a higher index only leaves a gap in $INDEX, a lower one could overwrite'
  );
}
