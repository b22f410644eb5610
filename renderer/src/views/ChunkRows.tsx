/**
 * The rows of the chunk table, virtualized by hand: rows have one fixed height, so the window of
 * rows on screen follows from the scroll position alone — no per-row measurement, nothing that
 * grows with the number of rows when a filter or a sort changes. Only this component re-renders
 * while scrolling, synchronously in the scroll event (flushSync), so the rows are there in the
 * frame that shows the new position. Arrow keys, Page Up/Down, Home and End move the focus between rows.
 */
import { memo, type KeyboardEvent } from 'react';
import { useRowWindow } from '../components/useRowWindow';
import { inspectChunk } from '../actions/inspector';
import { useChunks, type ChunkRow } from '../state/chunks';
import { Badge } from '../components/Badge';
import { formatAge, formatBytes, formatCount, formatTime, shown } from '../format';

export const ROW_HEIGHT = 34;
const OVERSCAN = 10;

export function statusKind(status: string): string {
  return status === 'ok' ? 'ok' : status === 'legacy-length' || status === 'zero-byte' || status === 'unreadable' ? 'warning' : 'error';
}

/** Memoized: while scrolling only rows entering the window render. */
const Row = memo(function Row({ row, index, selected, now }: { row: ChunkRow; index: number; selected: boolean; now: number }) {
  const c = row.chunk;
  return (
    <button
      type="button"
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`trow${selected ? ' selected' : ''}`}
      style={{ transform: `translateY(${index * ROW_HEIGHT}px)` }}
      data-testid="chunk-row"
      data-index={index}
      data-path={c.path}
      title={shown(`${c.path}: ${c.message}`)}
      onClick={() => {
        useChunks.getState().select(row.id);
        void inspectChunk(row.rootPath, c.path);
      }}
    >
      <span role="cell" className="c-stream">
        {shown(c.stream)}
      </span>
      <span role="cell" className="c-name">
        {shown(c.name)}
      </span>
      <span role="cell" className="c-tag">
        {c.tag != null ? shown(c.tag) : '—'}
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
      <span role="cell" className="c-num" title={c.mtime ? `file time: modified ${formatTime(c.mtime)}` : undefined}>
        {formatAge(c.mtime, now)}
      </span>
    </button>
  );
});

interface Props {
  rows: ChunkRow[];
  ids: Int32Array;
  selectedId: string | null;
  now: number;
}

export const ChunkRows = memo(function ChunkRows({ rows, ids, selectedId, now }: Props) {
  // the window of rows on screen (first row, rows that fit): changes only when a row enters or leaves; a new filter or sort starts at the top
  const { scroller, view } = useRowWindow(ROW_HEIGHT, ids, { fallbackHeight: 600, initialFit: 30 });
  const first = Math.max(0, view.first - OVERSCAN);
  const last = Math.min(ids.length, view.first + view.fit + OVERSCAN);
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
    const el = scroller.current!;
    const y = target * ROW_HEIGHT;
    if (y < el.scrollTop) el.scrollTop = y;
    else if (y + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = y + ROW_HEIGHT - el.clientHeight;
    requestAnimationFrame(() => el.querySelector<HTMLElement>(`[data-index="${target}"]`)?.focus());
  };
  const items = [];
  for (let i = first; i < last; i++) {
    const row = rows[ids[i]];
    items.push(<Row key={row.id} row={row} index={i} selected={row.id === selectedId} now={now} />);
  }
  return (
    <div className="tbody" ref={scroller} data-testid="chunk-scroller" onKeyDown={onKeyDown}>
      <div style={{ height: ids.length * ROW_HEIGHT, position: 'relative' }}>{items}</div>
    </div>
  );
});
