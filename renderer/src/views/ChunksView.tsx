/**
 * Every chunk in a virtualized table (100k+ rows): filter by stream, tag, status, record time or a
 * finding's chunks; counts per status and tag (click one to filter); sort on every column; `/`
 * focuses the tag filter; arrow keys move between rows.
 */
import { useDeferredValue, useEffect, useMemo } from 'react';
import { buildIndex, precomputeOrders, query, useChunks, type SortKey, type StatusFilter } from '../state/chunks';
import { useSession } from '../state/session';
import { ChunkFilters } from './ChunkFilters';
import { ChunkRows } from './ChunkRows';
import { StoreSalvageBar } from '../features/salvage';

export { statusKind } from './ChunkRows';

const COLUMNS: { key: Exclude<SortKey, 'none'>; label: string; num?: boolean; title?: string }[] = [
  { key: 'stream', label: 'Stream' },
  { key: 'file', label: 'File' },
  { key: 'tag', label: 'Tag' },
  { key: 'status', label: 'Status' },
  { key: 'size', label: 'On disk', num: true },
  { key: 'records', label: 'Records', num: true },
  // "age" is record time everywhere; this column is the file's own time, named so
  { key: 'age', label: 'File time', num: true, title: 'file time: how long before the scan the file was last modified (not the age of its records)' },
];

export function ChunksView() {
  // A report sent without its rows (a big store just opened): the table waits for them.
  const rowsPending = useSession((s) => !!s.opened?.rowsOmitted);
  if (rowsPending)
    return (
      <div className="view">
        <h2>Chunks</h2>
        <p className="muted" role="status" data-testid="rows-pending">
          Reading the chunk list…
        </p>
      </div>
    );
  return <ChunkTable />;
}

function ChunkTable() {
  const report = useSession((s) => s.opened?.report ?? null);
  const { filter, sortKey, sortDir, selectedId } = useChunks();
  const index = useMemo(() => buildIndex(report), [report]);
  const deferredTag = useDeferredValue(filter.tag);
  const deferredFrom = useDeferredValue(filter.from);
  const deferredTo = useDeferredValue(filter.to);
  const result = useMemo(
    () => query(index, { ...filter, tag: deferredTag, from: deferredFrom, to: deferredTo }, sortKey, sortDir),
    [index, filter.stream, filter.status, filter.paths, deferredTag, deferredFrom, deferredTo, sortKey, sortDir], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const ids = result.ids;
  // ages are at the scan time: what the table shows is what was read then
  const now = report ? Date.parse(report.scannedAt) : 0;
  // the other columns' sort orders are computed in idle time, so a click on a header finds its order ready
  useEffect(() => precomputeOrders(index), [index]);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.key !== '/' || e.altKey || e.ctrlKey || e.metaKey || (t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      e.preventDefault();
      document.getElementById('chunk-tag-filter')?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const ariaSort = (key: SortKey) => (sortKey === key ? (sortDir === 'asc' ? 'ascending' : 'descending') : 'none');
  const arrow = (key: SortKey) => (sortKey === key ? (sortDir === 'asc' ? ' ▲' : ' ▼') : '');
  const statusCounts = index.statuses.map((s, i) => ({ value: s as StatusFilter, n: result.statusCounts[i] })).filter((x) => x.n > 0);
  const tagCounts = index.tags
    .map((t, i) => ({ value: t, n: result.tagCounts[i] }))
    .filter((x) => x.n > 0)
    .sort((a, b) => b.n - a.n)
    .slice(0, 8);

  return (
    <div className="view view-fill">
      <h2>Chunks</h2>
      <StoreSalvageBar />
      <ChunkFilters streams={index.streams} shown={ids.length} total={index.rows.length} statusCounts={statusCounts} tagCounts={tagCounts} />
      <div className="table" role="table" aria-label="Chunks" aria-rowcount={ids.length + 1}>
        <div className="thead" role="row" aria-rowindex={1}>
          {COLUMNS.map((c) => (
            <span key={c.key} role="columnheader" aria-sort={ariaSort(c.key)} className={c.num ? 'c-num' : undefined}>
              <button type="button" className="th-button" title={c.title} onClick={() => useChunks.getState().toggleSort(c.key)}>
                {c.label}
                {arrow(c.key)}
              </button>
            </span>
          ))}
        </div>
        <ChunkRows rows={index.rows} ids={ids} selectedId={selectedId} now={now} />
        {ids.length === 0 && <p className="muted empty">No chunk matches these filters.</p>}
      </div>
    </div>
  );
}
