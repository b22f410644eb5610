/**
 * Are all pages there? A page that says "more follows" (NextContinuationToken, NextKeyMarker, …)
 * must be continued by another given page (ContinuationToken, KeyMarker, …); the CLI's own paging
 * (`--max-items` → NextToken) must end with a page without NextToken.
 */
import type { ParsedDoc } from './offline-schemas';

type Named = { name: string; doc: ParsedDoc };

export function checkPagination(parsed: Named[]): string[] {
  const notes: string[] = [];
  const of = <K extends ParsedDoc['kind']>(kind: K) => parsed.filter((p): p is { name: string; doc: Extract<ParsedDoc, { kind: K }> } => p.doc.kind === kind);

  const objects = of('list-objects');
  const tokens = new Set(objects.map((p) => p.doc.value.ContinuationToken).filter(Boolean));
  const markers = new Set(
    objects.map((p) => (p.doc.value as Record<string, unknown>).Marker ?? (p.doc.value as Record<string, unknown>).StartAfter).filter(Boolean),
  );
  for (const { name, doc } of objects) {
    const v = doc.value;
    const count = v.Contents?.length ?? 0;
    if (v.KeyCount != null && v.KeyCount !== count && !(v.KeyCount > 0 && v.Contents == null && 'CommonPrefixes' in v)) {
      notes.push(`${name}: KeyCount is ${v.KeyCount} but Contents holds ${count} entries; the file may be cut.`);
    }
    if (v.NextContinuationToken && !tokens.has(v.NextContinuationToken)) {
      notes.push(
        `${name}: the listing continues (NextContinuationToken) but no given file holds the next page; keys after "${v.Contents?.at(-1)?.Key ?? ''}" are unknown.`,
      );
    } else if (v.NextMarker && !markers.has(v.NextMarker)) {
      notes.push(`${name}: the listing continues (NextMarker "${v.NextMarker}") but no given file holds the next page.`);
    } else if (v.IsTruncated === true && !v.NextContinuationToken && !v.NextMarker && objects.length === 1) {
      notes.push(`${name}: the listing is truncated (IsTruncated) and no further page was given.`);
    }
  }
  cliPaging(objects, 'listing', notes);

  const versions = of('list-object-versions');
  const vMarkers = new Set(versions.map((p) => `${p.doc.value.KeyMarker ?? ''}\0${p.doc.value.VersionIdMarker ?? ''}`));
  for (const { name, doc } of versions) {
    const v = doc.value;
    if ((v.IsTruncated ?? !!v.NextKeyMarker) && v.NextKeyMarker && !vMarkers.has(`${v.NextKeyMarker}\0${v.NextVersionIdMarker ?? ''}`)) {
      notes.push(`${name}: the version listing continues after "${v.NextKeyMarker}" but no given file holds the next page.`);
    }
  }
  cliPaging(versions, 'version listing', notes);

  const uploads = of('list-multipart-uploads');
  const uMarkers = new Set(uploads.map((p) => `${p.doc.value.KeyMarker ?? ''}\0${p.doc.value.UploadIdMarker ?? ''}`));
  for (const { name, doc } of uploads) {
    const v = doc.value;
    if (v.IsTruncated && (v.NextKeyMarker || v.NextUploadIdMarker) && !uMarkers.has(`${v.NextKeyMarker ?? ''}\0${v.NextUploadIdMarker ?? ''}`)) {
      notes.push(`${name}: the multipart upload listing continues after "${v.NextKeyMarker ?? ''}" but no given file holds the next page.`);
    }
  }
  cliPaging(uploads, 'multipart upload listing', notes);
  return notes;
}

function cliPaging(pages: { name: string; doc: ParsedDoc }[], what: string, notes: string[]): void {
  if (pages.length === 0) return;
  const withToken = pages.filter((p) => (p.doc.value as { NextToken?: string | null }).NextToken);
  if (withToken.length === pages.length) {
    notes.push(`${withToken.map((p) => p.name).join(', ')}: every ${what} page ends with NextToken (aws --max-items), so the last page is missing.`);
  }
}
