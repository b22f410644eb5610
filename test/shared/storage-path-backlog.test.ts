/**
 * The one salvage rule for a storage.path chunk (shared/storage-path-backlog.ts), which the planner
 * and the app's Chunks view both use, on real 5.1.1 buffers: what the real binary did with each
 * chunk at its next start is in measurements.json — a chunk it rejected with checksum on is
 * offered unless the checksum is known to be off; a torn last record always; a valid chunk never.
 * And the storage picture's rows per input.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineSalvageRefusal, storagePathBacklog, versionFates } from '../../shared/storage-path-backlog';
import { scanStoragePath } from '../../electron/engine/storage-path';
import { MEASURED, STORAGE_PATH_FIXTURES } from '../support/storage-path-measured';

const SP = STORAGE_PATH_FIXTURES;
const measured = MEASURED;

async function chunksOf(kind: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-sp-rule-'));
  execFileSync('tar', ['-xzf', path.join(SP, 'v5.1.1', kind, 'store.tar.gz'), '-C', dir]);
  const report = await scanStoragePath(path.join(dir, 'store'));
  fs.rmSync(dir, { recursive: true, force: true });
  return { report, chunks: report.streams.flatMap((s) => s.chunks) };
}

describe('engineSalvageRefusal on real buffers', () => {
  it.each(['kill-checksum-on', 'kill-checksum-off', 'torn-last-record', 'chunks-down'])('%s: offered exactly for what Fluent Bit rejects', async (kind) => {
    const m = measured['5.1.1'][kind];
    const { chunks } = await chunksOf(kind);
    expect(chunks.map((c) => c.path).sort()).toEqual(m.chunks.map((c) => c.chunk).sort());
    const rejectedOn = new Set(m['checksum-on'].formatCheckFailed);
    for (const c of chunks) {
      const torn = m.chunks.find((x) => x.chunk === c.path)!.tornBytes > 0;
      // checksum unknown (counted as on) and on: offered for every chunk the binary rejected, or torn
      expect(engineSalvageRefusal(c, null) === null, c.path).toBe(rejectedOn.has(c.path) || torn);
      expect(engineSalvageRefusal(c, true) === null, c.path).toBe(rejectedOn.has(c.path) || torn);
      // checksum off: only a torn last record
      expect(engineSalvageRefusal(c, false) === null, c.path).toBe(torn);
    }
  });

  it('says why: a valid chunk loads; with checksum off a stale CRC loads', async () => {
    const valid = (await chunksOf('chunks-down')).chunks[0];
    expect(engineSalvageRefusal(valid, true)).toBe('its CRC is valid and it ends with a complete record: Fluent Bit loads it');
    const absent = (await chunksOf('kill-checksum-off')).chunks[0];
    expect(engineSalvageRefusal(absent, false)).toBe('storage.checksum is off: Fluent Bit does not check the CRC and loads it');
    expect(versionFates(absent).map((v) => `${v.version}:${v.checksumOn}/${v.checksumOff}/${v.deletes}`)).toEqual(
      ['1.9.10', '3.2.10', '4.2.8', '5.0.9', '5.1.1'].map((v) => `${v}:reject/load/false`),
    );
  });

  it('storagePathBacklog: per input, chunks, records and what the next start rejects', async () => {
    const m = measured['5.1.1']['kill-checksum-on'];
    const { report } = await chunksOf('kill-checksum-on');
    const rows = storagePathBacklog(report).inputs.map((i) => [i.input, i.chunks, i.records, i.rejected, i.rejectedRecords]);
    expect(rows).toEqual(m.chunks.map((c) => [c.chunk.split('/')[0], 1, c.records, 1, c.records]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
  });
});
