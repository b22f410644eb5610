/** The `store-doctor` bin runs the CLI however it is launched (directly or through npm's .bin symlink). */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.join(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/store-doctor.cjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bin-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('store-doctor bin', () => {
  it('runs through a symlink named like npm links it (node_modules/.bin/store-doctor)', () => {
    const link = path.join(tmp, 'store-doctor');
    fs.symlinkSync(BIN, link);
    const r = spawnSync(process.execPath, [link, '--version'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('runs the command exactly once and keeps its exit code', () => {
    const r = spawnSync(process.execPath, [BIN, 'scan', path.join(tmp, 'does-not-exist')], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr.match(/does-not-exist/g)?.length).toBe(1);
  });
});
