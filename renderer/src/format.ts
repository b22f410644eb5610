/** Display formatting only (bytes, times, hex): no domain facts are computed here. */

import { escapeField } from '../../shared/escape';

export { formatBytes } from '../../shared/format';

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z')
    .replace(/Z$/, ' UTC');
}

/** The same instant in the viewer's local time zone (shown on hover next to the ISO UTC time). */
export function localTime(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  const off = -d.getTimezoneOffset();
  const zone = `${off >= 0 ? '+' : '-'}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${zone}`;
}

export function formatAge(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 90) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m} min`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h`;
  return `${Math.round(h / 24)} d`;
}

export function formatCount(n: number | null | undefined): string {
  return n == null ? '—' : n.toLocaleString('en-US');
}

/** Hex text (any spacing) → rows of 16 bytes: offset, hex, ASCII. */
export function hexRows(hex: string): { offset: string; hex: string; ascii: string }[] {
  const clean = hex.replace(/[^0-9a-fA-F]/g, '');
  const bytes: number[] = [];
  for (let i = 0; i + 1 < clean.length; i += 2) bytes.push(parseInt(clean.slice(i, i + 2), 16));
  const rows: { offset: string; hex: string; ascii: string }[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    const slice = bytes.slice(i, i + 16);
    rows.push({
      offset: i.toString(16).padStart(8, '0'),
      hex: slice.map((b) => b.toString(16).padStart(2, '0')).join(' '),
      ascii: slice.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join(''),
    });
  }
  return rows;
}

/** Split a sentence on `backtick` spans (the engine writes commands that way): odd parts are code. */
export function codeSpans(text: string): { text: string; code: boolean }[] {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return [{ text, code: false }]; // unbalanced: show as written
  return parts.map((t, i) => ({ text: t, code: i % 2 === 1 })).filter((p) => p.text !== '');
}

/** The safe next index as the app shows it: the value, or why it is unknown and what it is at least. */
export function safeIndexText(o: { safeNextIndex: number | null; lowerBoundNextIndex: number; lowerBoundNextIndexText?: string }): string {
  return o.safeNextIndex !== null ? String(o.safeNextIndex) : `unknown (at least ${o.lowerBoundNextIndexText ?? o.lowerBoundNextIndex})`;
}

/**
 * Text from a store (a name, a tag, a key, a path, an engine sentence quoting them) as shown: C0/C1
 * controls and the bidirectional overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069…)
 * written as visible escapes (`\u{202e}`), so a name cannot reorder what the reader sees.
 */
export function shown(text: string | null | undefined): string {
  return escapeField(text ?? '');
}
