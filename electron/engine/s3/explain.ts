/**
 * AWS SDK and network errors as one sentence an operator can act on ("No AWS credentials were
 * found…", "Nothing answers at http://…: connection refused"), instead of the SDK's own text
 * ("Could not load credentials from any providers", `connect ECONNREFUSED …`). The callers add
 * what was and was not changed. Never includes a secret.
 */
import { describeS3Error, errorCode, statusCodeOf } from './errors';

export interface ExplainContext {
  bucket: string;
  /** The endpoint the request went to, as shown to the user. */
  endpoint: string;
  region?: string | null;
  /** Where the credentials come from, when known. */
  credentials?: string | null;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|EPROTO/;

/** The errno-style code of an error, looking into `cause` and AggregateError's `errors` (Node's happy eyeballs). */
function sysCode(err: unknown, depth = 0): string | null {
  if (!err || typeof err !== 'object' || depth > 3) return null;
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || TLS_CODES.test(e.code))) return e.code;
  if (Array.isArray(e.errors)) for (const x of e.errors) if (sysCode(x, depth + 1)) return sysCode(x, depth + 1);
  return sysCode(e.cause, depth + 1);
}

/** An error of the AWS SDK, its credential chain, or the network under it. */
export function isS3Failure(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { $metadata?: unknown; name?: string; message?: string };
  return (
    e.$metadata !== undefined ||
    e.name === 'CredentialsProviderError' ||
    e.name === 'TimeoutError' ||
    e.name === 'S3EvidenceError' ||
    /Could not load credentials|Region is missing/i.test(e.message ?? '') ||
    sysCode(err) !== null
  );
}

export function explainS3Error(err: unknown, ctx: ExplainContext): string {
  const e = (err ?? {}) as { name?: string; message?: string };
  const message = e.message ?? String(err);
  const code = errorCode(err);
  const status = statusCodeOf(err);
  const sys = sysCode(err);
  const creds = ctx.credentials ? ` (credentials: ${ctx.credentials})` : '';
  if (e.name === 'CredentialsProviderError' || /Could not load credentials/i.test(message))
    return `No AWS credentials were found on the machine running Store Doctor: the environment, the profile, SSO, web identity and instance metadata were tried (${message.replace(/\s+/g, ' ').slice(0, 200)}). Set a profile or credentials, then try again.`;
  if (sys === 'ECONNREFUSED') return `Nothing answers at ${ctx.endpoint} (connection refused): check the endpoint and that the S3 server is running.`;
  if (sys === 'ENOTFOUND' || sys === 'EAI_AGAIN') return `The host of ${ctx.endpoint} cannot be found (DNS ${sys}): check the endpoint.`;
  if (sys === 'ETIMEDOUT' || sys === 'EHOSTUNREACH' || sys === 'ENETUNREACH' || e.name === 'TimeoutError' || code === 'RequestTimeout')
    return `${ctx.endpoint} did not answer in time (${sys ?? e.name ?? code}): check the endpoint, the network and any proxy.`;
  if (sys === 'ECONNRESET' || sys === 'EPIPE') return `${ctx.endpoint} closed the connection (${sys}): is it an S3 endpoint, and is http/https right?`;
  if (sys && TLS_CODES.test(sys)) return `The TLS certificate of ${ctx.endpoint} is not trusted (${sys}): use the right https endpoint or install its CA.`;
  if (code === 'InvalidAccessKeyId') return `The access key is not known to ${ctx.endpoint}${creds}: use credentials of this S3 service.`;
  if (code === 'SignatureDoesNotMatch') return `The secret key does not match the access key${creds}, or the region is wrong (${ctx.region ?? 'default'}).`;
  if (code === 'PermanentRedirect' || code === 'AuthorizationHeaderMalformed' || status === 301)
    return `Bucket ${ctx.bucket} is in another region than ${ctx.region ?? 'the one used'}: set the region of the bucket.`;
  if (code === 'NoSuchBucket' || code === 'NotFound' || status === 404) return `Bucket ${ctx.bucket} does not exist at ${ctx.endpoint}.`;
  if (code === 'AccessDenied' || code === 'Forbidden' || code === 'AllAccessDisabled' || status === 403)
    return `Access to bucket ${ctx.bucket} at ${ctx.endpoint} was denied${creds}: the credentials lack the permission, or the bucket belongs to another account.`;
  // Our own listing error (already a sentence: "cannot list bucket …", with the SDK's code inside).
  if (e.name === 'S3EvidenceError') return sentence(`${message.charAt(0).toUpperCase()}${message.slice(1)}`);
  return sentence(`The request to bucket ${ctx.bucket} at ${ctx.endpoint} failed: ${describeS3Error(err)}`);
}

const sentence = (t: string) => (/[.!?]$/.test(t) ? t : `${t}.`);
