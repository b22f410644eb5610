/**
 * Issue 17 case 7: `guard --once` trusts its state folder only under the rules of the tool's own
 * folder (repair/write/tool-dir.ts): owned by the caller or root, not writable by group or others, no
 * symlink, regular files with one name. A planted low "final" value in a folder another user made
 * or can write is not restored: refused as "no value known", nothing written, the reason printed.
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordValue, shadowRootOf, shadowDirFor } from '../../electron/engine/repair';
import { extractFixture, FIXTURES, tempDir, type Extracted } from '../engine/repair/helpers';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/store-doctor.cjs');
const IR_CONF = path.join(FIXTURES, 'index-reset', 'fluent-bit.conf');

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, timeout: 90_000 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

let fx: Extracted | null = null;
let t: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  fx?.cleanup();
  t?.cleanup();
  fx = t = null;
});
const seq = (root: string) => path.join(root, 'sequence/index_metadata/seq_index_0');

async function planted(): Promise<{ dir: string; state: string }> {
  fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
  t = tempDir('sd-once-trust-');
  const dir = shadowDirFor(t.dir, 'fb-index-reset');
  await recordValue(dir, await shadowRootOf(fx.root), 0, 3, true); // a low value, recorded as final
  return { dir, state: t.dir };
}

describe('guard --once: the state folder is trusted only like the tool folder', { timeout: 120_000 }, () => {
  it('the trusted folder (control): its final value is restored', async () => {
    const { state } = await planted();
    const r = await cli(['guard', fx!.storeDir, '--config', IR_CONF, '--state-dir', state, '--once']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(existsSync(seq(fx!.root))).toBe(true);
  });

  it('a world-writable state folder: refused, nothing written', async () => {
    const { dir, state } = await planted();
    chmodSync(dir, 0o777);
    const r = await cli(['guard', fx!.storeDir, '--config', IR_CONF, '--state-dir', state, '--once']);
    expect(r.code, r.stderr + r.stdout).toBe(5);
    expect(r.stdout + r.stderr).toMatch(/writable by group or others \(mode 777\)/);
    expect(existsSync(seq(fx!.root))).toBe(false);
  });

  it('a group-writable value file: refused, nothing written', async () => {
    const { dir, state } = await planted();
    chmodSync(path.join(dir, 'seq_index_0'), 0o660);
    const r = await cli(['guard', fx!.storeDir, '--config', IR_CONF, '--state-dir', state, '--once']);
    expect(r.code, r.stderr + r.stdout).toBe(5);
    expect(existsSync(seq(fx!.root))).toBe(false);
  });

  it.skipIf(process.getuid?.() !== 0)('a state folder owned by another user (run as root): refused, nothing written', async () => {
    const { dir, state } = await planted();
    chownSync(dir, 65534, 65534);
    const r = await cli(['guard', fx!.storeDir, '--config', IR_CONF, '--state-dir', state, '--once']);
    expect(r.code, r.stderr + r.stdout).toBe(5);
    expect(r.stdout + r.stderr).toMatch(/is owned by uid 65534/);
    expect(existsSync(seq(fx!.root))).toBe(false);
  });
});
