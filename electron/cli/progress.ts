/**
 * Progress of long work (scan, listing, replay) on stderr: on a terminal a bar with count,
 * bytes, rate and ETA, replaced by one summary line per task when it ends; on a pipe nothing at
 * all (scripts read stdout and the exit code). `--quiet` shows nothing; `--no-color` or
 * `NO_COLOR` drop the colors. The engine's `onProgress` events feed {@link showProgress}; the
 * command calls {@link endProgress} when its work is done (also when it failed).
 *
 * Rendering (throttling, line clearing, width) is cli-progress, loaded with the first bar.
 */
import { escapeField } from '../../shared/escape';
import type { SingleBar } from 'cli-progress';
import type { Progress } from '../../shared/model';
import { formatBytes } from '../../shared/format';
import { taskCount, progressFigures, seconds } from '../../shared/progress';

export { progressFigures } from '../../shared/progress';

export interface OutputSettings {
  quiet: boolean;
  color: boolean;
}

/** What a progress display writes to (stderr; a fake terminal in tests). */
export type ProgressStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

const paint = (on: boolean, code: string, text: string) => (on ? `\x1b[${code}m${text}\x1b[0m` : text);

/** The one line a finished task leaves: `scan: 12 files, 1.1 MiB in 0.3 s (3.4 MiB/s)`. */
export function summaryLine(p: Progress, elapsed: number, color = false): string {
  const f = progressFigures(p, elapsed);
  const what = [taskCount(p.task, p.done), ...(p.bytes != null ? [formatBytes(p.bytes)] : [])].join(', ');
  return `${paint(color, '32', '✓')} ${p.task}: ${what} in ${seconds(elapsed)}${f.rate && elapsed >= 0.05 ? ` (${f.rate})` : ''}`;
}

function barLine(p: Progress, elapsed: number, color: boolean): string {
  const f = progressFigures(p, elapsed);
  const size = 24;
  const bar =
    f.fraction === null
      ? ''
      : `${paint(color, '36', '█'.repeat(Math.round(f.fraction * size)))}${'░'.repeat(size - Math.round(f.fraction * size))} ${String(Math.floor(f.fraction * 100)).padStart(3)}% | `;
  const parts = [f.count, f.bytes, f.rate, f.eta !== null ? `ETA ${f.eta}` : null].filter(Boolean);
  const line = `${paint(color, '1', p.task)} ${bar}${parts.join(' | ')}`;
  // cli-progress cuts the line to the terminal width: the current item goes last, so it is what is cut
  return p.current ? `${line}  ${escapeField(p.current)}` : line; // a store's file name: escaped
}

let settings: OutputSettings = { quiet: false, color: true };

/** From the global options (`--quiet`, `--no-color`); `NO_COLOR` (any value) turns colors off too. */
export function setOutputSettings(s: Partial<OutputSettings>): void {
  settings = { ...settings, ...s };
}

export function outputSettings(): OutputSettings {
  return { ...settings };
}

/** Colors only on a terminal, and never with `--no-color` or `NO_COLOR`. */
export function colorOn(stream: ProgressStream): boolean {
  return settings.color && !process.env.NO_COLOR && stream.isTTY === true;
}

interface Active {
  task: string;
  started: number;
  last: Progress;
  bar: SingleBar;
  stream: ProgressStream;
}

let active: Active | null = null;
let clock: () => number = () => performance.now();

/** Tests: a fake clock (milliseconds). */
export function setProgressClock(now: () => number): void {
  clock = now;
}

function elapsedOf(a: Active): number {
  return Math.max(0, (clock() - a.started) / 1000);
}

function start(p: Progress, stream: ProgressStream): Active {
  const { SingleBar } = require('cli-progress') as typeof import('cli-progress');
  const color = colorOn(stream);
  const a: Active = { task: p.task, started: clock(), last: p, stream, bar: null as never };
  a.bar = new SingleBar({
    stream,
    fps: 10,
    clearOnComplete: true,
    hideCursor: false,
    linewrap: false,
    format: () => barLine(a.last, elapsedOf(a), color),
  });
  a.bar.start(1, 0);
  return a;
}

/** One progress event from the engine. Draws only on a terminal and without --quiet. */
export function showProgress(p: Progress, stream: ProgressStream = process.stderr): void {
  if (settings.quiet || stream.isTTY !== true) return;
  if (active && (active.task !== p.task || active.stream !== stream)) endProgress();
  active ??= start(p, stream);
  active.last = p;
  active.bar.update(0);
}

/** The work is over: the bar goes, its summary line stays. Safe to call when nothing was shown. */
export function endProgress(): void {
  const a = active;
  if (!a) return;
  active = null;
  a.bar.stop();
  a.stream.write(`${summaryLine(a.last, elapsedOf(a), colorOn(a.stream))}\n`);
}

// A command that throws past its `finally` must not leave a bar (or its timer) behind.
process.once('exit', () => {
  if (active) active.bar.stop();
});
