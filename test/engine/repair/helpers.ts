/** Test helpers: extract a real fixture tar into a fresh temp dir (fixtures are never written). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const FIXTURES = path.resolve(__dirname, '../../fixtures/fluent-bit-real');

export interface Extracted {
  dir: string;
  storeDir: string;
  /** `<store>/<bucket>` */
  root: string;
  cleanup(): void;
}

export function extractFixture(scenario: string, tarName: string, bucket: string): Extracted {
  const dir = mkdtempSync(path.join(os.tmpdir(), `sd-${scenario}-`));
  execFileSync('tar', ['-xzf', path.join(FIXTURES, scenario, tarName), '-C', dir]);
  const storeDir = path.join(dir, 'store');
  return { dir, storeDir, root: path.join(storeDir, bucket), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function tempDir(prefix = 'sd-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
