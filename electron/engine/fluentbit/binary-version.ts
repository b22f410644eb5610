/**
 * The version of a Fluent Bit binary: `<binary> --version` (`Fluent Bit v5.0.9`), run with
 * execFile — no shell, a timeout, a small output cap and a minimal environment (no credentials).
 * The path is untrusted input: it must be an absolute path to a regular, executable file that
 * others cannot write, and never a file inside a store that is open (a store is hostile input:
 * nothing found in one is ever run).
 */
import { execFile } from 'node:child_process';
import { promises as fsp, constants as fsc } from 'node:fs';
import * as path from 'node:path';
import type { FluentBitVersionGiven } from '../../../shared/model';
import { escapeField } from '../../../shared/escape';
import { parseVersionOutput } from './versions';

export class BinaryVersionError extends Error {
  constructor(
    message: string,
    /** `invalid`: the path is not something we run; `failed`: running it did not give a version. */
    readonly kind: 'invalid' | 'failed',
  ) {
    super(message);
    this.name = 'BinaryVersionError';
  }
}

export interface BinaryVersionOptions {
  /** Is this path inside an opened store? (checked on the path as given and on its real path) */
  insideStore?: (p: string) => boolean;
  timeoutMs?: number;
}

const MAX_OUTPUT = 64 * 1024;

/** Check the binary, run `--version`, parse it. Throws {@link BinaryVersionError}. */
export async function versionFromBinary(binary: string, opts: BinaryVersionOptions = {}): Promise<FluentBitVersionGiven> {
  const shown = escapeField(binary);
  const bad = (why: string) => new BinaryVersionError(`${shown}: ${why}`, 'invalid');
  if (!path.isAbsolute(binary)) throw bad('give the absolute path of the Fluent Bit binary');
  let real: string;
  try {
    real = await fsp.realpath(binary);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw bad(code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (err as Error).message);
  }
  if (opts.insideStore?.(binary) || opts.insideStore?.(real))
    throw bad('is inside an opened store: Store Doctor never runs a file found in a store (stores are untrusted input)');
  const st = await fsp.stat(real);
  if (!st.isFile()) throw bad('not a regular file');
  if ((st.mode & 0o111) === 0) throw bad('not executable');
  if (st.mode & 0o002) throw bad(`writable by every user (mode ${(st.mode & 0o7777).toString(8)}): not run`);
  try {
    await fsp.access(real, fsc.X_OK);
  } catch {
    throw bad('not executable by this user');
  }
  const { stdout, stderr } = await run(real, opts.timeoutMs ?? 10_000, shown);
  const version = parseVersionOutput(stdout);
  if (!version) {
    const first = (stdout || stderr).split('\n')[0]?.slice(0, 200) ?? '';
    throw new BinaryVersionError(`${shown} --version printed ${first ? JSON.stringify(escapeField(first)) : 'nothing'}, not "Fluent Bit v<x.y.z>"`, 'failed');
  }
  const line = stdout.split('\n').find((l) => l.startsWith('Fluent Bit v')) ?? `Fluent Bit v${version}`;
  return {
    source: 'binary',
    version,
    evidence: [`${real === binary ? shown : `${shown} (${escapeField(real)})`} --version printed "${escapeField(line.trim())}"`],
  };
}

function run(file: string, timeoutMs: number, shown: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      ['--version'],
      {
        shell: false,
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: MAX_OUTPUT,
        env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' },
        windowsHide: true,
      },
      (err, stdout, stderr) => {
        if (err) {
          const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null; code?: unknown };
          const why = e.killed
            ? `did not answer within ${timeoutMs} ms (killed)`
            : typeof e.code === 'number'
              ? `exited with ${e.code}`
              : e.signal
                ? `ended by ${e.signal}`
                : e.message;
          // a version on stdout is still a version (some builds exit non-zero after printing it)
          if (!e.killed && parseVersionOutput(String(stdout))) return resolve({ stdout: String(stdout), stderr: String(stderr) });
          return reject(new BinaryVersionError(`${shown} --version ${why}`, 'failed'));
        }
        resolve({ stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}
