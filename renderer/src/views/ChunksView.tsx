/**
 * Every chunk in a virtualized table (100k+ rows): filter by stream, tag, status, record time or a
 * finding's chunks; counts per status and tag (click one to filter); sort on every column; `/`
 * focuses the tag filter; arrow keys move between rows.
 */
import { memo, useDeferredValue, useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { inspectChunk } from '../actions/inspector';
import { buildIndex, query, useChunks, type ChunkRow, type SortKey, type StatusFilter } from '../state/chunks';
import { useSession } from '../state/session';
import { Badge } from '../components/Badge';
import { formatAge, formatBytes, formatCount, formatTime } from '../format';
import { ChunkFilters } from './ChunkFilters';

const ROW_HEIGHT = 34;

export function statusKind(status: string): string {
  return status === 'ok' ? 'ok' : status === 'legacy-length' || status === 'zero-byte' || status === 'unreadable' ? 'warning' : 'error';
}

/** Memoized: while scrolling only rows entering the window render. */
const Row = memo(function Row({ row, index, top, selected, now }: { row: ChunkRow; index: number; top: number; selected: boolean; now: number }) {
  const c = row.chunk;
  return (
    <button
      type="button"
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`trow${selected ? ' selected' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      data-testid="chunk-row"
      data-index={index}
      data-path={c.path}
      title={`${c.path}: ${c.message}`}
      onClick={() => {
        useChunks.getState().select(row.id);
        void inspectChunk(row.rootPath, c.path);
      }}
    >
      <span role="cell" className="c-stream">
        {c.stream}
      </span>
      <span role="cell" className="c-name">
        {c.name}
      </span>
      <span role="cell" className="c-tag">
        {c.tag ?? '—'}
      </span>
      <span role="cell" className="c-status">
        <Badge kind={statusKind(c.status)}>{c.status}</Badge>
      </span>
      <span role="cell" className="c-num">
        {formatBytes(c.fileSize)}
      </span>
      <span role="cell" className="c-num">
        {formatCount(c.records)}
      </span>
      <span role="cell" className="c-num" title={c.mtime ? `modified ${formatTime(c.mtime)}` : undefined}>
        {formatAge(c.mtime, now)}
      </span>
    </button>
  );
});

const COLUMNS: { key: Exclude<SortKey, 'none'>; label: string; num?: boolean }[] = [
  { key: 'stream', label: 'Stream' },
  { key: 'file', label: 'File' },
  { key: 'tag', label: 'Tag' },
  { key: 'status', label: 'Status' },
  { key: 'size', label: 'On disk', num: true },
  { key: 'records', label: 'Records', num: true },
  { key: 'age', label: 'Age', num: true },
];

export function ChunksView() {
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
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: ids.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const now = useMemo(() => Date.now(), [report]); // eslint-disable-line react-hooks/exhaustive-deps
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
  // Arrow keys / Home / End move between rows (the table is virtualized, so scroll first, then focus).
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const current = Number((document.activeElement as HTMLElement | null)?.dataset.index ?? -1);
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      Home: 0,
      End: ids.length - 1,
      PageDown: current + 15,
      PageUp: current - 15,
    };
    const next = moves[e.key];
    if (next === undefined || ids.length === 0) return;
    e.preventDefault();
    const target = Math.max(0, Math.min(ids.length - 1, next));
    virtualizer.scrollToIndex(target, { align: 'auto' });
    requestAnimationFrame(() => scroller.current?.querySelector<HTMLElement>(`[data-index="${target}"]`)?.focus());
  };
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
      <ChunkFilters streams={index.streams} shown={ids.length} total={index.rows.length} statusCounts={statusCounts} tagCounts={tagCounts} />
      <div className="table" role="table" aria-label="Chunks" aria-rowcount={ids.length + 1}>
        <div className="thead" role="row" aria-rowindex={1}>
          {COLUMNS.map((c) => (
            <span key={c.key} role="columnheader" aria-sort={ariaSort(c.key)} className={c.num ? 'c-num' : undefined}>
              <button type="button" className="th-button" onClick={() => useChunks.getState().toggleSort(c.key)}>
                {c.label}
                {arrow(c.key)}
              </button>
            </span>
          ))}
        </div>
        <div className="tbody" ref={scroller} data-testid="chunk-scroller" onKeyDown={onKeyDown}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => {
              const row = index.rows[ids[v.index]];
              return <Row key={row.id} row={row} index={v.index} top={v.start} selected={row.id === selectedId} now={now} />;
            })}
          </div>
        </div>
        {ids.length === 0 && <p className="muted empty">No chunk matches these filters.</p>}
      </div>
    </div>
  );
}
