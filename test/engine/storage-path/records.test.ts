/**
 * The Inspector's pages of a storage.path chunk's events (readEngineRecords) on the real buffers of
 * every version: the count is the one the real binary delivered (measurements.json) — 1.9.10's
 * `[ts, record]` events and zero padding, a torn last record left out — and each event decodes to
 * the dummy input's record.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEngineRecords } from '../../../electron/engine/storage-path';
import { MEASURED, STORAGE_PATH_FIXTURES } from '../../support/storage-path-measured';

const SP = STORAGE_PATH_FIXTURES;
const measured = MEASURED;

describe('readEngineRecords on real buffers', () => {
  for (const version of Object.keys(measured))
    it.each(['torn-last-record', 'kill-checksum-on'])(`${version} %s: every complete event, decoded`, async (kind) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-sp-records-'));
      try {
        execFileSync('tar', ['-xzf', path.join(SP, `v${version}`, kind, 'store.tar.gz'), '-C', dir]);
        for (const c of measured[version][kind].chunks) {
          const [stream, name] = c.chunk.split('/');
          const page = await readEngineRecords(path.join(dir, 'store'), stream, name, 0, 1000);
          expect(page.total, c.chunk).toBe(c.records);
          expect(page.records).toHaveLength(c.records);
          for (const r of page.records) expect(r).toEqual({ date: expect.any(Number), record: { msg: c.tag, n: 1 } });
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
});
