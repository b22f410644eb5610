/** The chunk open in the Inspector: header, its annotated bytes, the current page of records and the records search. */
import { create } from 'zustand';
import type { ChunkInfo, ChunkLayoutField, RecordPage } from '../../../shared/model';

export const RECORDS_PAGE_SIZE = 200;

export interface InspectorState {
  target: { rootPath: string; chunkPath: string } | null;
  chunk: ChunkInfo | null;
  headerHex: string | null;
  layout: ChunkLayoutField[];
  page: RecordPage | null;
  /** Text searched in the records of the page. */
  search: string;
  loading: boolean;
  error: string | null;
  open(target: { rootPath: string; chunkPath: string }): void;
  setHeader(chunk: ChunkInfo, headerHex: string, layout: ChunkLayoutField[]): void;
  setSearch(search: string): void;
  setPage(page: RecordPage): void;
  setLoading(loading: boolean): void;
  setError(error: string | null): void;
  clear(): void;
}

export const useInspector = create<InspectorState>()((set) => ({
  target: null,
  chunk: null,
  headerHex: null,
  layout: [],
  page: null,
  search: '',
  loading: false,
  error: null,
  open: (target) => set({ target, chunk: null, headerHex: null, layout: [], page: null, error: null, loading: true }),
  setHeader: (chunk, headerHex, layout) => set({ chunk, headerHex, layout }),
  setSearch: (search) => set({ search }),
  setPage: (page) => set({ page, loading: false }),
  setLoading: (loading) => set({ loading }),
  setError: (error) => set({ error, loading: false }),
  clear: () => set({ target: null, chunk: null, headerHex: null, layout: [], page: null, error: null, loading: false, search: '' }),
}));
