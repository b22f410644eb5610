/**
 * The resolved S3 target of an output (no secrets), the connection test (one HeadBucket), and SDK
 * errors as sentences: no credentials, nothing listening, a missing bucket, a wrong key — against
 * a closed port and the real S3 test server (Ceph RGW).
 */
import net from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseFluentBitConfig } from '../../../electron/engine/fluentbit';
import { describeTarget, explainS3Error, testConnection } from '../../../electron/engine/s3';
import type { FluentBitOutput } from '../../../shared/model';
import { s3Enabled, testS3 } from '../../support/s3';

async function output(lines: string): Promise<FluentBitOutput> {
  const config = await parseFluentBitConfig(
    `[OUTPUT]\n${lines
      .split(';')
      .map((l) => `    ${l.trim()}\n`)
      .join('')}`,
    { fileName: '/etc/fb/fluent-bit.conf', env: {} },
  );
  return config.outputs[0];
}

/** A port on 127.0.0.1 nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

const ENV_KEYS = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_PROFILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_CONFIG_FILE',
  'AWS_EC2_METADATA_DISABLED',
  'AWS_REGION',
];
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});
function noCredentials(): void {
  for (const k of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE']) delete process.env[k];
  process.env.AWS_SHARED_CREDENTIALS_FILE = '/nonexistent/credentials';
  process.env.AWS_CONFIG_FILE = '/nonexistent/config';
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
}

describe('describeTarget', () => {
  it('takes the region and endpoint from the config, addressing path-style with an endpoint; the form wins', async () => {
    const o = await output('name s3; bucket logs; region eu-west-1; endpoint http://minio.local:9000');
    delete process.env.AWS_PROFILE;
    process.env.AWS_ACCESS_KEY_ID = 'AKIAEXAMPLEEXAMPLE12';
    const t = describeTarget(o, {});
    expect(t).toMatchObject({
      outputId: 0,
      bucket: 'logs',
      endpoint: 'http://minio.local:9000',
      endpointFrom: 'config',
      region: 'eu-west-1',
      regionFrom: 'config',
      addressing: 'path-style',
      profile: null,
      profileFrom: null,
    });
    expect(t.credentialSource).toMatch(/^environment variables \(AWS_ACCESS_KEY_ID\)/);
    expect(JSON.stringify(t)).not.toContain('AKIAEXAMPLE');
    const f = describeTarget(o, { region: 'us-west-2', endpoint: 'https://user:pw@s3.example.com/?x=1', profile: 'ops', pathStyle: false });
    expect(f).toMatchObject({
      endpoint: 'https://s3.example.com',
      endpointFrom: 'form',
      region: 'us-west-2',
      regionFrom: 'form',
      addressing: 'virtual-hosted-style',
      profile: 'ops',
      profileFrom: 'form',
    });
    expect(f.credentialSource).toMatch(/^profile ops/);
  });

  it('without an endpoint: the AWS regional endpoint, virtual-hosted style', async () => {
    const o = await output('name s3; bucket logs; region ap-south-1');
    expect(describeTarget(o, {})).toMatchObject({ endpoint: 'https://s3.ap-south-1.amazonaws.com', endpointFrom: 'aws', addressing: 'virtual-hosted-style' });
  });
});

describe('testConnection: what users saw as SDK errors are sentences saying nothing was changed', () => {
  it('no credentials anywhere', async () => {
    noCredentials();
    const o = await output(`name s3; bucket logs; endpoint http://127.0.0.1:${await closedPort()}`);
    const r = await testConnection(o, {});
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/^No AWS credentials were found on the machine running Store Doctor/);
    expect(r.message).toMatch(/Nothing was sent to the bucket; nothing was changed\.$/);
    expect(r.message).not.toMatch(/Could not load credentials from any providers\.$/);
  });

  it('nothing listening at the endpoint', async () => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIAEXAMPLEEXAMPLE12';
    process.env.AWS_SECRET_ACCESS_KEY = 'not-a-real-secret';
    const port = await closedPort();
    const o = await output(`name s3; bucket logs; endpoint http://127.0.0.1:${port}`);
    const r = await testConnection(o, {});
    expect(r).toMatchObject({ ok: false, httpStatus: null });
    expect(r.message).toBe(
      `Nothing answers at http://127.0.0.1:${port} (connection refused): check the endpoint and that the S3 server is running. Nothing was changed (HeadBucket only reads).`,
    );
    expect(r.message).not.toContain('not-a-real-secret');
  });

  it('explains a 403 and a 404 the way the bucket answered them', () => {
    const ctx = { bucket: 'logs', endpoint: 'https://s3.eu-west-1.amazonaws.com', region: 'eu-west-1', credentials: 'profile ops' };
    expect(explainS3Error({ name: 'NotFound', $metadata: { httpStatusCode: 404 }, message: 'UnknownError' }, ctx)).toBe(
      'Bucket logs does not exist at https://s3.eu-west-1.amazonaws.com.',
    );
    expect(explainS3Error({ name: 'Forbidden', $metadata: { httpStatusCode: 403 }, message: 'UnknownError' }, ctx)).toMatch(
      /^Access to bucket logs at https:\/\/s3\.eu-west-1\.amazonaws\.com was denied \(credentials: profile ops\)/,
    );
    expect(explainS3Error({ name: 'PermanentRedirect', $metadata: { httpStatusCode: 301 } }, ctx)).toMatch(/another region than eu-west-1/);
  });
});

describe.skipIf(!s3Enabled())('testConnection on the real S3 test server', () => {
  let bucket: string;
  let s3: ReturnType<typeof testS3>;
  beforeAll(async () => {
    s3 = testS3();
    bucket = await s3.createBucket('conntest');
  });

  it('HeadBucket answers 200 with the environment credentials; a missing bucket and a wrong key are sentences', async () => {
    process.env.AWS_ACCESS_KEY_ID = s3.credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
    const o = await output(`name s3; bucket ${bucket}; region ${s3.region}; endpoint ${s3.endpoint}`);
    const r = await testConnection(o, {});
    expect(r).toMatchObject({ ok: true, httpStatus: 200 });
    expect(r.target.credentialSource).toBe('environment variables (AWS_ACCESS_KEY_ID)');
    expect(r.message).toContain(`Bucket ${bucket} answered at ${s3.endpoint} (HeadBucket, HTTP 200)`);
    expect(r.message).toContain('Nothing was changed');

    const missing = await testConnection(await output(`name s3; bucket ${bucket}-nope; region ${s3.region}; endpoint ${s3.endpoint}`), {});
    expect(missing).toMatchObject({ ok: false, httpStatus: 404 });
    expect(missing.message).toBe(`Bucket ${bucket}-nope does not exist at ${s3.endpoint}. Nothing was changed (HeadBucket only reads).`);

    process.env.AWS_SECRET_ACCESS_KEY = 'wrong-secret';
    const wrong = await testConnection(o, {});
    expect(wrong).toMatchObject({ ok: false, httpStatus: 403 });
    expect(wrong.message).toMatch(/^(The secret key does not match the access key|Access to bucket)/);
    expect(wrong.message).not.toContain('wrong-secret');
  });
});
