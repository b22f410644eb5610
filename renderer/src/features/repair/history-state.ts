/** The history of applied actions of the open store (engine's history.list). View state only. */
import { create } from 'zustand';
import type { HistoryList } from '../../../../shared/model';

export interface HistoryState {
  list: HistoryList | null;
  loading: boolean;
  error: string | null;
  setList(list: HistoryList): void;
  setLoading(loading: boolean): void;
  setError(error: string | null): void;
  reset(): void;
}

export const useHistory = create<HistoryState>()((set) => ({
  list: null,
  loading: false,
  error: null,
  setList: (list) => set({ list, loading: false, error: null }),
  setLoading: (loading) => set({ loading }),
  setError: (error) => set({ error, loading: false }),
  reset: () => set({ list: null, loading: false, error: null }),
}));
