/**
 * An S3 client the way Store Doctor needs it: AWS default credential chain (env, SSO cache,
 * profiles, web identity, container/instance metadata) unless credentials are given, optional
 * profile/region/endpoint/path-style, checksums only when required (S3-compatible stores reject
 * aws-chunked trailers), and request timeouts that really throw.
 *
 * Secrets never leave this module: `describeConnection()` is what may be shown or logged.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@aws-sdk/types';
import type { S3ConnectionOptions, S3OutputSettings } from '../../../shared/model';
import { awsConfigLoader, awsCredentials, awsS3 } from './sdk';
import { rememberCredentials } from './redact';

export const DEFAULT_REGION = 'us-east-1';

export interface CreateS3ClientOptions extends S3ConnectionOptions {
  /** Explicit credentials (tests, the other doors); default: the AWS default chain for `profile`. */
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** Per-request timeout; a stalled server makes the request fail instead of hanging. Default 30 s. */
  requestTimeoutMs?: number;
  /** Connect timeout. Default 5 s. */
  connectionTimeoutMs?: number;
  /** Attempts per request including retries (SDK standard retry). Default 3. */
  maxAttempts?: number;
}

/** Region: explicit, else AWS_REGION / AWS_DEFAULT_REGION, else the profile's `region`, else us-east-1. */
export function regionProvider(opts: S3ConnectionOptions): () => Promise<string> {
  return async () => {
    if (opts.region) return opts.region;
    const fromEnv = process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION;
    if (fromEnv) return fromEnv;
    const { loadConfig, NODE_REGION_CONFIG_FILE_OPTIONS, NODE_REGION_CONFIG_OPTIONS } = awsConfigLoader();
    try {
      const region = await loadConfig(NODE_REGION_CONFIG_OPTIONS, { ...NODE_REGION_CONFIG_FILE_OPTIONS, profile: opts.profile })();
      if (region) return region;
    } catch {
      // no region configured anywhere
    }
    return DEFAULT_REGION;
  };
}

/** The credentials as given, their secret parts remembered for redaction (./redact.ts) once resolved. */
function remembering(c: AwsCredentialIdentity | AwsCredentialIdentityProvider): AwsCredentialIdentity | AwsCredentialIdentityProvider {
  if (typeof c !== 'function') {
    rememberCredentials(c);
    return c;
  }
  return async (...args: Parameters<AwsCredentialIdentityProvider>) => {
    const resolved = await c(...args);
    rememberCredentials(resolved);
    return resolved;
  };
}

export function createS3Client(opts: CreateS3ClientOptions = {}): S3Client {
  const endpoint = opts.endpoint?.trim() || undefined;
  if (endpoint && !/^https?:\/\/[^/]+/i.test(endpoint)) {
    throw new Error(`S3 endpoint "${endpoint}" is not a URL: give it as http://host:port or https://host`);
  }
  const requestTimeout = opts.requestTimeoutMs ?? 30_000;
  const { S3Client } = awsS3();
  const { fromNodeProviderChain } = awsCredentials();
  return new S3Client({
    region: regionProvider(opts),
    ...(opts.profile ? { profile: opts.profile } : {}),
    credentials: remembering(opts.credentials ?? fromNodeProviderChain(opts.profile ? { profile: opts.profile } : {})),
    endpoint,
    // Fluent Bit always sends path-style requests; S3-compatible endpoints usually need it too.
    forcePathStyle: opts.pathStyle ?? !!endpoint,
    // Real AWS answers 301 for a bucket in another region: follow it (not needed for endpoints).
    followRegionRedirects: !endpoint,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: opts.maxAttempts ?? 3,
    requestHandler: {
      requestTimeout,
      connectionTimeout: opts.connectionTimeoutMs ?? 5_000,
      throwOnRequestTimeout: true,
    },
  });
}

/**
 * The one rule for what a request's connection means for an output: each field given in the
 * request wins, else the output's own setting (profile, region, endpoint); path-style addressing
 * when asked, else whenever there is an endpoint (Fluent Bit always sends path-style requests).
 */
export function resolveConnection(output: S3OutputSettings | null, conn: S3ConnectionOptions = {}): S3ConnectionOptions {
  const endpoint = conn.endpoint ?? output?.endpoint ?? undefined;
  return {
    profile: conn.profile ?? output?.profile ?? undefined,
    region: conn.region ?? output?.region ?? undefined,
    endpoint,
    pathStyle: conn.pathStyle ?? !!endpoint,
  };
}

/** The S3 client of one output for one request: every door builds its clients here. */
export function clientForOutput(
  output: S3OutputSettings | null,
  conn: S3ConnectionOptions = {},
  extra: Omit<CreateS3ClientOptions, keyof S3ConnectionOptions> = {},
): S3Client {
  return createS3Client({ ...resolveConnection(output, conn), ...extra });
}

export interface ConnectionDescription {
  profile: string | null;
  /** The region as given (or from the environment); null means "from the profile, else us-east-1". */
  region: string | null;
  endpoint: string | null;
  pathStyle: boolean;
}

/** What may be shown or logged about a connection: never keys, tokens or secrets. */
export function describeConnection(opts: S3ConnectionOptions = {}): ConnectionDescription {
  const endpoint = opts.endpoint?.trim() || null;
  let shownEndpoint = endpoint;
  if (endpoint) {
    try {
      const u = new URL(endpoint);
      u.username = '';
      u.password = '';
      u.search = '';
      shownEndpoint = u.toString().replace(/\/$/, '');
    } catch {
      shownEndpoint = '(invalid endpoint)';
    }
  }
  return {
    profile: opts.profile ?? null,
    region: opts.region ?? (process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || null),
    endpoint: shownEndpoint,
    pathStyle: opts.pathStyle ?? !!endpoint,
  };
}
