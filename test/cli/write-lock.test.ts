/**
 * Issue 9 item 7: two overlapping `repair-index --apply` runs on one store. The first pauses in the
 * middle of its write (after its plan was checked, before the rename); the second must be refused
 * (exit 5) naming the first one's pid — not apply too and lose one of the two values — and `undo`
 * afterwards puts the store back as it was.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractFixture, FIXTURES, type Extracted } from '../support/fixtures';

const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const f = (file: string) => path.join(FIXTURES, 'index-reset', file);
const EVIDENCE = ['--config', f('fluent-bit.conf'), '--listing', f('s3-objects-after-run2.json')];

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/store-doctor.cjs'), ...args], { cwd: ROOT, timeout: 90_000 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

async function waitFor(file: string, ms: number): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (existsSync(file)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${file} did not appear within ${ms} ms`);
}

let fx: Extracted | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

describe('one writer per root', { timeout: 120_000 }, () => {
  it('a second repair-index --apply while the first is writing is refused naming its pid; exactly one applies; undo works', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const index = path.join(fx.root, 'sequence', 'index_metadata', 'seq_index_0');
    const gate = path.join(fx.dir, 'gate');
    const first = spawn(
      process.execPath,
      [TSX, path.join(__dirname, 'support/pause-child.ts'), gate, 'repair-index', fx.storeDir, ...EVIDENCE, '--value', '30', '--apply', '--json'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    first.stdout.on('data', (d: Buffer) => (out += String(d)));
    first.stderr.on('data', (d: Buffer) => (out += String(d)));
    const exited = new Promise<number>((r) => first.on('exit', (c) => r(c ?? 1)));
    try {
      await waitFor(`${gate}.paused`, 60_000);
      const second = await cli(['repair-index', fx.storeDir, ...EVIDENCE, '--value', '40', '--apply', '--json']);
      expect(second.code, second.stdout + second.stderr).toBe(5);
      const holder = readFileSync(`${gate}.paused`, 'utf8'); // the pid of the paused CLI process
      expect(JSON.parse(second.stdout).error.message).toMatch(new RegExp(`pid ${holder}\\b`));
      expect(existsSync(index)).toBe(false); // the first has not renamed yet; the second wrote nothing
    } finally {
      writeFileSync(`${gate}.go`, '');
      await exited;
    }
    expect(await exited, out).toBe(0);
    expect(JSON.parse(out.slice(out.indexOf('{'))).result).toMatchObject({ applied: true, verified: true });
    expect(readFileSync(index, 'latin1')).toBe('30');
    const journal = readFileSync(path.join(fx.root, '.store-doctor', 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(journal.filter((l) => l.type === 'action')).toHaveLength(1);
    expect(existsSync(path.join(fx.root, '.store-doctor', 'write.lock'))).toBe(false); // released

    // --force: putting the absence back is below the listed index (refused otherwise, issue 18)
    const undo = await cli(['undo', fx.storeDir, '--apply', '--force']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(existsSync(path.join(fx.root, 'sequence'))).toBe(false);
  });
});
