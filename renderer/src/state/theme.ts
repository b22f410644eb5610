/** Light/dark preference: `system` follows prefers-color-scheme. */
import { create } from 'zustand';

export type ThemeMode = 'system' | 'light' | 'dark';

export interface ThemeState {
  mode: ThemeMode;
  setMode(mode: ThemeMode): void;
  /** system → light → dark → system */
  cycle(): void;
}

const next: Record<ThemeMode, ThemeMode> = { system: 'light', light: 'dark', dark: 'system' };

export const useTheme = create<ThemeState>()((set, get) => ({
  mode: 'system',
  setMode: (mode) => set({ mode }),
  cycle: () => set({ mode: next[get().mode] }),
}));
