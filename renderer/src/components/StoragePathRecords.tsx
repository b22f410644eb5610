/**
 * The events of a storage.path chunk in the Inspector, decoded from msgpack by the engine
 * (storagePath.records), page by page as NDJSON with the Inspector's search.
 */
import { useEffect, useState } from 'react';
import type { RecordPage } from '../../../shared/model';
import { describeError } from '../actions/run';
import { getClient } from '../client';
import { formatCount } from '../format';
import { RECORDS_PAGE_SIZE } from '../state/inspector';
import { ErrorText } from './ErrorText';
import { RecordsList } from './RecordsList';

/** Keyed by the chunk (its parent gives `key`): another chunk starts at its first page. */
export function StoragePathRecords({ dir, chunkPath, stamp }: { dir: string; chunkPath: string; stamp: unknown }) {
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<RecordPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    getClient()
      .request('storagePath.records', { path: dir, chunkPath, offset, limit: RECORDS_PAGE_SIZE })
      .then((p) => {
        if (!live) return;
        setPage(p);
        setError(null);
      })
      .catch((e: unknown) => live && setError(describeError(e, `Reading the records of ${chunkPath}`)));
    return () => {
      live = false;
    };
  }, [dir, chunkPath, offset, stamp]);
  const from = page && page.records.length ? page.offset + 1 : 0;
  const to = page ? page.offset + page.records.length : 0;
  return (
    <section className="card" aria-label="Records" data-testid="sp-records">
      <div className="section-head">
        <h3>Records (decoded from msgpack)</h3>
        <span className="muted">{page && page.records.length > 0 ? `${formatCount(from)}–${formatCount(to)} of ${formatCount(page.total)}` : ''}</span>
        <button type="button" disabled={!page || page.offset === 0} onClick={() => setOffset(Math.max(0, offset - RECORDS_PAGE_SIZE))}>
          ← Previous
        </button>
        <button type="button" disabled={page?.nextOffset == null} onClick={() => page?.nextOffset != null && setOffset(page.nextOffset)}>
          Next →
        </button>
      </div>
      <ErrorText error={error} />
      {page && page.records.length === 0 && <p className="muted">No complete event.</p>}
      {page && page.records.length > 0 && <RecordsList page={page} />}
    </section>
  );
}
