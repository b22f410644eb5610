/**
 * The one place that loads the AWS SDK. Everything else in the engine imports its types only
 * (`import type`), so the SDK — several megabytes of JavaScript — is loaded the first time a
 * request really reaches S3, not when the engine, the CLI or the app starts. A scan, an offline
 * diagnosis or `--version` never loads it.
 *
 * `require` (not `import()`) keeps the callers synchronous; a bundler sees the literal names and
 * bundles the SDK lazily (the single-executable build) or leaves it external (the npm package).
 */
import type * as ClientS3 from '@aws-sdk/client-s3';
import type * as CredentialProviders from '@aws-sdk/credential-providers';
import type * as SmithyConfig from '@smithy/core/config';

/**
 * The pinned SDK (3.1175) runs on Node 20, but on Node < 22 it prints a `NodeVersionSupportWarning`
 * (future SDK releases will need Node 22) to stderr the first time a client is built. That is a
 * notice to the developer who picks the SDK version, not to an operator: it would sit in the output
 * of every command, host request and app action that reaches S3. It is switched off here, in the one
 * place that loads the SDK, with the SDK's own documented switch, unless the environment already sets
 * it. The shipped runtime moves to Node 24, where the SDK prints nothing (docs/DESIGN.md, Runtime).
 */
function quietSdkNodeNotice(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ||= 'true';
}

let clientS3: typeof ClientS3 | undefined;
let credentialProviders: typeof CredentialProviders | undefined;
let smithyConfig: typeof SmithyConfig | undefined;

/** `@aws-sdk/client-s3`: the client and its commands. */
export function awsS3(): typeof ClientS3 {
  if (!clientS3) quietSdkNodeNotice();
  return (clientS3 ??= require('@aws-sdk/client-s3') as typeof ClientS3);
}

/** `@aws-sdk/credential-providers`: the default credential chain. */
export function awsCredentials(): typeof CredentialProviders {
  if (!credentialProviders) quietSdkNodeNotice();
  return (credentialProviders ??= require('@aws-sdk/credential-providers') as typeof CredentialProviders);
}

/** `@smithy/core/config`: the shared config-file loader (region from a profile). */
export function awsConfigLoader(): typeof SmithyConfig {
  return (smithyConfig ??= require('@smithy/core/config') as typeof SmithyConfig);
}

/** Whether the SDK was loaded in this process (tests: a scan or an offline diagnosis must not load it). */
export function awsSdkLoaded(): boolean {
  return clientS3 !== undefined || credentialProviders !== undefined || smithyConfig !== undefined;
}
