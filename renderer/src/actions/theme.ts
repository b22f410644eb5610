/** Theme persistence (localStorage) and application (`data-theme` on <html>). */
import { useTheme, type ThemeMode } from '../state/theme';

const KEY = 'store-doctor.theme';

export function loadTheme(): void {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved === 'light' || saved === 'dark' || saved === 'system') useTheme.getState().setMode(saved);
  } catch {
    /* storage unavailable: stay on system */
  }
}

export function applyTheme(mode: ThemeMode): void {
  const root = document.documentElement;
  if (mode === 'system') delete root.dataset.theme;
  else root.dataset.theme = mode;
  try {
    localStorage.setItem(KEY, mode);
  } catch {
    /* ignore */
  }
}
