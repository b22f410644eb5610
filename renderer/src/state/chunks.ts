/**
 * Chunks table view state: filters (stream, tag, status, a finding's chunks, record time), sort
 * on any column, selection. The rows themselves are the engine's ChunkInfo, as columns in
 * ./chunk-index.ts.
 */
import { create } from 'zustand';
import { EMPTY_FILTER, type ChunkFilter, type SortDir, type SortKey } from './chunk-index';

export * from './chunk-index';

export interface ChunksState {
  filter: ChunkFilter;
  sortKey: SortKey;
  sortDir: SortDir;
  selectedId: string | null;
  setFilter(patch: Partial<ChunkFilter>): void;
  /** Clicking the same key flips the direction; a new key starts with oldest / largest / A first. */
  toggleSort(key: Exclude<SortKey, 'none'>): void;
  setSort(key: SortKey, dir: SortDir): void;
  select(id: string | null): void;
  /** Show only a finding's chunks (other filters cleared). */
  showOnly(label: string, chunkPaths: string[], rootPath: string | null): void;
  reset(): void;
}

const FIRST_DIR: Record<Exclude<SortKey, 'none'>, SortDir> = {
  stream: 'asc',
  file: 'asc',
  tag: 'asc',
  status: 'asc',
  size: 'desc',
  records: 'desc',
  age: 'asc',
};

const initial = { filter: EMPTY_FILTER, sortKey: 'none' as SortKey, sortDir: 'asc' as SortDir, selectedId: null };

export const useChunks = create<ChunksState>()((set, get) => ({
  ...initial,
  setFilter: (patch) => set({ filter: { ...get().filter, ...patch } }),
  toggleSort: (key) => {
    const s = get();
    if (s.sortKey === key) set({ sortDir: s.sortDir === 'asc' ? 'desc' : 'asc' });
    else set({ sortKey: key, sortDir: FIRST_DIR[key] });
  },
  setSort: (sortKey, sortDir) => set({ sortKey, sortDir }),
  select: (selectedId) => set({ selectedId }),
  showOnly: (label, chunkPaths, rootPath) => set({ filter: { ...EMPTY_FILTER, paths: { label, chunkPaths, rootPath } }, sortKey: 'none' }),
  reset: () => set(initial),
}));
