/**
 * One scenario's workbench: a work folder (on tmpfs when there is one), a fresh bucket on the
 * shared RGW, configs, Fluent Bit runs with their logs, the CLI, store and bucket readers.
 * `close()` reaps every Fluent Bit of this lab by PID and removes the folder (kept with
 * FB_KEEP=1, for debugging).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { readHealthyRgw } from '../../support/rgw';
import type { FluentBitBinary } from './binaries';
import { createBucket, s3Client, snapshotBucket, readObjects, type BucketSnapshot, type S3Conn } from './bucket';
import { describeCli, runCli, type CliOptions, type CliResult } from './cli';
import { renderConfig, type DummyInput, type S3Output } from './config';
import { startFluentBit, type FluentBitProcess } from './process';
import { readStore, type StoreFacts } from './store';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** tmpfs when available (fast, no disk I/O for the other engineers), else the OS temp dir. */
export function scratchBase(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
}

/** A loopback port nothing listens on (connection refused: "S3 unreachable"). */
export async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Wait until the wall clock is in a new second (two starts in one second share a stream name). */
export async function nextSecond(): Promise<void> {
  const s = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) === s) await sleep(20);
}

/** The S3 server: FB_S3_* from the suite's global setup, else the shared RGW's state file. */
export async function s3Connection(): Promise<S3Conn> {
  const e = process.env;
  if (e.FB_S3_ENDPOINT && e.FB_S3_ACCESS_KEY_ID && e.FB_S3_SECRET_ACCESS_KEY)
    return {
      endpoint: e.FB_S3_ENDPOINT,
      region: e.FB_S3_REGION ?? 'us-east-1',
      accessKeyId: e.FB_S3_ACCESS_KEY_ID,
      secretAccessKey: e.FB_S3_SECRET_ACCESS_KEY,
    };
  const rgw = await readHealthyRgw();
  if (!rgw) throw new Error('no S3 test server: start the shared one with `npx tsx test/support/rgw.ts start`');
  return { endpoint: rgw.endpoint, region: rgw.region, accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey };
}

export const DEFAULT_INPUTS: DummyInput[] = [
  { tag: 'app.web', rate: 20, record: { msg: 'GET /index.html 200', bytes: 5120 } },
  { tag: 'app.db', rate: 10, record: { msg: 'query ok', rows: 42 } },
];

export interface ConfigOptions {
  inputs?: DummyInput[];
  /** Fields of the (single) S3 output to change. */
  output?: Partial<S3Output>;
  /** Several outputs; each gets the lab's bucket/endpoint/store_dir unless it says otherwise. */
  outputs?: Partial<S3Output>[];
  grace?: number;
}

export class Lab {
  readonly runs: FluentBitProcess[] = [];
  readonly cliRuns: CliResult[] = [];
  private constructor(
    readonly fb: FluentBitBinary,
    readonly name: string,
    readonly dir: string,
    readonly conn: S3Conn,
    readonly s3: S3Client,
    readonly bucket: string,
  ) {}

  static async open(fb: FluentBitBinary, name: string, opts: { versioning?: boolean; dir?: string } = {}): Promise<Lab> {
    const conn = await s3Connection();
    const s3 = s3Client(conn);
    const bucket = await createBucket(s3, `${name}-${fb.version.replace(/\./g, '')}`, { versioning: opts.versioning });
    const dir = opts.dir ?? mkdtempSync(path.join(scratchBase(), `sd-fb-${name}-`));
    return new Lab(fb, name, dir, conn, s3, bucket);
  }

  get storeDir(): string {
    return path.join(this.dir, 'store');
  }
  /** `<store_dir>/<bucket>`: what the CLI is pointed at. */
  get root(): string {
    return path.join(this.storeDir, this.bucket);
  }
  /** Credentials for a child process (Fluent Bit or the CLI), never for this process. */
  get awsEnv(): Record<string, string> {
    return { AWS_ACCESS_KEY_ID: this.conn.accessKeyId, AWS_SECRET_ACCESS_KEY: this.conn.secretAccessKey, AWS_REGION: this.conn.region };
  }

  /** Writes `<dir>/<label>.conf` and returns its path. */
  writeConfig(label: string, o: ConfigOptions = {}): string {
    const base: S3Output = {
      bucket: this.bucket,
      endpoint: this.conn.endpoint,
      storeDir: this.storeDir,
      keyFormat: '/$TAG/%Y/%m/%d/$INDEX',
      region: this.conn.region,
    };
    const outputs = (o.outputs ?? [o.output ?? {}]).map((x) => ({ ...base, ...x }));
    const text = renderConfig({ major: this.fb.major, inputs: o.inputs ?? DEFAULT_INPUTS, outputs, runId: label, grace: o.grace });
    const file = path.join(this.dir, `${label}.conf`);
    writeFileSync(file, text);
    return file;
  }

  /** Starts this lab's binary (or `bin`, e.g. an older one on the same store). */
  start(config: string, label: string, bin = this.fb.path): FluentBitProcess {
    const p = startFluentBit({ bin, config, logFile: path.join(this.dir, `${label}.log`), env: this.awsEnv, cwd: this.dir });
    this.runs.push(p);
    return p;
  }

  async cli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
    const r = await runCli(args, { ...opts, env: { ...this.awsEnv, ...opts.env } });
    this.cliRuns.push(r);
    writeFileSync(path.join(this.dir, `cli-${String(this.cliRuns.length).padStart(2, '0')}-${args[0]}.txt`), describeCli(r));
    return r;
  }

  store(): StoreFacts {
    return readStore(this.root);
  }

  snapshot(): Promise<BucketSnapshot> {
    return snapshotBucket(this.s3, this.bucket);
  }

  objects() {
    return readObjects(this.s3, this.bucket);
  }

  async close(): Promise<void> {
    for (const p of this.runs) if (p.running) await p.stop('SIGKILL').catch(() => undefined);
    this.s3.destroy();
    if (process.env.FB_KEEP !== '1') rmSync(this.dir, { recursive: true, force: true });
  }
}
