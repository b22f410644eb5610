/** Every chunk in a virtualized table (100k+ rows): filter by stream, tag, status; sort by age or size. */
import { memo, useDeferredValue, useMemo, useRef, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { inspectChunk } from '../actions/inspector';
import { filterAndSort, flattenChunks, streamNames, useChunks, type ChunkRow, type StatusFilter } from '../state/chunks';
import { useSession } from '../state/session';
import { Badge } from '../components/Badge';
import { formatAge, formatBytes, formatCount } from '../format';

const STATUSES: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'damaged', label: 'Damaged (rejected by Fluent Bit)' },
  { value: 'ok', label: 'ok' },
  { value: 'legacy-length', label: 'legacy-length' },
  { value: 'zero-byte', label: 'zero-byte' },
  { value: 'too-short', label: 'too-short' },
  { value: 'bad-magic', label: 'bad-magic' },
  { value: 'truncated', label: 'truncated' },
  { value: 'crc-mismatch', label: 'crc-mismatch' },
  { value: 'unreadable', label: 'unreadable' },
];

const ROW_HEIGHT = 34;

function statusKind(status: string): string {
  return status === 'ok' ? 'ok' : status === 'legacy-length' || status === 'zero-byte' ? 'warning' : 'error';
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
      title={c.message}
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
      <span role="cell" className="c-num">
        {formatAge(c.mtime, now)}
      </span>
    </button>
  );
});

export function ChunksView() {
  const report = useSession((s) => s.opened?.report ?? null);
  const { filter, sortKey, sortDir, selectedId } = useChunks();
  const all = useMemo(() => flattenChunks(report), [report]);
  const streams = useMemo(() => streamNames(all), [all]);
  const deferredTag = useDeferredValue(filter.tag);
  const rows = useMemo(
    () => filterAndSort(all, { ...filter, tag: deferredTag }, sortKey, sortDir),
    [all, filter.stream, filter.status, deferredTag, sortKey, sortDir], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const now = useMemo(() => Date.now(), [report]); // eslint-disable-line react-hooks/exhaustive-deps
  // Arrow keys / Home / End move between rows (the table is virtualized, so scroll first, then focus).
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const current = Number((document.activeElement as HTMLElement | null)?.dataset.index ?? -1);
    const next =
      e.key === 'ArrowDown'
        ? current + 1
        : e.key === 'ArrowUp'
          ? current - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? rows.length - 1
              : e.key === 'PageDown'
                ? current + 15
                : e.key === 'PageUp'
                  ? current - 15
                  : null;
    if (next == null || rows.length === 0) return;
    e.preventDefault();
    const target = Math.max(0, Math.min(rows.length - 1, next));
    virtualizer.scrollToIndex(target, { align: 'auto' });
    requestAnimationFrame(() => scroller.current?.querySelector<HTMLElement>(`[data-index="${target}"]`)?.focus());
  };
  const sortArrow = (key: 'age' | 'size') => (sortKey === key ? (sortDir === 'asc' ? ' ▲' : ' ▼') : '');
  const ariaSort = (key: 'age' | 'size') => (sortKey === key ? (sortDir === 'asc' ? 'ascending' : 'descending') : 'none');

  return (
    <div className="view view-fill">
      <h2>Chunks</h2>
      <div className="filters" role="search">
        <label>
          Stream
          <select value={filter.stream} onChange={(e) => useChunks.getState().setFilter({ stream: e.target.value })}>
            <option value="">All streams</option>
            {streams.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Tag contains
          <input type="search" value={filter.tag} placeholder="app.web" onChange={(e) => useChunks.getState().setFilter({ tag: e.target.value })} />
        </label>
        <label>
          Status
          <select value={filter.status} onChange={(e) => useChunks.getState().setFilter({ status: e.target.value as StatusFilter })}>
            {STATUSES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <span className="muted" aria-live="polite" data-testid="chunk-count">
          {formatCount(rows.length)} of {formatCount(all.length)} chunks
        </span>
      </div>
      <div className="table" role="table" aria-label="Chunks" aria-rowcount={rows.length + 1}>
        <div className="thead" role="row" aria-rowindex={1}>
          <span role="columnheader">Stream</span>
          <span role="columnheader">File</span>
          <span role="columnheader">Tag</span>
          <span role="columnheader">Status</span>
          <span role="columnheader" aria-sort={ariaSort('size')} className="c-num">
            <button type="button" className="th-button" onClick={() => useChunks.getState().toggleSort('size')}>
              Size{sortArrow('size')}
            </button>
          </span>
          <span role="columnheader" className="c-num">
            Records
          </span>
          <span role="columnheader" aria-sort={ariaSort('age')} className="c-num">
            <button type="button" className="th-button" onClick={() => useChunks.getState().toggleSort('age')}>
              Age{sortArrow('age')}
            </button>
          </span>
        </div>
        <div className="tbody" ref={scroller} data-testid="chunk-scroller" onKeyDown={onKeyDown}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => (
              <Row key={rows[v.index].id} row={rows[v.index]} index={v.index} top={v.start} selected={rows[v.index].id === selectedId} now={now} />
            ))}
          </div>
        </div>
        {rows.length === 0 && <p className="muted empty">No chunk matches these filters.</p>}
      </div>
    </div>
  );
}
