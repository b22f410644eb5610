/**
 * The guard's storage.path backlog reader on a real buffer (Fluent Bit 5.1.1 killed with
 * storage.checksum on, test/fixtures/storage-path): per input chunks and bytes as on disk, the
 * chunks the real binary rejected at its next start (measurements.json) and none with checksum
 * off; a damaged header is rejected either way; the CRC is read once per chunk version (cached)
 * within the byte budget, an unchecked chunk is counted as such; maxChunks bounds the walk.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoragePathBacklog } from '../../../electron/engine/guard/storage-path-backlog';
import { tempDir } from '../../host/helpers';
import { measuredRun, STORAGE_PATH_FIXTURES } from '../../support/storage-path-measured';

const SP = STORAGE_PATH_FIXTURES;
const m = measuredRun('5.1.1', 'kill-checksum-on');

function buffer(): string {
  const dir = tempDir('sd-sp-backlog-');
  execFileSync('tar', ['-xzf', path.join(SP, 'v5.1.1', 'kill-checksum-on', 'store.tar.gz'), '-C', dir]);
  return path.join(dir, 'store');
}

const perInput = (names: string[], input: string) => names.filter((n) => n.startsWith(`${input}/`)).length;
const sizeOf = (store: string, input: string) => fs.readdirSync(path.join(store, input)).reduce((s, f) => s + fs.statSync(path.join(store, input, f)).size, 0);

describe('StoragePathBacklog', () => {
  it('counts chunks, bytes and the chunks Fluent Bit rejected, per input', async () => {
    const store = buffer();
    const on = new StoragePathBacklog(store, { checksum: true });
    await on.refresh();
    expect(on.inputs).toEqual(
      ['dummy.0', 'dummy.1'].map((input) => ({
        input,
        chunks: perInput(
          m.chunks.map((c) => c.chunk),
          input,
        ),
        bytes: sizeOf(store, input),
        rejected: perInput(m['checksum-on'].formatCheckFailed, input),
        unchecked: 0,
      })),
    );
    expect(m['checksum-on'].formatCheckFailed.length).toBeGreaterThan(0);
    const off = new StoragePathBacklog(store, { checksum: false });
    await off.refresh();
    expect(off.inputs.map((b) => b.rejected)).toEqual(['dummy.0', 'dummy.1'].map((i) => perInput(m['checksum-off'].formatCheckFailed, i)));
  });

  it('reads a CRC once per chunk version, counts what the budget left unchecked, rejects a bad header', async () => {
    const store = buffer();
    const opts = { checksum: true, crcBudgetBytes: 0 };
    const b = new StoragePathBacklog(store, opts);
    await b.refresh();
    expect(b.inputs.map((i) => [i.rejected, i.unchecked])).toEqual([
      [0, 1],
      [0, 1],
    ]);
    opts.crcBudgetBytes = 64 * 1024 * 1024;
    await b.refresh();
    expect(b.inputs.map((i) => [i.rejected, i.unchecked])).toEqual([
      [1, 0],
      [1, 0],
    ]);
    opts.crcBudgetBytes = 0; // cached: no content read needed
    await b.refresh();
    expect(b.inputs.map((i) => [i.rejected, i.unchecked])).toEqual([
      [1, 0],
      [1, 0],
    ]);
    const f = path.join(store, 'dummy.0', fs.readdirSync(path.join(store, 'dummy.0'))[0]);
    const bytes = fs.readFileSync(f);
    bytes[0] = 0x00; // not C1 00: rejected at load whatever storage.checksum says
    fs.writeFileSync(f, bytes);
    const off = new StoragePathBacklog(store, { checksum: false });
    await off.refresh();
    expect(off.inputs.map((i) => i.rejected)).toEqual([1, 0]);
  });

  it('looks at no more than maxChunks chunks, and reads a missing folder as empty', async () => {
    const b = new StoragePathBacklog(buffer(), { checksum: true, maxChunks: 1 });
    await b.refresh();
    expect(b.inputs.reduce((s, i) => s + i.chunks, 0)).toBe(1);
    expect(b.skipped).toBe(1);
    const none = new StoragePathBacklog(path.join(tempDir('sd-sp-none-'), 'absent'), { checksum: true });
    await none.refresh();
    expect(none.inputs).toEqual([]);
  });
});
