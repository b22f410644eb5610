/**
 * Shared CLI plumbing: exit codes that mean something, one error type, JSON printing.
 * Human formatting of each command lives with the command.
 */
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

/** Streams large values (a scan of a big store) as JSON to stdout without one giant string. */
export function printJsonStream(value: unknown): Promise<void> {
  return writeJson(process.stdout, value);
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** Progress to stderr, only on a TTY, so `--json` output stays clean. */
export function progressLine(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`);
}

export function clearProgress(): void {
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
}

/** Controller cancelled on Ctrl-C, so long work stops cleanly. */
export function cancelOnSigint(): AbortController {
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort(new Error('cancelled by Ctrl-C')));
  return ac;
}
