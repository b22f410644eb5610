/**
 * The one fixture helper every test uses: real Fluent Bit snapshots are extracted into a fresh
 * temp dir (the fixtures themselves are never written), and temp dirs clean up after themselves.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const FIXTURES = path.resolve(__dirname, '../fixtures/fluent-bit-real');

export interface Extracted {
  dir: string;
  /** `<dir>/store` */
  storeDir: string;
  /** `<store>/<bucket>` */
  root: string;
  cleanup(): void;
}

/** Extract `test/fixtures/fluent-bit-real/<scenario>/<tarName>` (a tar of `store/…`) into a new temp dir. */
export function extractFixture(scenario: string, tarName: string, bucket = ''): Extracted {
  const dir = mkdtempSync(path.join(os.tmpdir(), `sd-${scenario.replace(/[^\w.-]/g, '_')}-`));
  execFileSync('tar', ['-xzf', path.join(FIXTURES, scenario, tarName), '-C', dir]);
  const storeDir = path.join(dir, 'store');
  return { dir, storeDir, root: path.join(storeDir, bucket), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function tempDir(prefix = 'sd-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
