/**
 * Offline S3 evidence: the same `S3Evidence` as a live listing, from JSON files saved by
 * `aws s3api list-objects-v2 | list-object-versions | list-multipart-uploads | list-parts`
 * (one file per page, several pages in one file, or the CLI's merged output) or by the fixtures'
 * recorder. Each document's shape is detected, validated, and merged; objects are deduplicated.
 */
import type { S3Evidence, S3ObjectEntry, S3UploadEntry, S3VersionEntry } from '../../../shared/model';
import { sortVersions } from './list';
import { detectKind, issuePath, SCHEMAS, type OfflineDocKind, type ParsedDoc } from './offline-schemas';
import { checkPagination } from './offline-pages';
import { pushAll } from '../../../shared/arrays';
import { safeReadFile, SafeReadError } from '../store/safe-read';

export type { OfflineDocKind } from './offline-schemas';

export interface OfflineDocument {
  name: string;
  text: string;
  /** What the file should be (from the door: --listing, --versions, --multipart); detected when absent. */
  kind?: OfflineDocKind | 'listing' | 'versions' | 'multipart';
  /** The file's modification time (a file read by path): the listing is at least this old. */
  mtime?: string;
}

/** A document that is not a listing we can read: names the file and what is wrong. */
export class OfflineEvidenceError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = 'OfflineEvidenceError';
  }
}

const HINTS: Record<string, OfflineDocKind[]> = {
  listing: ['list-objects', 'recorder'],
  versions: ['list-object-versions'],
  multipart: ['list-multipart-uploads', 'list-parts', 'recorder'],
};

function lineCol(text: string, pos: number): string {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  return `line ${line}, column ${pos - before.lastIndexOf('\n')}`;
}

/** One or more concatenated JSON values (pages appended to one file, or JSON lines). */
export function parseJsonValues(name: string, text: string): unknown[] {
  const body = text.replace(/^\uFEFF/, '');
  if (!body.trim()) throw new OfflineEvidenceError(name, 'the file is empty (expected the JSON printed by aws s3api)');
  try {
    return [JSON.parse(body)];
  } catch (first) {
    const values: unknown[] = [];
    let depth = 0;
    let start = -1;
    let inStr = false;
    for (let i = 0; i < body.length; i++) {
      const c = body[i];
      if (inStr) {
        if (c === '\\') i++;
        else if (c === '"') inStr = false;
      } else if (c === '"') inStr = true;
      else if (c === '{' || c === '[') {
        if (depth++ === 0) start = i;
      } else if (c === '}' || c === ']') {
        if (--depth === 0) {
          try {
            values.push(JSON.parse(body.slice(start, i + 1)));
          } catch {
            break;
          }
        }
      } else if (depth === 0 && !/\s/.test(c)) break;
    }
    if (values.length > 1 && depth === 0) return values;
    const m = /position (\d+)/.exec(String((first as Error).message));
    const where = m ? ` at ${lineCol(body, Number(m[1]))}` : '';
    throw new OfflineEvidenceError(name, `not valid JSON${where}: ${(first as Error).message}`);
  }
}

/** `--query Contents` style output: a bare array of entries. */
function wrapArray(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  const first = v.find((x) => typeof x === 'object' && x !== null) as Record<string, unknown> | undefined;
  if (first && 'UploadId' in first) return { Uploads: v };
  if (first && 'VersionId' in first) return { Versions: v };
  return { Contents: v };
}

const NOT_QUERY =
  'aws s3api prints that for `--query Contents` of an empty bucket, but also for a --query that matched nothing, so it cannot show that the bucket is empty; ' +
  'save the whole output of aws s3api list-objects-v2 (without --query), which has KeyCount and Name';

/** `null`, `[]` or an array without entries: no aws s3api output that proves anything (an empty listing must say so itself). */
function notAListing(raw: unknown): string | null {
  if (raw === null) return `holds null, not a listing: ${NOT_QUERY}`;
  if (Array.isArray(raw) && raw.length === 0) return `holds an empty array, not a listing: ${NOT_QUERY}`;
  if (Array.isArray(raw) && !raw.some((x) => typeof x === 'object' && x !== null && !Array.isArray(x)))
    return 'holds an array without listing entries (objects with Key), not a listing';
  return null;
}

