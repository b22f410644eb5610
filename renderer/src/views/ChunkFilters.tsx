/** The filters of the Chunks table: stream, tag (`/` focuses it), status, record time, a finding's chunks, and counts per status and tag. */
import { EMPTY_FILTER, useChunks, type StatusFilter } from '../state/chunks';
import { formatCount, shown as shownText } from '../format';

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

interface Props {
  streams: string[];
  shown: number;
  total: number;
  statusCounts: { value: StatusFilter; n: number }[];
  tagCounts: { value: string; n: number }[];
}

export function ChunkFilters({ streams, shown, total, statusCounts, tagCounts }: Props) {
  const filter = useChunks((s) => s.filter);
  const set = useChunks.getState().setFilter;
  const sortedStreams = [...streams].sort();
  return (
    <>
      <div className="filters" role="search" aria-label="Filter the chunks">
        <label>
          Stream
          <select value={filter.stream} onChange={(e) => set({ stream: e.target.value })}>
            <option value="">All streams</option>
            {sortedStreams.map((s) => (
              <option key={s} value={s}>
                {shownText(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>
            Tag contains <kbd title="Press / to jump here">/</kbd>
          </span>
          <input id="chunk-tag-filter" type="search" value={filter.tag} placeholder="app.web" onChange={(e) => set({ tag: e.target.value })} />
        </label>
        <label>
          Status
          <select value={filter.status} onChange={(e) => set({ status: e.target.value as StatusFilter })}>
            {STATUSES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Records from (UTC)
          <input type="text" value={filter.from} placeholder="2026-11-29T18:00:00Z" spellCheck={false} onChange={(e) => set({ from: e.target.value })} />
        </label>
        <label>
          Records to (UTC)
          <input type="text" value={filter.to} placeholder="2026-11-29T19:00:00Z" spellCheck={false} onChange={(e) => set({ to: e.target.value })} />
        </label>
        <span className="muted" aria-live="polite" data-testid="chunk-count">
          {formatCount(shown)} of {formatCount(total)} chunks
        </span>
      </div>
      {(filter.from.trim() && Number.isNaN(Date.parse(filter.from))) || (filter.to.trim() && Number.isNaN(Date.parse(filter.to))) ? (
        <p className="warning-text">A record time is not an ISO time (e.g. 2026-11-29T18:00:00Z): it is not applied.</p>
      ) : null}
      {filter.paths && (
        <p className="filter-chip" data-testid="paths-filter">
          Showing only {filter.paths.label}.{' '}
          <button type="button" className="small" onClick={() => useChunks.getState().setFilter({ ...EMPTY_FILTER })}>
            Show all chunks
          </button>
        </p>
      )}
      <div className="facets" data-testid="facets">
        <span className="muted small">Status:</span>
        {statusCounts.map((s) => (
          <button
            key={s.value}
            type="button"
            className="facet"
            aria-pressed={filter.status === s.value}
            onClick={() => set({ status: filter.status === s.value ? 'all' : s.value })}
          >
            {s.value} <span className="facet-n">{formatCount(s.n)}</span>
          </button>
        ))}
        <span className="muted small">Tags:</span>
        {tagCounts.map((t) => (
          <button
            key={t.value}
            type="button"
            className="facet"
            aria-pressed={filter.tag === t.value}
            onClick={() => set({ tag: filter.tag === t.value ? '' : t.value })}
          >
            {t.value ? shownText(t.value) : '(empty)'} <span className="facet-n">{formatCount(t.n)}</span>
          </button>
        ))}
      </div>
    </>
  );
}
