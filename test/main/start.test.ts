/**
 * `npm start` where the Electron binary cannot be downloaded: one line saying so, then the
 * loopback host's URL for the given store.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../host/helpers';

const ROOT = path.resolve(__dirname, '..', '..');

describe('npm start without the Electron binary', async () => {
  const { electronBinary } = await import('../../scripts/start.mjs');
  it.skipIf(electronBinary() !== null)('says so in one line and starts the loopback host on the given store', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs'), path.join(FIXTURES, 'index-reset', 'store-during-run2.tar.gz')], {
      cwd: ROOT,
      env: { ...process.env, STORE_DOCTOR_STATE_DIR: tempDir('sd-start-') },
    });
    let out = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL in time: ${out}`)), 60_000);
        child.stdout.on('data', (b) => {
          out += b;
          if (out.split('\n').length >= 3) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.on('exit', () => reject(new Error(`start exited: ${out}`)));
      });
      const [notice, url] = out.split('\n');
      expect(notice).toMatch(/Electron binary is not available here.*loopback host/);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
      const u = new URL(url);
      const list = await fetch(`${u.origin}/api/store.list`, {
        method: 'POST',
        headers: { authorization: `Bearer ${u.searchParams.get('token')}`, 'content-type': 'application/json' },
        body: '{"input":{}}',
      });
      const body = (await list.json()) as { ok: boolean; value: { stores: { report: { source: { kind: string } } }[] } };
      expect(body.value.stores[0].report.source.kind).toBe('archive');
      expect((await fetch(url)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
