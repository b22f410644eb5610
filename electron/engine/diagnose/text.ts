/** Small text helpers for findings: index ranges, lists with a cap, ISO times, plurals. */
import { formatBytes, plural } from '../../../shared/format';

export { plural };

/** `[0,1,2,3,7,9,10]` → `0–3, 7, 9–10`. */
export function indexRanges(values: number[]): string {
  const v = [...new Set(values)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < v.length;) {
    let j = i;
    while (j + 1 < v.length && v[j + 1] === v[j] + 1) j++;
    out.push(i === j ? String(v[i]) : `${v[i]}–${v[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/** At most `max` lines, then "… and N more". */
export function capped(lines: string[], max = 20): string[] {
  if (lines.length <= max) return lines;
  return [...lines.slice(0, max), `… and ${lines.length - max} more`];
}

export function isoOrNull(s: string | null | undefined): string | null {
  if (!s) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** 1.2 MB, 3.4 kB, 12 B. */
/** One unit system in every door: binary units, as the scan and the app show sizes. */
export function sizeText(n: number): string {
  return formatBytes(n);
}