export function parseDocument(doc: OfflineDocument): ParsedDoc[] {
  const values = parseJsonValues(doc.name, doc.text);
  return values.map((raw, i) => {
    const where = values.length > 1 ? `JSON value ${i + 1}: ` : '';
    const bad = notAListing(raw);
    if (bad) throw new OfflineEvidenceError(doc.name, `${where}${bad}`);
    const v = wrapArray(raw);
    const allowed = doc.kind ? (HINTS[doc.kind] ?? [doc.kind as OfflineDocKind]) : null;
    const kind = detectKind(v);
    if (!kind || (allowed && !allowed.includes(kind))) {
      const found =
        typeof v === 'object' && v !== null ? `keys ${Object.keys(v).slice(0, 8).join(', ') || '(none)'}` : `a JSON ${v === null ? 'null' : typeof v}`;
      const want = (allowed ?? ['list-objects', 'list-object-versions', 'list-multipart-uploads', 'list-parts', 'recorder'])
        .map(
          (k) =>
            ({
              'list-objects': 'aws s3api list-objects-v2 (Contents)',
              'list-object-versions': 'list-object-versions (Versions, DeleteMarkers)',
              'list-multipart-uploads': 'list-multipart-uploads (Uploads)',
              'list-parts': 'list-parts (Parts)',
              recorder: 'a recorder listing (objects)',
            })[k],
        )
        .join(', ');
      throw new OfflineEvidenceError(doc.name, `${where}not a listing Store Doctor reads: found ${found}; expected the JSON of ${want}`);
    }
    const r = SCHEMAS[kind].safeParse(v);
    if (!r.success) {
      const issues = r.error.issues.slice(0, 3).map((x) => `${issuePath(x.path)}: ${x.message}`);
      const more = r.error.issues.length > 3 ? ` (and ${r.error.issues.length - 3} more problems)` : '';
      throw new OfflineEvidenceError(doc.name, `${where}invalid ${kind} output: ${issues.join('; ')}${more}`);
    }
    return { kind, value: r.data } as ParsedDoc;
  });
}

const iso = (s: string | null | undefined) => (s ? new Date(s).toISOString() : null);

export function parseOfflineEvidence(docs: OfflineDocument[]): S3Evidence {
  const notes: string[] = [];
  const buckets = new Map<string, string>();
  const objects = new Map<string, { entry: S3ObjectEntry; file: string }>();
  const versions = new Map<string, S3VersionEntry>();
  const uploads = new Map<string, S3UploadEntry>();
  const parts = new Map<string, NonNullable<S3UploadEntry['parts']>>();
  let sawListing = false;
  let sawVersions = false;
  let sawUploads = false;
  let complete = true;
  const prefixes = new Set<string>();
  const parsed: { name: string; doc: ParsedDoc }[] = [];

  for (const d of docs) for (const doc of parseDocument(d)) parsed.push({ name: d.name, doc });

  const bucketOf = (name: string, b: string | null | undefined) => {
    if (b) buckets.set(b, buckets.get(b) ?? name);
  };
  const addObject = (file: string, e: S3ObjectEntry) => {
    const prev = objects.get(e.key);
    if (prev && (prev.entry.etag !== e.etag || prev.entry.size !== e.size || prev.entry.lastModified !== e.lastModified)) {
      notes.push(`"${e.key}" is listed differently in ${prev.file} and ${file}; the newer entry is kept.`);
      if ((prev.entry.lastModified ?? '') >= (e.lastModified ?? '')) return;
    }
    objects.set(e.key, { entry: e, file });
  };

  for (const { name, doc } of parsed) {
    if (doc.kind === 'list-objects') {
      sawListing = true;
      bucketOf(name, doc.value.Name);
      if (doc.value.Prefix) prefixes.add(doc.value.Prefix);
      for (const c of doc.value.Contents ?? []) addObject(name, { key: c.Key, size: c.Size, etag: c.ETag ?? null, lastModified: iso(c.LastModified) });
    } else if (doc.kind === 'recorder') {
      sawListing = true;
      sawUploads ||= Array.isArray(doc.value.multipartUploads);
      bucketOf(name, doc.value.bucket);
      for (const o of doc.value.objects) addObject(name, { key: o.key, size: o.size, etag: o.etag ?? null, lastModified: iso(o.lastModified) });
      for (const u of doc.value.multipartUploads ?? []) {
        uploads.set(u.uploadId, { key: u.key, uploadId: u.uploadId, initiated: iso(u.initiated), parts: u.parts ? u.parts.map((p) => ({ ...p })) : null });
      }
      if (doc.value.count != null && doc.value.count !== doc.value.objects.length) {
        complete = false;
        notes.push(`${name}: says ${doc.value.count} objects but holds ${doc.value.objects.length}; the file may be cut.`);
      }
    } else if (doc.kind === 'list-object-versions') {
      sawVersions = true;
      bucketOf(name, doc.value.Name);
      for (const v of doc.value.Versions ?? []) {
        const e = {
          key: v.Key,
          size: v.Size ?? 0,
          etag: v.ETag ?? null,
          lastModified: iso(v.LastModified),
          versionId: v.VersionId ?? 'null',
          isLatest: !!v.IsLatest,
          isDeleteMarker: false,
        };
        versions.set(`${e.key}\0${e.versionId}`, e);
      }
      for (const v of doc.value.DeleteMarkers ?? []) {
        const e = {
          key: v.Key,
          size: 0,
          etag: null,
          lastModified: iso(v.LastModified),
          versionId: v.VersionId ?? 'null',
          isLatest: !!v.IsLatest,
          isDeleteMarker: true,
        };
        versions.set(`${e.key}\0${e.versionId}`, e);
      }
    } else if (doc.kind === 'list-multipart-uploads') {
      sawUploads = true;
      bucketOf(name, doc.value.Bucket);
      for (const u of doc.value.Uploads ?? []) {
        const prev = uploads.get(u.UploadId);
        uploads.set(u.UploadId, { key: u.Key, uploadId: u.UploadId, initiated: iso(u.Initiated), parts: prev?.parts ?? null });
      }
    } else {
      bucketOf(name, doc.value.Bucket);
      const list = parts.get(doc.value.UploadId) ?? [];
      for (const p of doc.value.Parts ?? []) list.push({ partNumber: p.PartNumber, etag: p.ETag, size: p.Size });
      parts.set(doc.value.UploadId, list);
    }
  }

  if (buckets.size > 1) {
    const list = [...buckets].map(([b, f]) => `"${b}" (${f})`).join(', ');
    throw new OfflineEvidenceError(docs.map((d) => d.name).join(', '), `the files describe different buckets: ${list}; give the listings of one bucket`);
  }
  for (const [uploadId, list] of parts) {
    const u = uploads.get(uploadId);
    const dedup = [...new Map(list.map((p) => [p.partNumber, p])).values()].sort((a, b) => a.partNumber - b.partNumber);
    if (u) u.parts = dedup;
    else notes.push(`list-parts output for upload ${uploadId} has no matching upload in the multipart listing; ignored.`);
  }
  const pages = checkPagination(parsed);
  if (pages.length) {
    complete = false;
    pushAll(notes, pages);
  }
  let objectList = [...objects.values()].map((o) => o.entry);
  if (!sawListing && sawVersions) {
    objectList = [...versions.values()]
      .filter((v) => v.isLatest && !v.isDeleteMarker)
      .map(({ key, size, etag, lastModified }) => ({ key, size, etag, lastModified }));
    notes.push('No object listing given: current objects are taken from the latest versions.');
  }
  if (!sawListing && !sawVersions) notes.push('No object listing given: index checks against the bucket are not possible.');
  return {
    source: 'offline',
    bucket: buckets.keys().next().value ?? null,
    scope: docs.map((d) => d.name),
    objects: objectList.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    versions: sawVersions ? sortVersions([...versions.values()]) : null,
    multipartUploads: sawUploads ? [...uploads.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) : null,
    notes,
    requests: 0,
    complete,
    ...(prefixes.size ? { listedPrefixes: [...prefixes].sort() } : {}),
    ...listedAtOf(docs),
  };
}

