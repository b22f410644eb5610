/**
 * `store-doctor guard` with a config that sets [SERVICE] storage.path: /metrics exports the backlog
 * per input of that engine buffer (a real one, Fluent Bit 5.1.1 killed with storage.checksum on) —
 * chunks, bytes and the chunks the real binary rejected at its next start (measurements.json).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractFixture, FIXTURES, tempDir, type Extracted } from '../engine/repair/helpers';
import { measuredRun, STORAGE_PATH_FIXTURES } from '../support/storage-path-measured';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/store-doctor.cjs');
const SP = STORAGE_PATH_FIXTURES;
const measured = measuredRun('5.1.1', 'kill-checksum-on');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let fx: Extracted | null = null;
let t: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  fx?.cleanup();
  t?.cleanup();
  fx = t = null;
});

describe('store-doctor guard and the config storage.path', { timeout: 60_000 }, () => {
  it('exports store_doctor_storage_path_* per input', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    t = tempDir('sd-guard-sp-');
    execFileSync('tar', ['-xzf', path.join(SP, 'v5.1.1', 'kill-checksum-on', 'store.tar.gz'), '-C', t.dir]);
    const buffer = path.join(t.dir, 'store');
    const conf = path.join(t.dir, 'fluent-bit.conf');
    fs.writeFileSync(
      conf,
      fs
        .readFileSync(path.join(FIXTURES, 'crash-during-run', 'fluent-bit.conf'), 'utf8')
        .replace('[SERVICE]', `[SERVICE]\n    storage.path ${buffer}\n    storage.checksum on`),
    );
    const state = path.join(t.dir, 'state');
    const p = spawn(process.execPath, [BIN, 'guard', fx.storeDir, '--config', conf, '--state-dir', state, '--metrics', '127.0.0.1:0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    p.stderr!.on('data', (d) => (err += String(d)));
    try {
      let url: string | null = null;
      while (!url || !/guarding /.test(err)) {
        if (p.exitCode !== null) throw new Error(`guard exited: ${err}`);
        url = /on (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(err)?.[1] ?? null;
        await sleep(50);
      }
      let metrics = '';
      while (!/^store_doctor_storage_path_backlog_chunks\{/m.test(metrics)) {
        metrics = await (await fetch(`${url}/metrics`)).text();
        if (!/storage_path_backlog_chunks\{/.test(metrics)) await sleep(100);
      }
      expect(err).toContain(`reading the backlog of storage.path ${buffer}`);
      for (const input of ['dummy.0', 'dummy.1']) {
        const count = (names: string[]) => names.filter((n) => n.startsWith(`${input}/`)).length;
        const bytes = fs.readdirSync(path.join(buffer, input)).reduce((s, f) => s + fs.statSync(path.join(buffer, input, f)).size, 0);
        expect(metrics).toMatch(
          new RegExp(`^store_doctor_storage_path_backlog_chunks\\{input="${input}"\\} ${count(measured.chunks.map((c) => c.chunk))}$`, 'm'),
        );
        expect(metrics).toMatch(new RegExp(`^store_doctor_storage_path_backlog_bytes\\{input="${input}"\\} ${bytes}$`, 'm'));
        expect(metrics).toMatch(
          new RegExp(`^store_doctor_storage_path_rejected_chunks\\{input="${input}"\\} ${count(measured['checksum-on'].formatCheckFailed)}$`, 'm'),
        );
        expect(metrics).toMatch(new RegExp(`^store_doctor_storage_path_unchecked_chunks\\{input="${input}"\\} 0$`, 'm'));
      }
    } finally {
      const exited = new Promise<number | null>((r) => (p.exitCode !== null ? r(p.exitCode) : p.once('exit', (code) => r(code))));
      p.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
