/**
 * The resolved S3 target of one output for one connection form, as every door's client would use
 * it (`resolveConnection()` — the one rule), said without a secret: endpoint, region, addressing
 * style, bucket, profile and where the credentials come from. `testConnection()` resolves the
 * credentials and sends one HeadBucket: it reads nothing but the answer and changes nothing.
 */
import type { ConnectionTest, FluentBitOutput, S3ConnectionOptions, S3Target } from '../../../shared/model';
import { clientForOutput, describeConnection, resolveConnection, type CreateS3ClientOptions } from './client';
import { explainS3Error } from './explain';
import { awsS3 } from './sdk';

/** Credential features the SDK tags resolved credentials with (`$source`), as sentences. */
const SOURCES: [RegExp, string][] = [
  [/^CREDENTIALS_ENV_VARS_STS_WEB_ID_TOKEN$|^CREDENTIALS_STS_ASSUME_ROLE_WEB_ID$/, 'web identity (a role assumed with a token file)'],
  [/^CREDENTIALS_ENV_VARS$/, 'environment variables (AWS_ACCESS_KEY_ID)'],
  [/SSO/, 'an SSO (IAM Identity Center) login'],
  [/PROCESS/, 'a credential_process'],
  [/^CREDENTIALS_STS_ASSUME_ROLE$|SOURCE_PROFILE|NAMED_PROVIDER/, 'an assumed role'],
  [/^CREDENTIALS_PROFILE$/, 'the AWS shared config/credentials files'],
  [/^CREDENTIALS_IMDS$/, 'EC2 instance metadata (IMDS)'],
  [/^CREDENTIALS_HTTP$/, 'the container credentials endpoint (ECS / EKS)'],
  [/^CREDENTIALS_CODE$/, 'credentials given to Store Doctor directly'],
];

/** Where resolved credentials came from, from the SDK's `$source` tags. */
export function credentialSourceOf(source: Record<string, unknown> | undefined, profile: string | null): string {
  const names = Object.keys(source ?? {});
  const said = [...new Set(names.map((n) => SOURCES.find(([re]) => re.test(n))?.[1]).filter((s): s is string => !!s))];
  const base = said.length ? said.join(' via ') : 'the AWS default credential chain';
  return profile && names.some((n) => /PROFILE|SSO|PROCESS|ASSUME/.test(n)) ? `${base}, profile ${profile}` : base;
}

/** Where the credentials will come from, before resolving them (no file or network is read). */
export function credentialSourceHint(profile: string | null, env: NodeJS.ProcessEnv = process.env): string {
  if (profile) return `profile ${profile} of the AWS shared config/credentials files (keys, SSO, role or credential_process, as the profile says)`;
  if (env.AWS_ACCESS_KEY_ID) return 'environment variables (AWS_ACCESS_KEY_ID), first in the AWS default chain';
  if (env.AWS_WEB_IDENTITY_TOKEN_FILE) return 'web identity (AWS_WEB_IDENTITY_TOKEN_FILE)';
  return 'the AWS default chain: the default profile of the AWS files, SSO, web identity, then container or instance metadata';
}

export function describeTarget(output: FluentBitOutput, conn: S3ConnectionOptions, env: NodeJS.ProcessEnv = process.env): S3Target {
  const s3 = output.s3;
  if (!s3) throw new Error(`output ${output.displayName} is a ${output.plugin} output, not s3`);
  const resolved = resolveConnection(s3, conn);
  const shown = describeConnection(resolved);
  const region = resolved.region ?? shown.region;
  const regionFrom: S3Target['regionFrom'] = conn.region ? 'form' : resolved.region ? 'config' : shown.region ? 'environment' : 'profile-or-default';
  const profile = resolved.profile ?? env.AWS_PROFILE ?? null;
  const profileFrom: S3Target['profileFrom'] = conn.profile ? 'form' : s3.profile ? 'config' : env.AWS_PROFILE ? 'environment' : null;
  const endpoint = shown.endpoint ?? `https://s3.${region ?? 'us-east-1'}.amazonaws.com`;
  return {
    outputId: output.id,
    outputName: output.displayName,
    bucket: s3.bucket,
    endpoint,
    endpointFrom: conn.endpoint ? 'form' : s3.endpoint ? 'config' : 'aws',
    region,
    regionFrom,
    addressing: shown.pathStyle ? 'path-style' : 'virtual-hosted-style',
    profile,
    profileFrom,
    credentialSource: credentialSourceHint(profile, env),
  };
}

export async function testConnection(
  output: FluentBitOutput,
  conn: S3ConnectionOptions,
  extra: Omit<CreateS3ClientOptions, keyof S3ConnectionOptions> = {},
  signal?: AbortSignal,
): Promise<ConnectionTest> {
  const target = describeTarget(output, conn);
  const at = new Date().toISOString();
  const client = clientForOutput(output.s3!, conn, { maxAttempts: 1, requestTimeoutMs: 10_000, connectionTimeoutMs: 3_000, ...extra });
  const ctx = { bucket: target.bucket, endpoint: target.endpoint, region: target.region };
  try {
    let source: Record<string, unknown> | undefined;
    try {
      const creds = (await client.config.credentials()) as { $source?: Record<string, unknown> };
      source = creds.$source;
    } catch (err) {
      return { target, ok: false, httpStatus: null, at, message: `${explainS3Error(err, ctx)} Nothing was sent to the bucket; nothing was changed.` };
    }
    target.credentialSource = credentialSourceOf(source, target.profile);
    const { HeadBucketCommand } = awsS3();
    try {
      const r = await client.send(new HeadBucketCommand({ Bucket: target.bucket }), { abortSignal: signal });
      const status = r.$metadata.httpStatusCode ?? 200;
      return {
        target,
        ok: true,
        httpStatus: status,
        at,
        message: `Bucket ${target.bucket} answered at ${target.endpoint} (HeadBucket, HTTP ${status}) with credentials from ${target.credentialSource}. Nothing was changed: HeadBucket only asks whether the bucket is there.`,
      };
    } catch (err) {
      if (signal?.aborted) throw err;
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? null;
      return {
        target,
        ok: false,
        httpStatus: status,
        at,
        message: `${explainS3Error(err, { ...ctx, credentials: target.credentialSource })} Nothing was changed (HeadBucket only reads).`,
      };
    }
  } finally {
    client.destroy();
  }
}
