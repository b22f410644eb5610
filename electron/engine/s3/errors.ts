/** Classify S3 SDK errors so listings can degrade with a clear note instead of failing. */
import { redactSecrets } from './redact';

interface SdkErrorLike {
  name?: string;
  Code?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

function parts(err: unknown): SdkErrorLike {
  return typeof err === 'object' && err !== null ? (err as SdkErrorLike) : { message: String(err) };
}

export function errorCode(err: unknown): string {
  const e = parts(err);
  return e.name && e.name !== 'Error' ? e.name : (e.Code ?? e.code ?? 'Error');
}

export function statusCodeOf(err: unknown): number | null {
  return parts(err).$metadata?.httpStatusCode ?? null;
}

/** 403 / AccessDenied / AllAccessDisabled / a missing permission. */
export function isAccessDenied(err: unknown): boolean {
  const code = errorCode(err);
  return statusCodeOf(err) === 403 || code === 'AccessDenied' || code === 'AllAccessDisabled' || code === 'Forbidden';
}

export function isNoSuchBucket(err: unknown): boolean {
  return errorCode(err) === 'NoSuchBucket' || (statusCodeOf(err) === 404 && /bucket/i.test(parts(err).message ?? ''));
}

/** The request was cancelled: the signal fired, or the error is an abort (`AbortError`, Node's `ABORT_ERR`). */
export function isAbort(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  const e = parts(err);
  return e.name === 'AbortError' || e.code === 'ABORT_ERR';
}

/** One line for notes and errors: code, HTTP status, message. Never includes credentials. */
export function describeS3Error(err: unknown): string {
  const e = parts(err);
  const status = statusCodeOf(err);
  const msg = redactSecrets((e.message ?? '').replace(/\s+/g, ' ').trim());
  const code = errorCode(err);
  return [code, status ? `(HTTP ${status})` : '', msg && msg !== code ? `: ${msg}` : ''].join(' ').replace(/ +:/, ':').trim();
}

/** Error thrown when a listing cannot even start (bucket missing, network down, …). */
export class S3EvidenceError extends Error {
  constructor(
    message: string,
    readonly code: 'not-found' | 'forbidden' | 'failed',
    cause?: unknown,
  ) {
    super(message, { cause });
    this.name = 'S3EvidenceError';
  }
}

export function toEvidenceError(err: unknown, what: string, bucket: string): S3EvidenceError {
  if (isNoSuchBucket(err)) return new S3EvidenceError(`bucket "${bucket}" does not exist (${what})`, 'not-found', err);
  if (isAccessDenied(err)) return new S3EvidenceError(`access denied to bucket "${bucket}" (${what}): ${describeS3Error(err)}`, 'forbidden', err);
  return new S3EvidenceError(`${what} on bucket "${bucket}" failed: ${describeS3Error(err)}`, 'failed', err);
}
