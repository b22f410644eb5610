/**
 * zod schemas of the listing documents support staff receive: JSON printed by `aws s3api
 * list-objects-v2` (or `list-objects`), `list-object-versions`, `list-multipart-uploads`,
 * `list-parts` (one page or the CLI's merged pages), and the fixtures' recorder format.
 */
import { z } from 'zod';

const time = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a date/time');
const size = z.number().int().nonnegative();
const token = z.string().nullish();

export const contentSchema = z.looseObject({ Key: z.string(), Size: size, ETag: z.string().nullish(), LastModified: time.nullish() });

export const listObjectsSchema = z.looseObject({
  Contents: z.array(contentSchema).nullish(),
  Name: z.string().nullish(),
  Prefix: z.string().nullish(),
  KeyCount: z.number().int().nonnegative().nullish(),
  IsTruncated: z.boolean().nullish(),
  ContinuationToken: token,
  NextContinuationToken: token,
  NextMarker: token,
  NextToken: token,
});

const versionSchema = z.looseObject({
  Key: z.string(),
  VersionId: z.string().nullish(),
  IsLatest: z.boolean().nullish(),
  LastModified: time.nullish(),
  ETag: z.string().nullish(),
  Size: size.nullish(),
});

export const listVersionsSchema = z.looseObject({
  Versions: z.array(versionSchema).nullish(),
  DeleteMarkers: z.array(versionSchema.omit({ ETag: true, Size: true })).nullish(),
  Name: z.string().nullish(),
  IsTruncated: z.boolean().nullish(),
  KeyMarker: token,
  VersionIdMarker: token,
  NextKeyMarker: token,
  NextVersionIdMarker: token,
  NextToken: token,
});

export const listUploadsSchema = z.looseObject({
  Uploads: z.array(z.looseObject({ Key: z.string(), UploadId: z.string(), Initiated: time.nullish() })).nullish(),
  Bucket: z.string().nullish(),
  IsTruncated: z.boolean().nullish(),
  KeyMarker: token,
  UploadIdMarker: token,
  NextKeyMarker: token,
  NextUploadIdMarker: token,
  NextToken: token,
});

export const listPartsSchema = z.looseObject({
  Bucket: z.string().nullish(),
  Key: z.string(),
  UploadId: z.string(),
  Parts: z.array(z.looseObject({ PartNumber: z.number().int().positive(), ETag: z.string(), Size: size })).nullish(),
  IsTruncated: z.boolean().nullish(),
});

const partSchema = z.looseObject({ partNumber: z.number().int().positive(), etag: z.string(), size });

export const recorderSchema = z.looseObject({
  bucket: z.string().nullish(),
  prefix: z.string().nullish(),
  count: z.number().int().nonnegative().nullish(),
  objects: z.array(z.looseObject({ key: z.string(), size, etag: z.string().nullish(), lastModified: time.nullish() })),
  multipartUploads: z
    .array(z.looseObject({ key: z.string(), uploadId: z.string(), initiated: time.nullish(), parts: z.array(partSchema).nullish() }))
    .nullish(),
});

export type OfflineDocKind = 'list-objects' | 'list-object-versions' | 'list-multipart-uploads' | 'list-parts' | 'recorder';

export const SCHEMAS = {
  'list-objects': listObjectsSchema,
  'list-object-versions': listVersionsSchema,
  'list-multipart-uploads': listUploadsSchema,
  'list-parts': listPartsSchema,
  recorder: recorderSchema,
} as const;

export type ParsedDoc =
  | { kind: 'list-objects'; value: z.infer<typeof listObjectsSchema> }
  | { kind: 'list-object-versions'; value: z.infer<typeof listVersionsSchema> }
  | { kind: 'list-multipart-uploads'; value: z.infer<typeof listUploadsSchema> }
  | { kind: 'list-parts'; value: z.infer<typeof listPartsSchema> }
  | { kind: 'recorder'; value: z.infer<typeof recorderSchema> };

const has = (v: Record<string, unknown>, ...keys: string[]) => keys.some((k) => k in v);

/** Which listing a JSON value is, from its keys; null when none fits. */
export function detectKind(v: unknown): OfflineDocKind | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (has(o, 'objects')) return 'recorder';
  if (has(o, 'Parts') || (has(o, 'UploadId') && has(o, 'Key'))) return 'list-parts';
  if (has(o, 'Uploads', 'UploadIdMarker', 'NextUploadIdMarker')) return 'list-multipart-uploads';
  if (has(o, 'Versions', 'DeleteMarkers', 'VersionIdMarker', 'NextVersionIdMarker')) return 'list-object-versions';
  if (has(o, 'Contents', 'KeyCount', 'ContinuationToken', 'NextContinuationToken', 'StartAfter', 'Marker', 'NextMarker', 'Prefix', 'Name', 'IsTruncated')) {
    return 'list-objects';
  }
  return null;
}

/** `a.b[3].c` from a zod issue path. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('') || '(top level)';
}