/** The oldest file time of the documents (uploaded documents have none: their time is unknown). */
function listedAtOf(docs: OfflineDocument[]): { listedAt?: string } {
  const times = docs.map((d) => d.mtime).filter((t): t is string => !!t);
  return times.length === docs.length && times.length ? { listedAt: times.sort()[0] } : {};
}

/** Largest listing file read (JSON of about a million keys; a string cannot hold much more). */
export const LISTING_FILE_MAX = 256 * 1024 * 1024;

async function readDocs(files: string[] | undefined, kind: OfflineDocument['kind']): Promise<OfflineDocument[]> {
  return Promise.all(
    (files ?? []).map(async (file) => {
      try {
        // The one safe reader: a FIFO or device is refused (no hang), a symlink the user gave is followed.
        const r = await safeReadFile(file, { maxBytes: LISTING_FILE_MAX, follow: true });
        return { name: file, text: r.bytes.toString('utf8'), kind, mtime: r.stat.mtime.toISOString() };
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        const why =
          code === 'ENOENT'
            ? 'no such file'
            : code === 'EACCES'
              ? 'permission denied'
              : code === 'EISDIR'
                ? 'is a directory, not a file'
                : err instanceof SafeReadError
                  ? err.reason
                  : String((err as Error).message);
        throw new OfflineEvidenceError(file, `cannot read: ${why}`);
      }
    }),
  );
}

/** Read listing files given by role (CLI `--listing`, `--versions`, `--multipart`) as documents. */
export async function readOfflineDocuments(files: { listing?: string[]; versions?: string[]; multipart?: string[] }): Promise<OfflineDocument[]> {
  const docs = [
    ...(await readDocs(files.listing, 'listing')),
    ...(await readDocs(files.versions, 'versions')),
    ...(await readDocs(files.multipart, 'multipart')),
  ];
  if (docs.length === 0) throw new OfflineEvidenceError('(no files)', 'give at least one listing, versions or multipart file');
  return docs;
}

/** Read listing files given by role (CLI `--listing`, `--versions`, `--multipart`). */
export async function loadOfflineEvidence(files: { listing?: string[]; versions?: string[]; multipart?: string[] }): Promise<S3Evidence> {
  return parseOfflineEvidence(await readOfflineDocuments(files));
}
