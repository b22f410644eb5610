/**
 * Helpers for the live diagnosis tests: stores and configs built in temp dirs for a unique bucket,
 * and the fixture's index-reset store re-rooted under that bucket (fixtures are never written).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeChunk } from '../../../electron/engine/chunk';

export const FIX = path.resolve(__dirname, '../../fixtures/fluent-bit-real');

/** Keys of the index-reset listing after run 2 (24 keys, indices 0–11 twice). */
export function indexResetKeys(): string[] {
  const doc = JSON.parse(readFileSync(path.join(FIX, 'index-reset', 's3api-list-objects-v2-after-run2.json'), 'utf8')) as { Contents: { Key: string }[] };
  return doc.Contents.map((c) => c.Key);
}

/**
 * The index-reset store after run 2 extracted into `dir`, its root renamed to `bucket`, and the
 * fixture's config with that bucket. Returns the store dir and the config path.
 */
export function indexResetCopy(dir: string, bucket: string): { store: string; config: string } {
  execFileSync('tar', ['-xzf', path.join(FIX, 'index-reset', 'store-after-run2.tar.gz'), '-C', dir]);
  renameSync(path.join(dir, 'store', 'fb-index-reset'), path.join(dir, 'store', bucket));
  const conf = readFileSync(path.join(FIX, 'index-reset', 'fluent-bit.conf'), 'utf8').replace(/^(\s*bucket\s+)fb-index-reset\s*$/m, `$1${bucket}`);
  if (!conf.includes(bucket)) throw new Error('fixture config has no bucket line');
  const config = path.join(dir, 'fluent-bit.conf');
  writeFileSync(config, conf);
  return { store: path.join(dir, 'store'), config };
}

export interface StoreSpec {
  bucket: string;
  keyFormat: string;
  endpoint: string;
  /** seq_index_0 content; undefined: no sequence/ at all (a graceful stop deleted it). */
  seqIndex?: string;
  /** Data chunks: stream name, tag, first record time (ISO). */
  chunks?: { stream: string; tag: string; firstRecord: string }[];
  /** Multipart records exactly as Fluent Bit writes them (docs/fluent-bit-store-format.md#multipart-records). */
  multipart?: { key: string; uploadId: string; etags: string[] }[];
}

/** A store `<dir>/store/<bucket>` and its classic config; returns both paths. */
export function makeStore(dir: string, spec: StoreSpec): { store: string; config: string } {
  const storeDir = path.join(dir, 'store');
  const root = path.join(storeDir, spec.bucket);
  mkdirSync(path.join(root, 'multipart_upload_metadata'), { recursive: true });
  if (spec.seqIndex !== undefined) {
    mkdirSync(path.join(root, 'sequence', 'index_metadata'), { recursive: true });
    writeFileSync(path.join(root, 'sequence', 'index_metadata', 'seq_index_0'), spec.seqIndex);
  }
  (spec.chunks ?? []).forEach((c, i) => {
    mkdirSync(path.join(root, c.stream), { recursive: true });
    const t = Date.parse(c.firstRecord) / 1000;
    const content = [0, 1, 2].map((k) => JSON.stringify({ date: t + k, msg: `record ${k}` })).join('\n') + '\n';
    writeFileSync(path.join(root, c.stream, `${1000 + i}-${2000 + i}`), encodeChunk({ meta: c.tag, content }));
  });
  (spec.multipart ?? []).forEach((m, i) => {
    const content = m.etags.map((e, n) => `part_number=${n + 1}\tetag=${e}\n`).join('');
    writeFileSync(path.join(root, 'multipart_upload_metadata', `${3000 + i}-${4000 + i}`), encodeChunk({ meta: `/${m.key}\n${m.uploadId}`, content }));
  });
  const config = path.join(dir, 'fluent-bit.conf');
  writeFileSync(
    config,
    [
      '[SERVICE]',
      '    flush 1',
      '',
      '[OUTPUT]',
      '    name            s3',
      '    match           *',
      `    bucket          ${spec.bucket}`,
      '    region          us-east-1',
      `    endpoint        ${spec.endpoint}`,
      `    store_dir       ${storeDir}`,
      '    use_put_object  On',
      `    s3_key_format   ${spec.keyFormat}`,
      '',
    ].join('\n'),
  );
  return { store: storeDir, config };
}

/** Set the AWS default-chain credentials in this process; returns a function that restores the env. */
export function useEnvCredentials(creds: { accessKeyId: string; secretAccessKey: string }): () => void {
  const keys = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE'] as const;
  const saved = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
  process.env.AWS_ACCESS_KEY_ID = creds.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = creds.secretAccessKey;
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  return () => {
    for (const k of keys) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  };
}
