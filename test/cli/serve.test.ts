/* eslint-disable @typescript-eslint/no-explicit-any -- reads untyped JSON replies */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeRenderer, tempDir } from '../host/helpers';

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'store-doctor.cjs');
let child: ChildProcessWithoutNullStreams | null = null;

afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = null;
});

function startServe(args: string[]): Promise<{ line: string; stdout: () => string; stderr: () => string; exited: Promise<number | null> }> {
  child = spawn(process.execPath, [BIN, 'serve', ...args], { env: { ...process.env, STORE_DOCTOR_STATE_DIR: tempDir('sd-serve-state-') } });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in time; stderr: ${err}`)), 20_000);
    child!.stderr.on('data', (b) => (err += b));
    child!.stdout.on('data', (b) => {
      out += b;
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve({ line: out.slice(0, nl), stdout: () => out, stderr: () => err, exited });
      }
    });
    child!.on('exit', (code) => {
      clearTimeout(timer);
      if (!out.includes('\n')) reject(new Error(`serve exited with ${code}: ${err}`));
    });
  });
}

describe('store-doctor serve', () => {
  it('opens the demo, prints exactly one URL line, serves it, and stops on SIGTERM', async () => {
    const renderer = fakeRenderer();
    const { line, stdout, exited } = await startServe(['demo', '--renderer', renderer]);
    const m = /^http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64})$/.exec(line);
    expect(m, line).not.toBeNull();
    const page = await fetch(line);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Store Doctor test page');
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly/);
    expect((await fetch(`http://127.0.0.1:${m![1]}/`)).status).toBe(401);

    const list = (await (
      await fetch(`http://127.0.0.1:${m![1]}/api/store.list`, {
        method: 'POST',
        headers: { authorization: `Bearer ${m![2]}`, 'content-type': 'application/json' },
        body: '{"input":{}}',
      })
    ).json()) as any;
    expect(list.ok, JSON.stringify(list.error)).toBe(true);
    expect(list.value.stores).toHaveLength(1);
    expect(list.value.stores[0].report.roots[0].bucket).toBe('fb-index-reset');
    expect(list.value.stores[0].config.outputs[0].s3.bucket).toBe('fb-index-reset');

    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout().trim().split('\n')).toHaveLength(1);
  });

  it('with a --renderer folder that holds no UI: one line on stderr says so, and the API still serves', async () => {
    const empty = tempDir('sd-serve-empty-');
    const { line, stderr } = await startServe(['demo', '--renderer', empty]);
    expect(stderr()).toBe(
      `store-doctor: the UI is not built (no ${path.join(empty, 'index.html')}); the page says so, the API under /api/ works. In a checkout run \`npm run build:web\`.\n`,
    );
    const page = await fetch(line);
    expect(page.status).toBe(503);
    expect(await page.text()).toMatch(/UI is not built.*npm run build:web/);
    child!.kill('SIGTERM');
  });

  it('fails with a readable message when the store does not exist', async () => {
    await expect(startServe(['/nonexistent/store'])).rejects.toThrow(/nonexistent|no such file/);
  });

  it('prints the URL at once, then stops with the error when the path cannot be opened as a store', async () => {
    const file = path.join(tempDir('sd-serve-'), 'notes.txt');
    fs.writeFileSync(file, 'not a store\n');
    const { line, stderr, exited } = await startServe([file]);
    expect(line).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
    expect(await exited).toBe(2);
    expect(stderr()).toContain(`${file}: not a store`);
  });

  it('rejects a bad --port', async () => {
    await expect(startServe(['--port', 'abc'])).rejects.toThrow(/--port/);
  });
});
