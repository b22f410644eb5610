/** repair-index never calls a value safe from a cut listing: refused (exit 5) unless --value or --force. */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractFixture, FIXTURES, type Extracted } from '../engine/repair/helpers';

const ROOT = path.resolve(__dirname, '../..');
const f = (file: string) => path.join(FIXTURES, 'index-reset', file);

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/store-doctor.cjs'), ...args], { cwd: ROOT, timeout: 90_000 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

let fx: Extracted | null = null;
let tmp: string | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = null;
});

describe('repair-index with incomplete bucket evidence', { timeout: 120_000 }, () => {
  it('a first page without its continuation is refused; --value above the lower bound is accepted', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    tmp = mkdtempSync(path.join(os.tmpdir(), 'sd-cut-'));
    const full = JSON.parse(readFileSync(f('s3api-list-objects-v2-after-run2.json'), 'utf8')) as { Contents: { Key: string }[] };
    // The first page of a paginated listing: only keys with index ≤ 5, and a token for a page that was never saved.
    const first = full.Contents.filter((o) => Number(/-(\d+)$/.exec(o.Key)?.[1]) <= 5);
    expect(first.length).toBeLessThan(full.Contents.length);
    const page = path.join(tmp, 'page1.json');
    writeFileSync(page, JSON.stringify({ Contents: first, IsTruncated: true, NextContinuationToken: 'token-for-page-2', KeyCount: first.length }));
    const seq = path.join(fx.root, 'sequence/index_metadata/seq_index_0');
    const args = ['repair-index', fx.storeDir, '--config', f('fluent-bit.conf'), '--listing', page];

    const refused = await cli([...args, '--apply']);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/incomplete/);
    expect(existsSync(seq)).toBe(false);

    const withValue = await cli([...args, '--value', '12', '--apply']);
    expect(withValue.code).toBe(0);
    expect(withValue.stdout + withValue.stderr).toMatch(/lower bound/);
    expect(readFileSync(seq, 'latin1')).toBe('12');
  });
});
