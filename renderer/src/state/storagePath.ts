/** The storage.path (Fluent Bit engine buffer) shown read-only on the Open view, and its salvage plan under review. */
import { create } from 'zustand';
import type { RepairPlan, RepairResult, StoragePathReport } from '../../../shared/model';

export interface StoragePathState {
  report: StoragePathReport | null;
  plan: RepairPlan | null;
  result: RepairResult | null;
  error: string | null;
  busy: boolean;
  set(patch: Partial<Omit<StoragePathState, 'set' | 'clear'>>): void;
  clear(): void;
}

export const useStoragePath = create<StoragePathState>()((set) => ({
  report: null,
  plan: null,
  result: null,
  error: null,
  busy: false,
  set: (patch) => set(patch),
  clear: () => set({ report: null, plan: null, result: null, error: null, busy: false }),
}));
