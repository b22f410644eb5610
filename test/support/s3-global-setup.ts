/**
 * vitest globalSetup: one real S3 server (Ceph RGW on 127.0.0.1) per test run.
 *
 * - A healthy shared server from `npx tsx test/support/rgw.ts start` is reused and left running.
 * - Otherwise a private one is started (about 20 s) and stopped at teardown, but only when one of
 *   the selected test files uses S3 (imports `test/support/s3` or reads `S3_TEST_ENDPOINT`).
 * - `STORE_DOCTOR_S3=off` skips S3 entirely (S3 suites then skip themselves).
 * - Missing Ceph binaries fail the run with the apt command that installs them.
 *
 * Connection: env `S3_TEST_ENDPOINT`, `S3_TEST_REGION`, `S3_TEST_ACCESS_KEY_ID`,
 * `S3_TEST_SECRET_ACCESS_KEY`, `S3_TEST_OTHER_ACCESS_KEY_ID`, `S3_TEST_OTHER_SECRET_ACCESS_KEY`
 * (inherited by the fork workers) and the same object via `inject('s3')`.
 */
import { readFile } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { missingRgwBinaries, RGW_APT_COMMAND, readHealthyRgw, startRgw, type RgwState } from './rgw';

export interface S3TestConnection {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  otherAccessKeyId: string;
  otherSecretAccessKey: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    s3: S3TestConnection | null;
  }
}

const USES_S3 = /support\/s3['"]|S3_TEST_ENDPOINT/;

/** Positional CLI arguments of `vitest [run] <filters…>` (flag values may slip in: harmless, see below). */
function cliFilters(): string[] {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  return args.filter((a, i) => !(i === 0 && ['run', 'watch', 'dev', 'related', 'bench'].includes(a)));
}

async function someTestUsesS3(project: TestProject): Promise<boolean> {
  let { testFiles } = await project.globTestFiles(cliFilters());
  if (testFiles.length === 0) ({ testFiles } = await project.globTestFiles());
  for (const f of testFiles) {
    if (USES_S3.test(await readFile(f, 'utf8').catch(() => ''))) return true;
  }
  return false;
}

function expose(project: TestProject, s: RgwState | null): void {
  const conn: S3TestConnection | null = s && {
    endpoint: s.endpoint,
    region: s.region,
    accessKeyId: s.accessKeyId,
    secretAccessKey: s.secretAccessKey,
    otherAccessKeyId: s.otherAccessKeyId,
    otherSecretAccessKey: s.otherSecretAccessKey,
  };
  if (conn) {
    process.env.S3_TEST_ENDPOINT = conn.endpoint;
    process.env.S3_TEST_REGION = conn.region;
    process.env.S3_TEST_ACCESS_KEY_ID = conn.accessKeyId;
    process.env.S3_TEST_SECRET_ACCESS_KEY = conn.secretAccessKey;
    process.env.S3_TEST_OTHER_ACCESS_KEY_ID = conn.otherAccessKeyId;
    process.env.S3_TEST_OTHER_SECRET_ACCESS_KEY = conn.otherSecretAccessKey;
  }
  project.provide('s3', conn);
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (process.env.STORE_DOCTOR_S3 === 'off') {
    expose(project, null);
    return;
  }
  const shared = await readHealthyRgw();
  if (shared) {
    expose(project, shared);
    return;
  }
  if (!(await someTestUsesS3(project))) {
    expose(project, null);
    return;
  }
  const missing = missingRgwBinaries();
  if (missing.length) {
    throw new Error(
      `S3 tests need Ceph RGW but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing.\n` +
        `Install: sudo ${RGW_APT_COMMAND}\nOr skip S3 tests: STORE_DOCTOR_S3=off npx vitest run`,
    );
  }
  const server = await startRgw({ log: (l) => process.stderr.write(`${l}\n`) });
  expose(project, server);
  return () => server.stop();
}
