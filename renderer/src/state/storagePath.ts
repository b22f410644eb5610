/**
 * The storage.path (Fluent Bit engine buffer) opened alone: shown on the Open view with its salvage
 * plan under review, and in the Overview, Chunks and Inspector views (STORAGE_PATH_VIEWS).
 */
import { create } from 'zustand';
import type { RepairPlan, RepairResult, StoragePathReport } from '../../../shared/model';

export interface StoragePathState {
  report: StoragePathReport | null;
  plan: RepairPlan | null;
  result: RepairResult | null;
  error: string | null;
  busy: boolean;
  /** The chunk open in the Inspector (its path relative to the storage.path, `dummy.0/…flb`). */
  selected: string | null;
  set(patch: Partial<Omit<StoragePathState, 'set' | 'clear'>>): void;
  clear(): void;
}

export const useStoragePath = create<StoragePathState>()((set) => ({
  report: null,
  plan: null,
  result: null,
  error: null,
  busy: false,
  selected: null,
  set: (patch) => set(patch),
  clear: () => set({ report: null, plan: null, result: null, error: null, busy: false, selected: null }),
}));

/** The views that show a storage.path opened alone (no store open). */
export const STORAGE_PATH_VIEWS: ReadonlySet<string> = new Set(['overview', 'chunks', 'inspector']);
