/** The chunk open in the Inspector: header, header hex, and the current page of records. */
import { create } from 'zustand';
import type { ChunkInfo, RecordPage } from '../../../shared/model';

export const RECORDS_PAGE_SIZE = 50;

export interface InspectorState {
  target: { rootPath: string; chunkPath: string } | null;
  chunk: ChunkInfo | null;
  headerHex: string | null;
  page: RecordPage | null;
  loading: boolean;
  error: string | null;
  open(target: { rootPath: string; chunkPath: string }): void;
  setHeader(chunk: ChunkInfo, headerHex: string): void;
  setPage(page: RecordPage): void;
  setLoading(loading: boolean): void;
  setError(error: string | null): void;
  clear(): void;
}

export const useInspector = create<InspectorState>()((set) => ({
  target: null,
  chunk: null,
  headerHex: null,
  page: null,
  loading: false,
  error: null,
  open: (target) => set({ target, chunk: null, headerHex: null, page: null, error: null, loading: true }),
  setHeader: (chunk, headerHex) => set({ chunk, headerHex }),
  setPage: (page) => set({ page, loading: false }),
  setLoading: (loading) => set({ loading }),
  setError: (error) => set({ error, loading: false }),
  clear: () => set({ target: null, chunk: null, headerHex: null, page: null, error: null, loading: false }),
}));
