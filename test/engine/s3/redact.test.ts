/**
 * Issue 17 case 11: an S3 error whose text echoes the session token (an S3-compatible server that
 * quotes the request's X-Amz-Security-Token, in any wording) never prints it — not in a listing
 * note (describeS3Error), not in an error a door sends (toContractError). The credentials the
 * client resolved are redacted by value, whatever surrounds them; long token-like runs too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { describeS3Error, toEvidenceError } from '../../../electron/engine/s3/errors';
import { forgetSecretsForTest, rememberCredentials } from '../../../electron/engine/s3/redact';
import { createS3Client } from '../../../electron/engine/s3/client';
import { toContractError } from '../../../electron/engine/session/errors';

const TOKEN = 'IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD3xkUaP0tb6JvGmZ8q2l1T0fZxQ5uQ1V4y0TeSTq8z6gIgN2k';
const SHORT_TOKEN = 'tok3n-s3cr3t-Value42'; // shorter than any heuristic would catch: only the value itself tells
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

function s3Error(message: string): Error {
  return Object.assign(new Error(message), { name: 'InvalidToken', $metadata: { httpStatusCode: 400 } });
}

afterEach(() => forgetSecretsForTest());

describe('S3 errors that echo a credential', () => {
  const wordings = (t: string) => [
    `The provided token is malformed or otherwise invalid. Token ${t} rejected`,
    `<Error><Code>InvalidToken</Code><SecurityToken>${t}</SecurityToken></Error>`,
    `security token "${t}" expired`,
    `x-amz-security-token=${t}`,
  ];

  it('redacts a long session token in any wording, even when it was never seen', () => {
    for (const text of wordings(TOKEN)) {
      const line = describeS3Error(s3Error(text));
      expect(line, text).not.toContain(TOKEN.slice(0, 40));
      expect(line).toContain('[redacted]');
      expect(toContractError(toEvidenceError(s3Error(text), 'ListObjectsV2', 'b')).message).not.toContain(TOKEN.slice(0, 40));
    }
  });

  it('redacts the credentials the client resolved, by value (a short token, the secret key)', async () => {
    const client = createS3Client({
      endpoint: 'http://127.0.0.1:9',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: SECRET, sessionToken: SHORT_TOKEN },
    });
    await client.config.credentials(); // the SDK resolves them before a request
    client.destroy();
    for (const text of [...wordings(SHORT_TOKEN), `signature computed with ${SECRET}`]) {
      const line = describeS3Error(s3Error(text));
      expect(line, text).not.toContain(SHORT_TOKEN);
      expect(line, text).not.toContain(SECRET);
    }
  });

  it('redacts a session token given in the environment', () => {
    rememberCredentials({ sessionToken: SHORT_TOKEN });
    expect(describeS3Error(s3Error(`bad token ${SHORT_TOKEN}.`))).toBe('InvalidToken (HTTP 400): bad token [redacted].');
  });

  it('leaves paths and digests alone', () => {
    const text = `The plan is stale: /tmp/sd-index-reset-HFkSjy/store/fb-index-reset/sequence/index_metadata/seq_index_0 changed (sha256 ${'ab12'.repeat(16)}); /srv/AbcdefGhijklmnop/qrstuvwxyz/0123456789/ABCDEFGHIJ/klmnopqrst`;
    expect(describeS3Error(s3Error(text))).toBe(`InvalidToken (HTTP 400): ${text}`);
  });

  it('leaves an ordinary message as it is', () => {
    expect(describeS3Error(s3Error('The specified key does not exist: app.web/2026/11/29/10_00_00-14'))).toBe(
      'InvalidToken (HTTP 400): The specified key does not exist: app.web/2026/11/29/10_00_00-14',
    );
  });
});
