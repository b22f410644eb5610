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
  /** LastModified, else the start of the key's time window. */
  time: string | null;
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
  highestIndex: number | null;
  highestKey: string | null;
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
  return { key, parts, index: parts.index ?? null, time: isoOrNull(lastModified) ?? window?.start.toISOString() ?? null, window };
}

export function analyzeBucket(format: string, tagDelimiters: string, evidence: S3Evidence | null): BucketAnalysis {
  const a: BucketAnalysis = {
    evidence,
    objects: [],
    versions: null,
    uploads: null,
    foreignKeys: 0,
    highestIndex: null,
    highestKey: null,
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
  for (const p of [...a.objects, ...(a.versions ?? []), ...(a.uploads ?? [])]) {
    if (p.index !== null && (a.highestIndex === null || p.index > a.highestIndex)) {
      a.highestIndex = p.index;
      a.highestKey = p.key;
    }
  }
  // One entry per upload: every version when versions are known, else every current object.
  const uploads = a.versions ?? a.objects;
  const byKey = new Map<string, ParsedKey[]>();
  for (const p of uploads) byKey.set(p.key, [...(byKey.get(p.key) ?? []), p]);
  for (const [key, list] of byKey) {
    if (list.length > 1) a.overwritten.set(key, [...list].sort((x, y) => (x.time ?? '').localeCompare(y.time ?? '')));
  }
  const byIndex = new Map<number, ParsedKey[]>();
  for (const p of uploads) if (p.index !== null) byIndex.set(p.index, [...(byIndex.get(p.index) ?? []), p]);
  for (const [index, list] of byIndex) {
    if (list.length > 1) a.reused.set(index, [...list].sort((x, y) => (x.time ?? '').localeCompare(y.time ?? '')));
  }
  a.timeline = uploads
    .filter((p) => p.index !== null && p.time !== null)
    .map((p) => ({ time: p.time!, index: p.index!, key: p.key, ...(p.parts.tag !== undefined ? { tag: p.parts.tag } : {}) }))
    .sort((x, y) => x.time.localeCompare(y.time) || x.index - y.index);
  a.resets = findResets(a.timeline);
  return a;
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
