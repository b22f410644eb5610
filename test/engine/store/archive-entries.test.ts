/**
 * Issue 17 case 11: a 7 MB .tar.gz of 1 million (empty) entries took `scan` to 1.27 GB. An archive
 * with more entries than any store snapshot is refused with an error naming the file, after a
 * bounded part of it was read: the scan's peak RSS, measured in a child process, stays far below.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ARCHIVE_ENTRIES } from '../../../electron/engine/store/archive-source';
import { tempDir } from '../../support/fixtures';

const ENTRIES = 1_000_000;
const CHILD = path.join(__dirname, 'archive-entries-child.ts');
let t: ReturnType<typeof tempDir>;
let archive: string;

/** One ustar header of an empty regular file named `name`. */
function header(name: string): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'latin1');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write('00000000000\0', 124);
  h.write('14000000000\0', 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0' + '00', 257, 'latin1');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
  return h;
}

beforeAll(async () => {
  t = tempDir('sd-archive-entries-');
  archive = path.join(t.dir, 'million.tar.gz');
  const gz = zlib.createGzip({ level: 1 });
  const done = new Promise<void>((resolve, reject) =>
    gz
      .pipe(createWriteStream(archive))
      .on('finish', () => resolve())
      .on('error', reject),
  );
  for (let i = 0; i < ENTRIES; i += 1000) {
    const batch: Buffer[] = [];
    for (let j = i; j < i + 1000; j++) batch.push(header(`store/bucket/2026-12-01T00:00:00/${String(j).padStart(7, '0')}.flb`));
    if (!gz.write(Buffer.concat(batch))) await new Promise((r) => gz.once('drain', r));
  }
  gz.end(Buffer.alloc(1024));
  await done;
}, 120_000);
afterAll(() => t?.cleanup());

describe('an archive of a million entries', () => {
  it(`is refused after ${MAX_ARCHIVE_ENTRIES.toLocaleString('en-US')} entries, naming the file, with bounded memory`, () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', CHILD, archive], { encoding: 'utf8', timeout: 300_000, cwd: path.join(__dirname, '../../..') });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { ok: boolean; error: string | null; maxRssMb: number };
    expect(out.ok).toBe(false);
    expect(out.error).toBe(
      `${archive}: the archive has more than ${MAX_ARCHIVE_ENTRIES.toLocaleString('en-US')} entries: not a snapshot of one store (extract it and scan the folder, or archive less)`,
    );
    // 1,000,000 entries took 1.27 GB; the refusal comes after a bounded number of them
    if (process.env.SHOW_RSS) console.log(`peak RSS ${out.maxRssMb} MB`);
    expect(out.maxRssMb).toBeLessThan(600);
  }, 300_000);
});
