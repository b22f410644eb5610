/**
 * Issue 9 item 11: a big store never crashes by argument spreading (`push(...x)` over a
 * data-sized array hits "Maximum call stack size exceeded" near 65k–130k elements). One stream
 * of 200,000 damaged chunk files whose names are not UTF-8 (one problem each) is scanned by the
 * engine (the door every UI and the host use) and by the CLI's text scan.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanStore } from '../../../electron/engine/store';

const N = 200_000;
const BIN = path.join(__dirname, '../../../bin/store-doctor.cjs');
let tmp: string;
let root: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-big-'));
  root = path.join(tmp, 'b');
  const stream = path.join(root, '2026-01-01T00:00:00');
  fs.mkdirSync(stream, { recursive: true });
  const dir = Buffer.from(stream + path.sep);
  const two = Buffer.from('xx'); // 2 bytes: too-short, rejected by Fluent Bit
  for (let i = 0; i < N; i++) fs.writeFileSync(Buffer.concat([dir, Buffer.from(`c${i}-`), Buffer.from([0xff, 0xfe])]), two);
}, 300_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe(`a stream of ${N} damaged chunks with names that are not UTF-8`, () => {
  it('engine scan: every entry and every problem is reported', async () => {
    const r = await scanStore(root);
    expect(r.roots[0].totals).toMatchObject({ chunks: N, damaged: N, pending: 0 });
    expect(r.problems.filter((p) => p.message.includes('not valid UTF-8')).length).toBe(N);
    expect(r.roots[0].streams[0].chunks[0].name).toMatch(/^c\d+-\\xff\\xfe$/);
  }, 300_000);

  it('CLI text scan prints them all, no stack overflow', () => {
    const out = path.join(tmp, 'scan.txt');
    const fd = fs.openSync(out, 'w');
    try {
      const r = spawnSync(process.execPath, [BIN, 'scan', root], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 300_000 });
      expect(r.stderr).not.toMatch(/Maximum call stack|RangeError/);
      expect(r.status).toBe(3); // damaged chunks (the names are warnings)
    } finally {
      fs.closeSync(fd);
    }
    const text = fs.readFileSync(out, 'utf8');
    const damagedLines = text.split('\n').filter((l) => l.startsWith('  ✗ 2026-01-01T00:00:00/c')).length;
    expect(damagedLines).toBe(N);
  }, 300_000);
});
