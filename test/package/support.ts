/**
 * Shared by the package tests: a real Fluent Bit store extracted to a folder (with its config and
 * bucket listing), a fingerprint of a folder (nothing may change on a plan), and `serve` checked
 * the way a browser would use it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'vitest';

export const ROOT = path.join(__dirname, '../..');
export const FIXTURE = path.join(ROOT, 'test/fixtures/fluent-bit-real/index-reset');

export interface RealStore {
  store: string;
  config: string;
  listing: string;
}

/** store-after-run2 (after a graceful stop deleted sequence/) extracted into `dir`. */
export function extractRealStore(dir: string): RealStore {
  fs.mkdirSync(dir, { recursive: true });
  const r = spawnSync('tar', ['-xzf', path.join(FIXTURE, 'store-after-run2.tar.gz'), '-C', dir]);
  if (r.status !== 0) throw new Error(`tar failed: ${r.stderr}`);
  return {
    store: path.join(dir, 'store'),
    config: path.join(FIXTURE, 'fluent-bit.conf'),
    listing: path.join(FIXTURE, 's3api-list-objects-v2-after-run2.json'),
  };
}

/** Every path, type, size and content hash under `dir`. */
export function fingerprint(dir: string): string {
  const h = createHash('sha256');
  for (const rel of (fs.readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const st = fs.lstatSync(path.join(dir, rel));
    h.update(`${rel}\0${st.isDirectory() ? 'd' : st.size}\0`);
    if (st.isFile()) h.update(fs.readFileSync(path.join(dir, rel)));
  }
  return h.digest('hex');
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The checks every install of the CLI must pass on the real store: scan, diagnose, repair-index (plan only). */
export function checkCommands(run: (args: string[]) => Run, s: RealStore): void {
  const before = fingerprint(s.store);
  const scan = run(['scan', s.store]);
  expect(scan.stderr).toBe('');
  expect(scan.status).toBe(0);
  expect(scan.stdout).toContain(`Root fb-index-reset  ${path.join(s.store, 'fb-index-reset')}`);
  expect(scan.stdout).toContain('seq index: none.');

  const diagnose = run(['diagnose', s.store, '--config', s.config, '--listing', s.listing, '--json']);
  expect(diagnose.status).toBe(4); // INDEX_FILE_MISSING is an error finding
  const d = JSON.parse(diagnose.stdout) as {
    outputs: { bucket: string; persistedNextIndex: number | null; highestIndexInBucket: number; safeNextIndex: number; findings: { code: string }[] }[];
  };
  expect(d.outputs.map((o) => [o.bucket, o.persistedNextIndex, o.highestIndexInBucket, o.safeNextIndex])).toEqual([['fb-index-reset', null, 11, 12]]);
  expect(d.outputs[0].findings.map((f) => f.code)).toContain('INDEX_FILE_MISSING');

  const plan = run(['repair-index', s.store, '--config', s.config, '--listing', s.listing, '--json']);
  expect(plan.status).toBe(0);
  const p = JSON.parse(plan.stdout) as { dryRun: boolean; plan: { steps: { kind: string; target: string; after?: unknown }[]; refusals: unknown[] } };
  expect(p.dryRun).toBe(true);
  expect(p.plan.refusals).toEqual([]);
  expect(p.plan.steps.map((st) => [st.kind, path.relative(s.store, st.target), st.after ?? null])).toEqual([
    ['mkdir', 'fb-index-reset/sequence', null],
    ['mkdir', 'fb-index-reset/sequence/index_metadata', null],
    ['write-file', 'fb-index-reset/sequence/index_metadata/seq_index_0', '12'],
  ]);
  expect(fingerprint(s.store)).toBe(before); // a plan writes nothing
}

/** Starts `serve`, reads its one URL line. */
export async function startServe(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 30 s: ${out}${err}`)), 30_000);
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(new URL(m[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${out}${err}`)));
  });
  return { child, url };
}

/** The page with the token is the built UI; without it the host refuses (401); the API needs it too. */
export async function checkServe(url: URL): Promise<void> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toMatch(/<script type="module" crossorigin src="\.\/assets\/index-[\w-]+\.js"><\/script>/);
  const script = /src="\.\/(assets\/index-[\w-]+\.js)"/.exec(html)![1];
  const cookie = page.headers.get('set-cookie')!.split(';')[0];
  const js = await fetch(new URL(script, url.origin + '/'), { headers: { cookie } });
  expect(js.status).toBe(200);
  expect((await js.text()).length).toBeGreaterThan(10_000);

  const bare = new URL(url.origin + '/');
  expect((await fetch(bare)).status).toBe(401);
  expect((await fetch(new URL('/?token=wrong', url.origin))).status).toBe(401);
  const api = await fetch(new URL('/api/store.list', url.origin), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(api.status).toBe(401);
}

export function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}
