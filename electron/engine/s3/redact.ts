/**
 * Credentials kept out of every message: an S3-compatible server may quote the request's session
 * token or signature back in its error text, in any wording. Three layers —
 * - the values themselves: the credentials the S3 client resolved (remembered here when the SDK
 *   asks for them) and the AWS_* secrets of the environment, replaced wherever they appear;
 * - `name=value` / `name: value` pairs and XML elements whose name says secret;
 * - long token-like runs (80+ base64 characters with a 40+ character stretch of mixed case and
 *   digits between slashes: session tokens are hundreds long), which no key, path or digest holds.
 */

const PAIR =
  /\b(aws_secret_access_key|secret_access_key|secretaccesskey|aws_session_token|session_token|sessiontoken|security_token|securitytoken|password|passwd|token|authorization|x-amz-security-token|signature|x-amz-signature|credential|x-amz-credential)(\s*[=:]\s*|"\s*:\s*")("?)[^\s"&,;<]+/gi;
const XML = /<((?:\w*)(?:Token|Signature|Secret\w*|Credential))>[^<]*<\/\1>/gi;
const KEY_ID = /\b(AKIA|ASIA)[A-Z0-9]{16}\b/g;
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi;
const TOKEN_RUN = /[A-Za-z0-9+/=]{80,}/g;
/** A run is token-like when a part of it between slashes is 40+ characters of mixed case and digits (a path is not; a hex digest has no capitals). */
const tokenLike = (run: string) => run.split('/').some((part) => part.length >= 40 && /[A-Z]/.test(part) && /[a-z]/.test(part) && /\d/.test(part));

const remembered = new Set<string>();
const ENV_SECRETS = ['AWS_SESSION_TOKEN', 'AWS_SECURITY_TOKEN', 'AWS_SECRET_ACCESS_KEY'];
/** Shorter values are not replaced by value (they could be ordinary words); the patterns still apply. */
const MIN_SECRET = 8;

/** Remembers the secret parts of credentials the client resolved, so any echo of them is redacted. */
export function rememberCredentials(c: { secretAccessKey?: string; sessionToken?: string } | null | undefined): void {
  for (const v of [c?.secretAccessKey, c?.sessionToken]) if (typeof v === 'string' && v.length >= MIN_SECRET) remembered.add(v);
}

/** Tests only: forget what was remembered. */
export function forgetSecretsForTest(): void {
  remembered.clear();
}

function knownSecrets(): string[] {
  const env = ENV_SECRETS.map((k) => process.env[k]).filter((v): v is string => typeof v === 'string' && v.length >= MIN_SECRET);
  // longest first: a token that contains another secret is replaced whole
  return [...new Set([...remembered, ...env])].sort((a, b) => b.length - a.length);
}

/** Remove anything that looks like a credential from a message. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const s of knownSecrets()) if (out.includes(s)) out = out.split(s).join('[redacted]');
  out = out.replace(BEARER, 'Bearer [redacted]');
  out = out.replace(XML, (_m, name: string) => `<${name}>[redacted]</${name}>`);
  out = out.replace(PAIR, (m, name: string, sep: string, q: string) => (m.endsWith('[redacted]') ? m : `${name}${sep}${q}[redacted]`));
  out = out.replace(KEY_ID, '[redacted-key-id]');
  out = out.replace(TOKEN_RUN, (run) => (tokenLike(run) ? '[redacted]' : run));
  return out;
}
