/**
 * Chunks table view state (filters, sort, selection) and the pure row selectors that flatten the
 * engine's report into table rows. Rows are the engine's ChunkInfo as returned; nothing is recomputed.
 */
import { create } from 'zustand';
import type { ChunkInfo, ChunkStatus, StoreReport } from '../../../shared/model';
import { DAMAGED_CHUNK_STATUSES } from '../../../shared/model';

export type StatusFilter = 'all' | 'damaged' | ChunkStatus;
export type SortKey = 'none' | 'age' | 'size';
export type SortDir = 'asc' | 'desc';

export interface ChunkRow {
  /** Unique across roots: `<rootPath>::<chunk.path>`. */
  id: string;
  rootPath: string;
  bucket: string;
  chunk: ChunkInfo;
  /** mtime as epoch ms (for sorting by age); NaN when unknown. */
  mtimeMs: number;
}

export interface ChunkFilter {
  stream: string;
  tag: string;
  status: StatusFilter;
}

export interface ChunksState {
  filter: ChunkFilter;
  sortKey: SortKey;
  sortDir: SortDir;
  selectedId: string | null;
  setFilter(patch: Partial<ChunkFilter>): void;
  /** Clicking the same key flips the direction; a new key starts with oldest / largest first. */
  toggleSort(key: Exclude<SortKey, 'none'>): void;
  setSort(key: SortKey, dir: SortDir): void;
  select(id: string | null): void;
  reset(): void;
}

const initial = { filter: { stream: '', tag: '', status: 'all' as StatusFilter }, sortKey: 'none' as SortKey, sortDir: 'asc' as SortDir, selectedId: null };

export const useChunks = create<ChunksState>()((set, get) => ({
  ...initial,
  setFilter: (patch) => set({ filter: { ...get().filter, ...patch } }),
  toggleSort: (key) => {
    const s = get();
    if (s.sortKey === key) set({ sortDir: s.sortDir === 'asc' ? 'desc' : 'asc' });
    else set({ sortKey: key, sortDir: key === 'size' ? 'desc' : 'asc' });
  },
  setSort: (sortKey, sortDir) => set({ sortKey, sortDir }),
  select: (selectedId) => set({ selectedId }),
  reset: () => set(initial),
}));

/** Every chunk of every root, in scan order. */
export function flattenChunks(report: StoreReport | null | undefined): ChunkRow[] {
  if (!report) return [];
  const rows: ChunkRow[] = [];
  for (const root of report.roots) {
    for (const stream of root.streams) {
      for (const chunk of stream.chunks) {
        rows.push({ id: `${root.path}::${chunk.path}`, rootPath: root.path, bucket: root.bucket, chunk, mtimeMs: chunk.mtime ? Date.parse(chunk.mtime) : NaN });
      }
    }
  }
  return rows;
}

/** Distinct stream names, for the stream filter. */
export function streamNames(rows: ChunkRow[]): string[] {
  return [...new Set(rows.map((r) => r.chunk.stream))].sort();
}

export function filterAndSort(rows: ChunkRow[], filter: ChunkFilter, sortKey: SortKey, sortDir: SortDir): ChunkRow[] {
  const tag = filter.tag.trim().toLowerCase();
  const damaged = new Set<string>(DAMAGED_CHUNK_STATUSES);
  let out = rows;
  if (filter.stream || tag || filter.status !== 'all') {
    out = rows.filter((r) => {
      const c = r.chunk;
      if (filter.stream && c.stream !== filter.stream) return false;
      if (tag && !(c.tag ?? '').toLowerCase().includes(tag)) return false;
      if (filter.status === 'damaged') return damaged.has(c.status);
      if (filter.status !== 'all' && c.status !== filter.status) return false;
      return true;
    });
  }
  if (sortKey === 'none') return out;
  const sign = sortDir === 'asc' ? 1 : -1;
  const copy = out === rows ? rows.slice() : out;
  if (sortKey === 'size') copy.sort((a, b) => sign * (a.chunk.fileSize - b.chunk.fileSize));
  else {
    // Age: ascending = oldest first. Unknown times go last either way.
    copy.sort((a, b) => {
      const an = Number.isNaN(a.mtimeMs),
        bn = Number.isNaN(b.mtimeMs);
      if (an || bn) return an === bn ? 0 : an ? 1 : -1;
      return sign * (a.mtimeMs - b.mtimeMs);
    });
  }
  return copy;
}
