/**
 * Shared CLI plumbing: exit codes that mean something, one error type, JSON printing.
 * Human formatting of each command lives with the command.
 */
import { escapeField, escapeOutput } from '../../shared/escape';
import { writeJson } from './json-stream';

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

/** Progress to stderr, only on a TTY, so `--json` output stays clean. The text is escaped (it names store files). */
export function progressLine(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${escapeField(text)}`);
}

export function clearProgress(): void {
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
}

/**
 * `store-doctor … | head -1`: once the reader of stdout (or stderr) is gone, stop quietly — no
 * EPIPE stack trace — with the exit code the command has set so far (0 until then). Installed once
 * by the entry points (bin/store-doctor.cjs, `tsx electron/cli/main.ts`), not by runCli itself.
 */
export function quietOnBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : EXIT.OK);
    });
  }
}

/** Controller cancelled on Ctrl-C, so long work stops cleanly. */
export function cancelOnSigint(): AbortController {
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort(new Error('cancelled by Ctrl-C')));
  return ac;
}
