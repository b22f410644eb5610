/**
 * The repair commands that need the bucket, against the real RGW: `replay`, `multipart` and
 * `recover-versions` with --live print documents that conform to docs/replay.schema.json,
 * docs/multipart.schema.json and docs/repair.schema.json (ajv) and to their zod schemas, on the
 * real Fluent Bit snapshots (dry run and --apply).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { CreateMultipartUploadCommand, PutObjectCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeChunk } from '../../electron/engine/chunk';
import { newBucket, testClient } from '../engine/repair/s3env';
import { extractFixture, FIXTURES, type Extracted } from '../support/fixtures';
import { cliJson, expectConforms, expectRejected } from '../support/json-schemas';
import { s3Enabled } from '../support/s3';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const f = (scenario: string, file: string) => path.join(FIXTURES, scenario, file);

let fx: Extracted | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

/** A real snapshot whose root is renamed to a fresh RGW bucket, with its config pointed there. */
async function onBucket(scenario: string, tar: string, fixtureBucket: string, versioned = false) {
  fx = extractFixture(scenario, tar, fixtureBucket);
  const client = testClient();
  const bucket = await newBucket(client, 'sd-schema', versioned);
  const root = path.join(fx.storeDir, bucket);
  renameSync(fx.root, root);
  const conf = path.join(fx.dir, 'fluent-bit.conf');
  writeFileSync(
    conf,
    readFileSync(f(scenario, 'fluent-bit.conf'), 'utf8')
      .replace(new RegExp(`bucket\\s+${fixtureBucket}`), `bucket ${bucket}`)
      .replace(/store_dir\s+\S+/, `store_dir ${fx.storeDir}`),
  );
  const env = {
    AWS_ACCESS_KEY_ID: process.env.S3_TEST_ACCESS_KEY_ID!,
    AWS_SECRET_ACCESS_KEY: process.env.S3_TEST_SECRET_ACCESS_KEY!,
    AWS_REGION: 'us-east-1',
  };
  const live = ['--config', conf, '--live', '--endpoint', process.env.S3_TEST_ENDPOINT!];
  return { store: fx.storeDir, root, bucket, client, env, live };
}

describe.skipIf(!s3Enabled())('repair commands --json --live (RGW)', { timeout: 180_000 }, () => {
  it('replay: the per-chunk plan and the upload result (buffered-backlog-no-ordering)', async () => {
    const b = await onBucket('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const dry = await cliJson(['replay', b.store, ...b.live, '--include-active', '--json'], b.env);
    expect(dry.code).toBe(0);
    expectConforms('replay', dry.json);
    expectConforms('repair', dry.json);
    const plan = (dry.json as Json).plan;
    expect(plan.details.kind).toBe('replay');
    expect(plan.replayItems.filter((i: Json) => i.state === 'planned')).toHaveLength(12);

    const app = await cliJson(['replay', b.store, ...b.live, '--include-active', '--apply', '--json'], b.env);
    expect(app.code).toBe(0);
    expectConforms('replay', app.json);
    expectConforms('repair', app.json);
    const result = (app.json as Json).result;
    expect(result).toMatchObject({ action: 'replay', applied: true });
    expect(result.items.filter((i: Json) => i.state === 'done')).toHaveLength(12);

    // a replay document is not a multipart one, and the states are a closed set
    expectRejected('multipart', dry.json);
    expectRejected('replay', { ...(app.json as Json), result: { ...result, items: [{ ...result.items[0], state: 'maybe' }] } });
  });

  it('multipart: settling the interrupted upload of multipart-inflight (complete), dry run and --apply', async () => {
    const b = await onBucket('multipart-inflight', 'store-after-crash.tar.gz', 'fb-multipart');
    // The snapshot's record names an upload of the server it was made with: start the same
    // upload on RGW (two parts, as Fluent Bit had sent) and record it exactly as Fluent Bit does.
    const key = 'app.big/2026/11/29/18_36_06-0';
    const { UploadId } = await b.client.send(new CreateMultipartUploadCommand({ Bucket: b.bucket, Key: key }));
    const parts = [Buffer.alloc(5 * 1024 * 1024, 'a'), Buffer.from('second part\n')];
    const etags: string[] = [];
    for (const [i, body] of parts.entries()) {
      const r = await b.client.send(new UploadPartCommand({ Bucket: b.bucket, Key: key, UploadId, PartNumber: i + 1, Body: body, ContentLength: body.length }));
      etags.push(r.ETag!.replace(/"/g, ''));
    }
    const record = path.join(b.root, 'multipart_upload_metadata/14065334001068727105-4791705444923465403');
    writeFileSync(record, encodeChunk({ meta: `/${key}\n${UploadId}`, content: etags.map((e, i) => `part_number=${i + 1}\tetag=${e}\n`).join('') }));

    const dry = await cliJson(['multipart', b.store, ...b.live, '--json'], b.env);
    expect(dry.code).toBe(0);
    expectConforms('multipart', dry.json);
    expectConforms('repair', dry.json);
    expect((dry.json as Json).plan.details).toMatchObject({
      kind: 'multipart',
      settle: [{ op: 'complete', uploadId: UploadId, parts: [{ partNumber: 1 }, { partNumber: 2 }] }],
    });

    const app = await cliJson(['multipart', b.store, ...b.live, '--apply', '--json'], b.env);
    expect(app.code).toBe(0);
    expectConforms('multipart', app.json);
    expectConforms('repair', app.json);
    expect((app.json as Json).result).toMatchObject({ action: 'multipart', applied: true, verified: true });
    expectRejected('multipart', { ...(dry.json as Json), plan: { ...(dry.json as Json).plan, action: 'replay' } });
  });

  it('recover-versions: copies of overwritten versions (index-reset keys written twice), dry run and --apply', async () => {
    const b = await onBucket('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset', true);
    const keys = ['app.web/2026/11/29/18_33_42-0', 'app.db/2026/11/29/18_33_42-1'];
    for (const body of ['run 1', 'run 2'])
      for (const Key of keys) await b.client.send(new PutObjectCommand({ Bucket: b.bucket, Key, Body: body, ContentLength: body.length }));

    const dry = await cliJson(['recover-versions', b.store, ...b.live, '--recovery-prefix', 'recovered/', '--json'], b.env);
    expect(dry.code).toBe(0);
    expectConforms('repair', dry.json);
    expect((dry.json as Json).plan.details).toMatchObject({ kind: 'recover', recoveryPrefix: 'recovered/' });
    expect((dry.json as Json).plan.details.copies).toHaveLength(2);

    const app = await cliJson(['recover-versions', b.store, ...b.live, '--recovery-prefix', 'recovered/', '--apply', '--json'], b.env);
    expect(app.code).toBe(0);
    expectConforms('repair', app.json);
    expect((app.json as Json).result).toMatchObject({ action: 'recover-versions', applied: true });
  });
});
