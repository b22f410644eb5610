/**
 * The Chunks view's salvage: one write flow like every other (plan → review → apply → result →
 * undo), and what it is about — the folder the session plans on (a storage.path, or a store_dir's
 * bucket root) and the chunk named (an absolute path).
 */
import { create } from 'zustand';
import { createPlanFlow } from '../repair/state';

export const useSalvage = createPlanFlow('salvage');

export interface SalvageTarget {
  /** The folder given to storagePath.salvagePlan: the storage.path, or the bucket root. */
  path: string;
  /** The chunk file (absolute). */
  chunk: string;
  layout: 'storage-path' | 'store-dir';
}

export const useSalvageTarget = create<{ target: SalvageTarget | null; set(target: SalvageTarget | null): void }>()((set) => ({
  target: null,
  set: (target) => set({ target }),
}));

/** Nothing under review (a store or a storage.path opened, a store closed). */
export function resetSalvage(): void {
  useSalvage.getState().reset();
  useSalvageTarget.getState().set(null);
}
