/**
 * A header-only scan (records:false) reads a small first block and then only what the header
 * still needs: tags of every length around that block, and files that end inside their tag, read
 * exactly as the full scan reads them.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkInfo, StoreReport } from '../../../shared/model';
import { encodeChunk } from '../../../electron/engine/chunk';
import { scanStore } from '../../../electron/engine/store';

let tmp: string;
const TAG_LENGTHS = [1, 40, 487, 488, 489, 490, 511, 512, 513, 1000, 4072, 4073, 9000, 65535];
const content = '{"log":"x"}\n'.repeat(50);

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-head-'));
  const stream = path.join(tmp, 'store', 'bucket', '2026-01-01T00:00:00');
  fs.mkdirSync(stream, { recursive: true });
  for (const n of TAG_LENGTHS) {
    const whole = encodeChunk({ meta: 't'.repeat(n), content });
    fs.writeFileSync(path.join(stream, `tag-${n}`), whole);
    // Cut inside the tag (and, for the short ones, inside the header).
    fs.writeFileSync(path.join(stream, `cut-${n}`), whole.subarray(0, Math.max(10, 24 + Math.floor(n / 2))));
  }
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const byName = (r: StoreReport): Map<string, ChunkInfo> => new Map(r.roots[0].streams.flatMap((s) => s.chunks.map((c) => [c.path, c] as const)));

describe('header-only scan', () => {
  it.each([0, 1])('reads tags of every length as the full scan does (workers %i)', async (workers) => {
    const opts = { workers, workerThreshold: 1 };
    const full = byName(await scanStore(path.join(tmp, 'store'), opts));
    const head = byName(await scanStore(path.join(tmp, 'store'), { ...opts, records: false }));
    expect([...head.keys()].sort()).toEqual([...full.keys()].sort());
    expect(head.size).toBe(TAG_LENGTHS.length * 2);
    for (const n of TAG_LENGTHS) {
      const h = head.get(`2026-01-01T00:00:00/tag-${n}`) as ChunkInfo;
      expect({ tag: h.tag, metaLength: h.metaLength, status: h.status }).toEqual({ tag: 't'.repeat(n), metaLength: n, status: 'ok' });
      expect(h.records).toBeNull();
    }
    for (const [p, f] of full) {
      const h = head.get(p) as ChunkInfo;
      expect({ tag: h.tag, metaLength: h.metaLength, contentLength: h.contentLength, fileSize: h.fileSize, status: h.status }, p).toEqual({
        tag: f.tag,
        metaLength: f.metaLength,
        contentLength: f.contentLength,
        fileSize: f.fileSize,
        status: f.status,
      });
    }
  });
});
