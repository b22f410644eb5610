/**
 * Shared CLI plumbing: exit codes that mean something, one error type, JSON printing.
 * Human formatting of each command lives with the command.
 */
import { escapeField, escapeOutput } from '../../shared/escape';
import { writeJson } from './json-stream';
import { endProgress, outputSettings } from './progress';

export const EXIT = {
  OK: 0,
  /** A command failed in a way that is not the user's input (S3 error, write failed). */
  FAILED: 1,
  /** Bad usage or unreadable input. */
  USAGE: 2,
  /** scan: some chunks are damaged. */
  DAMAGED: 3,
  /** diagnose: a critical or error finding. */
  FINDINGS: 4,
  /** repair: refused (Fluent Bit running, below safe index, read-only source…) without --force. */
  REFUSED: 5,
  /** multipart: uploads (or records) left unsettled — nothing, or not everything, was done. */
  UNSETTLED: 6,
  /** diagnose: no critical or error finding, but a root's index state is unknown (no config): not an all-clear. */
  INCOMPLETE: 7,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.USAGE,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

let jsonPrinted = false;

/** Whether a JSON document went to stdout in this run (so an error adds none: one document only). */
export function jsonWasPrinted(): boolean {
  return jsonPrinted;
}

export function resetJsonPrinted(): void {
  jsonPrinted = false;
}

/** Streams large values (a scan of a big store) as JSON to stdout without one giant string. */
export function printJsonStream(value: unknown): Promise<void> {
  jsonPrinted = true;
  return writeJson(process.stdout, value);
}

export function printJson(value: unknown): void {
  jsonPrinted = true;
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/**
 * Whether the command line asks for JSON on stdout: `--json`, or `report --format json` without
 * `--out`. Read from argv (not the parsed options) so it also holds when parsing itself fails.
 */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  if (args.includes('--json')) return true;
  const hasOut = args.some((a) => a === '--out' || a.startsWith('--out='));
  const fmt = args.findIndex((a) => a === '--format');
  const format = fmt !== -1 ? args[fmt + 1] : args.find((a) => a.startsWith('--format='))?.slice('--format='.length);
  return format === 'json' && !hasOut;
}

let lineShown = false;

/**
 * Human text to stdout (or stderr). Fields from the store are escaped where they are formatted
 * (shared/escape.ts `escapeField`); this escapes any control character left, keeping line breaks.
 */
export function printText(text: string, stream: NodeJS.WriteStream = process.stdout): void {
  stream.write(escapeOutput(text));
}

/** One `store-doctor: …` line on stderr; the message is one field (its newlines are escaped too). */
export function printError(message: string): void {
  process.stderr.write(`store-doctor: ${escapeField(message)}\n`);
}

/** A one-line progress text on stderr, only on a TTY and without --quiet, so `--json` output stays clean; escaped (it names store files). Bars: ./progress.ts. */
export function progressLine(text: string): void {
  if (process.stderr.isTTY && !outputSettings().quiet) {
    process.stderr.write(`\r\x1b[K${escapeField(text)}`);
    lineShown = true;
  }
}

/** The work is over: clears a progress line, and ends a progress bar with its summary line. */
export function clearProgress(): void {
  if (lineShown) process.stderr.write('\r\x1b[K');
  lineShown = false;
  endProgress();
}

/** Controller cancelled on Ctrl-C, so long work stops cleanly. */
export function cancelOnSigint(): AbortController {
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort(new Error('cancelled by Ctrl-C')));
  return ac;
}
