/**
 * What the bucket says about one output: keys parsed against its key format, the highest
 * `$INDEX`, a (time, index) timeline, resets, reused indices and overwritten keys (versions).
 */
import type { IndexPoint, KeyParts, S3Evidence } from '../../../shared/model';
import { keyTimeWindow, parseKey } from '../../../shared/keyformat';
import { isoOrNull } from './text';

export interface ParsedKey {
  key: string;
  parts: KeyParts;
  index: number | null;
  /** Exact `$INDEX` above 2^53 - 1 (then `index` is null). */
  indexText: string | null;
  /** LastModified, else the start of the key's time window. */
  time: string | null;
  /** LastModified (or the upload's Initiated) as the evidence gives it. */
  lastModified: string | null;
  window: { start: Date; end: Date } | null;
  versionId?: string;
  isLatest?: boolean;
}

export interface BucketAnalysis {
  evidence: S3Evidence | null;
  /** Current objects of this format. */
  objects: ParsedKey[];
  /** Non-delete-marker versions of this format (null when versions were not listed). */
  versions: ParsedKey[] | null;
  /** In-progress multipart uploads of this format (null when not listed). */
  uploads: (ParsedKey & { uploadId: string })[] | null;
  /** Keys in the evidence that do not belong to the format. */
  foreignKeys: number;
  /** Highest `$INDEX`; rounded up to a double when it is above 2^53 - 1 (see highestIndexText). */
  highestIndex: number | null;
  /** Exact decimal of the highest `$INDEX` (uint64). */
  highestIndexText: string | null;
  highestKey: string | null;
  /** Keys whose `$INDEX` is above 2^53 - 1: kept out of the timeline and reuse maps (not exact). */
  beyondExact: ParsedKey[];
  timeline: IndexPoint[];
  resets: { time: string; from: number; to: number }[];
  /** index → the distinct uploads (key + time) that used it, for indices used more than once. */
  reused: Map<number, ParsedKey[]>;
  /** key → its versions (oldest first), for keys written more than once. */
  overwritten: Map<string, ParsedKey[]>;
}

function parseOne(format: string, tagDelimiters: string, key: string, lastModified: string | null): ParsedKey | null {
  if (!format) return null;
  const parts = parseKey(format, key, { tagDelimiters });
  if (!parts) return null;
  const window = keyTimeWindow(format, parts);
  return {
    key,
    parts,
    index: parts.index ?? null,
    indexText: parts.indexText ?? null,
    time: isoOrNull(lastModified) ?? window?.start.toISOString() ?? null,
    lastModified: isoOrNull(lastModified),
    window,
  };
}

export function analyzeBucket(format: string, tagDelimiters: string, evidence: S3Evidence | null): BucketAnalysis {
  const a: BucketAnalysis = {
    evidence,
    objects: [],
    versions: null,
    uploads: null,
    foreignKeys: 0,
    highestIndex: null,
    highestIndexText: null,
    highestKey: null,
    beyondExact: [],
    timeline: [],
    resets: [],
    reused: new Map(),
    overwritten: new Map(),
  };
  if (!evidence) return a;
  for (const o of evidence.objects) {
    const p = parseOne(format, tagDelimiters, o.key, o.lastModified);
    if (p) a.objects.push(p);
    else a.foreignKeys++;
  }
  if (evidence.versions) {
    a.versions = [];
    for (const v of evidence.versions) {
      if (v.isDeleteMarker) continue;
      const p = parseOne(format, tagDelimiters, v.key, v.lastModified);
      if (p) a.versions.push({ ...p, versionId: v.versionId, isLatest: v.isLatest });
    }
  }
  if (evidence.multipartUploads) {
    a.uploads = [];
    for (const u of evidence.multipartUploads) {
      const p = parseOne(format, tagDelimiters, u.key, u.initiated);
      if (p) a.uploads.push({ ...p, uploadId: u.uploadId });
    }
  }
  let highest: bigint | null = null;
  for (const p of [...a.objects, ...(a.versions ?? []), ...(a.uploads ?? [])]) {
    const exact = p.index !== null ? BigInt(p.index) : p.indexText !== null ? BigInt(p.indexText) : null;
    if (p.indexText !== null && !a.beyondExact.some((b) => b.key === p.key)) a.beyondExact.push(p);
    if (exact !== null && (highest === null || exact > highest)) {
      highest = exact;
      a.highestKey = p.key;
    }
  }
  if (highest !== null) {
    a.highestIndex = ceilToNumber(highest);
    a.highestIndexText = highest.toString();
  }
  // One entry per upload: every version when versions are known, else every current object.
  const uploads = a.versions ?? a.objects;
  const byKey = new Map<string, ParsedKey[]>();
  for (const p of uploads) byKey.set(p.key, [...(byKey.get(p.key) ?? []), p]);
  for (const [key, list] of byKey) {
    if (list.length > 1)
      a.overwritten.set(
        key,
        [...list].sort((x, y) => (x.time ?? '').localeCompare(y.time ?? '')),
      );
  }
  const byIndex = new Map<number, ParsedKey[]>();
  for (const p of uploads) if (p.index !== null) byIndex.set(p.index, [...(byIndex.get(p.index) ?? []), p]);
  for (const [index, list] of byIndex) {
    if (list.length > 1)
      a.reused.set(
        index,
        [...list].sort((x, y) => (x.time ?? '').localeCompare(y.time ?? '')),
      );
  }
  a.timeline = uploads
    .filter((p) => p.index !== null && p.time !== null)
    .map((p) => ({ time: p.time!, index: p.index!, key: p.key, ...(p.parts.tag !== undefined ? { tag: p.parts.tag } : {}), lastModified: p.lastModified }))
    .sort((x, y) => x.time.localeCompare(y.time) || x.index - y.index);
  a.resets = findResets(a.timeline);
  return a;
}

/** The smallest JavaScript number ≥ `v` (exact up to 2^53 - 1; above, the next double up). */
export function ceilToNumber(v: bigint): number {
  let n = Number(v);
  if (BigInt(n) >= v) return n;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n);
  view.setBigUint64(0, view.getBigUint64(0) + 1n); // positive doubles: the next bit pattern is the next value
  n = view.getFloat64(0);
  return n;
}

/**
 * A reset: over time the index goes down to a value that was already used. (A multipart
 * object completing after later PutObjects also goes down, but to a value never seen before.)
 */
export function findResets(timeline: IndexPoint[]): { time: string; from: number; to: number }[] {
  const seen = new Set<number>();
  const resets: { time: string; from: number; to: number }[] = [];
  let prev: number | null = null;
  let runMax: number | null = null;
  for (const p of timeline) {
    if (prev !== null && p.index < prev && seen.has(p.index)) {
      resets.push({ time: p.time, from: runMax ?? prev, to: p.index });
      runMax = null;
    }
    seen.add(p.index);
    prev = p.index;
    runMax = runMax === null ? p.index : Math.max(runMax, p.index);
  }
  return resets;
}
