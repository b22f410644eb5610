/**
 * The real `buffered-backlog-no-ordering` store (run 1: chunks waiting for upload), extracted
 * into `dir` with its bucket root renamed to `bucket`, and its config pointed at that store, that
 * bucket and `endpoint` — the starting point of every e2e test that writes to S3.
 */
import { execFileSync } from 'node:child_process';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FIXTURES } from './browser';

const SCENARIO = path.join(FIXTURES, 'buffered-backlog-no-ordering');

export async function backlogStore(dir: string, bucket: string, endpoint: string): Promise<{ storeDir: string; confPath: string }> {
  execFileSync('tar', ['-xzf', path.join(SCENARIO, 'store-after-run1.tar.gz'), '-C', dir]);
  const storeDir = path.join(dir, 'store');
  await rename(path.join(storeDir, 'fb-backlog2'), path.join(storeDir, bucket));
  const conf = (await readFile(path.join(SCENARIO, 'fluent-bit.conf'), 'utf8'))
    .replace(/bucket\s+fb-backlog2/, `bucket           ${bucket}`)
    .replace(/store_dir\s+\S+/, `store_dir        ${storeDir}`)
    .replace(/endpoint\s+\S+/, `endpoint         ${endpoint}`);
  const confPath = path.join(dir, 'fluent-bit.conf');
  await writeFile(confPath, conf);
  return { storeDir, confPath };
}
