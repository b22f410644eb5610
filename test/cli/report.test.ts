import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { extractFixture, FIXTURES, tempDir } from '../host/helpers';

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'store-doctor.cjs');
const run = promisify(execFile);

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [BIN, ...args], { maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const SCEN = path.join(FIXTURES, 'index-reset');

describe('store-doctor report', () => {
  it('prints a Markdown support summary with findings, seq index and streams', async () => {
    const r = await cli([
      'report',
      path.join(SCEN, 'store-during-run2.tar.gz'),
      '--config',
      path.join(SCEN, 'fluent-bit.conf'),
      '--listing',
      path.join(SCEN, 's3api-list-objects-v2-after-run1.json'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^# Store Doctor report: store-during-run2\.tar\.gz/);
    expect(r.stdout).toContain('`INDEX_BEHIND_BUCKET`');
    expect(r.stdout).toContain('`seq_index_0`: 9');
    expect(r.stdout).toContain('| 2026-11-29T18:33:42 | data | 3 |');
  });

  it('writes JSON to --out', async () => {
    const out = path.join(tempDir('sd-report-'), 'r.json');
    const r = await cli([
      'report',
      path.join(SCEN, 'store-during-run2.tar.gz'),
      '--config',
      path.join(SCEN, 'fluent-bit.conf'),
      '--listing',
      path.join(SCEN, 's3api-list-objects-v2-after-run1.json'),
      '--format',
      'json',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const doc = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(doc.report.roots[0].bucket).toBe('fb-index-reset');
    expect(doc.diagnosis.outputs[0]).toMatchObject({ persistedNextIndex: 9, highestIndexInBucket: 11, safeNextIndex: 12 });
  });

  it('refuses a bad format and an --out inside the store', async () => {
    expect((await cli(['report', path.join(SCEN, 'store-during-run2.tar.gz'), '--format', 'pdf'])).code).toBe(2);
    const store = extractFixture('crash-during-run', 'store-after-crash.tar.gz');
    const r = await cli(['report', store, '--out', path.join(store, 'report.md')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/inside the store/);
    expect(fs.existsSync(path.join(store, 'report.md'))).toBe(false);
  });
});
