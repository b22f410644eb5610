/** The Guard panel's view state: the last status of the open store's guard (engine's guard.status). */
import { create } from 'zustand';
import type { GuardStatus } from '../../../../shared/guard-status';

export interface GuardViewState {
  status: GuardStatus | null;
  busy: boolean;
  error: string | null;
  set(patch: Partial<Pick<GuardViewState, 'status' | 'busy' | 'error'>>): void;
}

export const useGuard = create<GuardViewState>()((set) => ({
  status: null,
  busy: false,
  error: null,
  set: (patch) => set(patch),
}));
