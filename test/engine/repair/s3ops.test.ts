/** putCreateOnly against a server that reports a conditional-write race (409) before settling. */
import { describe, expect, it } from 'vitest';
import type { S3Client } from '@aws-sdk/client-s3';
import { putCreateOnly } from '../../../electron/engine/repair/bucket/s3ops';

function fakeClient(answers: (number | 'ok')[]): { client: S3Client; calls: () => number } {
  let n = 0;
  const client = {
    send: async () => {
      const a = answers[Math.min(n++, answers.length - 1)];
      if (a === 'ok') return { ETag: '"abc"' };
      throw Object.assign(new Error(`status ${a}`), {
        name: a === 412 ? 'PreconditionFailed' : 'ConditionalRequestConflict',
        $metadata: { httpStatusCode: a },
      });
    },
  } as unknown as S3Client;
  return { client, calls: () => n };
}

describe('putCreateOnly', () => {
  it('retries a 409 conflict: ends as "exists" when the other write won', async () => {
    const f = fakeClient([409, 412]);
    expect(await putCreateOnly(f.client, 'b', 'k', Buffer.from('x'), { mode: 'if-none-match' })).toEqual({ created: false, reason: 'exists' });
    expect(f.calls()).toBe(2);
  });

  it('retries a 409 conflict: created when the retry creates it', async () => {
    const f = fakeClient([409, 'ok']);
    expect(await putCreateOnly(f.client, 'b', 'k', Buffer.from('x'), { mode: 'if-none-match' })).toEqual({ created: true, etag: 'abc' });
  });

  it('gives up after four conflicts with the error (never claims a create)', async () => {
    const f = fakeClient([409]);
    await expect(putCreateOnly(f.client, 'b', 'k', Buffer.from('x'), { mode: 'if-none-match' })).rejects.toThrow(/409/);
    expect(f.calls()).toBe(4);
  });
});
