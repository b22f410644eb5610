/**
 * Errors as the doors send them: a `ContractError` with a code, one readable sentence and the
 * file it is about. Never a stack trace, never a secret.
 */
import path from 'node:path';
import type { ContractError } from '../../../shared/contract';
import { escapeField } from '../../../shared/escape';
import { isAbort } from '../s3';
import { redactSecrets } from '../s3/redact';
import { EngineError } from '../engine-error';

type Code = ContractError['code'];
/** Engine errors that mean "the file or value you gave is not usable". */
const INPUT_ERRORS = new Set(['ConfigError', 'OfflineEvidenceError', 'DiagnoseInputError', 'ActionInputError', 'StoreError']);
const CODES: readonly Code[] = ['invalid-input', 'not-found', 'forbidden', 'refused', 'cancelled', 'failed'];

/** Thrown by the session layer (and any engine folder) when it knows exactly what went wrong. */
export { EngineError };

export { redactSecrets };

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim().length > 0) ?? text;
  // Never leak a stack frame even when a library put one in the message.
  return line.replace(/\s+at\s+\S+\s+\(.*\)$/, '').trim();
}

function clip(text: string, max = 600): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Map anything thrown inside a request to a ContractError. */
export function toContractError(err: unknown, opts: { signal?: AbortSignal; request?: string } = {}): ContractError {
  if (isAbort(err, opts.signal)) return { code: 'cancelled', message: 'cancelled' + (opts.request ? `: ${opts.request} was stopped` : '') };
  const e = (err ?? {}) as { message?: unknown; code?: unknown; file?: unknown; path?: unknown; syscall?: unknown };
  const rawMessage = typeof e.message === 'string' && e.message ? e.message : String(err);
  const fileRaw = typeof e.file === 'string' ? e.file : typeof e.path === 'string' ? e.path : undefined;
  const file = fileRaw ? redactSecrets(fileRaw) : undefined;
  const base = file ? path.basename(file) : undefined;
  let code: Code = 'failed';
  let message = clip(redactSecrets(firstLine(rawMessage)));
  // Node's own messages ("ENOENT: no such file or directory, open '/x'") get a plain sentence;
  // errors from the engine already have one.
  const raw = typeof e.code === 'string' && message.startsWith(`${e.code}:`);
  if ((err as Error)?.name === 'S3EvidenceError') {
    code = 'failed'; // the bucket answered with an error: not a problem of the request itself
  } else if (typeof e.code === 'string' && (CODES as readonly string[]).includes(e.code)) {
    code = e.code as Code;
  } else if ((err as Error)?.name === 'RefusedError') {
    code = 'refused';
  } else if (INPUT_ERRORS.has((err as Error)?.name)) {
    code = 'invalid-input';
  } else if (e.code === 'ENOENT' || e.code === 'ENOTDIR') {
    code = 'not-found';
    if (raw) message = `${base ?? 'file'}: no such file or directory`;
  } else if (e.code === 'EACCES' || e.code === 'EPERM') {
    if (raw) message = `${base ?? 'file'}: permission denied`;
  } else if (e.code === 'EISDIR') {
    if (raw) message = `${base ?? 'path'}: is a directory, expected a file`;
  }
  if (base && !message.includes(base) && !message.includes(escapeField(base))) message = `${escapeField(base)}: ${message}`;
  return file ? { code, message, file } : { code, message };
}
