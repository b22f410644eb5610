/**
 * Issue 9 item 14 (second half): `store-doctor … | head -1` ends quietly — no EPIPE stack trace
 * on stderr, exit code 0 (or the command's own) — for text and JSON output.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStore } from '../fixtures/generate';

const BIN = path.join(__dirname, '../../bin/store-doctor.cjs');
let tmp: string;
let store: string;

/** Run the CLI and close its stdout after the first bytes, as `| head -1` does. */
function headOne(args: string[]): Promise<{ code: number | null; signal: string | null; err: string; first: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let first = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.stdout.once('data', (b: Buffer) => {
      first = b.toString().split('\n')[0];
      child.stdout.destroy();
    });
    child.on('close', (code, signal) => resolve({ code, signal, err, first }));
  });
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-epipe-'));
  // Enough output (one line per damaged chunk) to fill the pipe after the reader is gone.
  const chunks = Array.from({ length: 4000 }, (_, i) => ({ name: `c${i}`, bytes: Buffer.from('xx') }));
  store = (await generateStore(path.join(tmp, 'store'), { roots: [{ bucket: 'b', streams: [{ name: '2026-01-01T00:00:00', chunks }] }] })).storeDir;
}, 60_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('a closed stdout (| head -1)', () => {
  for (const args of [['scan'], ['scan', '--json'], ['diagnose'], ['report', '--format', 'markdown'], ['report', '--format', 'json']]) {
    it(`${args.join(' ')}: exits quietly`, async () => {
      const [cmd, ...rest] = args;
      const r = await headOne([cmd, store, ...rest]);
      expect(r.first.length).toBeGreaterThan(0);
      expect(r.err).not.toMatch(/EPIPE|Unhandled|at .*\(/);
      expect(r.signal).toBeNull();
      expect([0, 3, 4]).toContain(r.code);
    }, 60_000);
  }
});
