/**
 * The figures a progress display shows (CLI bar and summary, the app's task bar): count, bytes,
 * rate and ETA from one progress event and the seconds since the task started. Pure.
 */
import type { Progress } from './model';
import { formatBytes } from './format';

const UNITS: Record<string, [string, string]> = {
  scan: ['file', 'files'],
  list: ['listing', 'listings'],
  replay: ['chunk', 'chunks'],
};

export function taskCount(task: string, n: number): string {
  const [one, many] = UNITS[task] ?? ['item', 'items'];
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

export function seconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 120) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  return m < 120 ? `${m} min ${Math.round(s - m * 60)} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** The figures one progress event shows; `elapsed` in seconds. Pure, for the bar and the tests. */
export function progressFigures(p: Progress, elapsed: number) {
  const byBytes = p.totalBytes != null && p.totalBytes > 0 && p.bytes != null;
  const value = byBytes ? p.bytes! : p.done;
  const total = byBytes ? p.totalBytes! : p.total;
  const fraction = total ? Math.min(1, value / total) : null;
  const rate = elapsed > 0 ? value / elapsed : null;
  const eta = fraction !== null && rate ? (total! - value) / rate : null;
  const count = p.total !== null && p.total !== undefined ? `${p.done.toLocaleString('en-US')}/${taskCount(p.task, p.total)}` : taskCount(p.task, p.done);
  const bytes = p.bytes != null ? (byBytes ? `${formatBytes(p.bytes)}/${formatBytes(p.totalBytes)}` : formatBytes(p.bytes)) : null;
  const rateText =
    rate === null ? null : byBytes || p.bytes != null ? `${formatBytes(Math.round(elapsed > 0 ? (p.bytes ?? 0) / elapsed : 0))}/s` : `${rate.toFixed(1)}/s`;
  return { fraction, count, bytes, rate: rateText, eta: eta === null ? null : seconds(eta) };
}
