/** A folder that holds no Fluent Bit store is never read as one, and never gets an all-clear. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/fixtures';

const BIN = path.resolve(__dirname, '../../bin/store-doctor.cjs');
const t = tempDir('sd-nostore-');
afterAll(() => t.cleanup());
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('no store at the path', () => {
  const docs = path.join(t.dir, 'doc');
  for (const pkg of ['bash', 'curl']) {
    fs.mkdirSync(path.join(docs, pkg), { recursive: true });
    fs.writeFileSync(path.join(docs, pkg, 'copyright'), 'text');
  }

  it('diagnose: a NO_STORE error finding, checks.store false, exit 4', () => {
    const r = cli('diagnose', docs, '--json');
    expect(r.status).toBe(4);
    const j = JSON.parse(r.stdout);
    expect(j.checks.store).toBe(false);
    expect(j.outputs).toEqual([]);
    expect(j.storeFindings.map((f: { code: string }) => f.code)).toContain('NO_STORE');
    const text = cli('diagnose', docs);
    expect(text.stdout).toMatch(/^Diagnosis: .*error/);
    expect(text.stdout).toMatch(/Checked: store NOT found/);
    expect(text.stdout).toMatch(/NO_STORE: No Fluent Bit S3 store found/);
  });

  it('scan: says so and exits 2 (unusable input)', () => {
    const r = cli('scan', docs);
    expect(r.status).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/not a Fluent Bit store/);
  });
});
