/**
 * A store and bucket as Fluent Bit leaves them after a SIGKILL with two tags in flight
 * (docs/fluent-bit-versions.md §9): two open uploads with part 1 each, ONE record holding the first
 * upload's key and upload id and the part lines of both (the first tag's ETag, then the second's).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { CreateMultipartUploadCommand, UploadPartCommand, type S3Client } from '@aws-sdk/client-s3';
import { encodeChunk } from '../../../electron/engine/chunk';

export async function twoTagCrash(client: S3Client, bucket: string, root: string) {
  const a = { key: 'app.big/2026/12/01/0', body: Buffer.alloc(5 * 1024 * 1024 + 10, 'b') };
  const h = { key: 'app.huge/2026/12/01/1', body: Buffer.alloc(5 * 1024 * 1024 + 20, 'h') };
  const ids: string[] = [];
  const etags: string[] = [];
  for (const u of [a, h]) {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: u.key }));
    const e = (await client.send(new UploadPartCommand({ Bucket: bucket, Key: u.key, UploadId, PartNumber: 1, Body: u.body, ContentLength: u.body.length })))
      .ETag!;
    ids.push(UploadId!);
    etags.push(e.replace(/"/g, ''));
  }
  const dir = path.join(root, 'multipart_upload_metadata');
  mkdirSync(dir, { recursive: true });
  const rec = path.join(dir, '14990859550064733886-13642508666805735824');
  writeFileSync(rec, encodeChunk({ meta: `/${a.key}\n${ids[0]}`, content: `part_number=1\tetag=${etags[0]}\npart_number=1\tetag=${etags[1]}\n` }));
  return { a, h, ids, etags, rec };
}
