/**
 * Salvage through the one write path: plan (nothing written), apply under the write lock (journal,
 * backup, atomic write, verify), undo to the exact bytes; a chunk changed after planning is refused.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { encode } from '@msgpack/msgpack';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeChunk } from '../../../electron/engine/chunk';
import { applyPlan, planSalvage, undoLast } from '../../../electron/engine/repair';
import { loadFluentBitConfig } from '../../../electron/engine/fluentbit';
import { isStoragePath, scanStoragePath } from '../../../electron/engine/storage-path';

const meta = (tag: string) => Buffer.concat([Buffer.from([0xf1, 0x77, 0, 0]), Buffer.from(tag)]);
const events = (n: number, from = 1700000000) => Buffer.concat(Array.from({ length: n }, (_, i) => Buffer.from(encode([from + i, { n: i }]))));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sd-salvage-'));
  mkdirSync(path.join(dir, 'dummy.0'));
  mkdirSync(path.join(dir, 'tail.1'));
  const stale = encodeChunk({ meta: meta('app.a'), content: events(5), crc: true });
  stale.writeUInt32BE(0x12345678, 2); // SIGKILL: the CRC of an earlier sync
  writeFileSync(path.join(dir, 'dummy.0', '100-1700000000.1.flb'), stale);
  const torn = events(4);
  writeFileSync(path.join(dir, 'tail.1', '100-1700000001.2.flb'), encodeChunk({ meta: meta('app.b'), content: torn.subarray(0, torn.length - 3), crc: true }));
  writeFileSync(path.join(dir, 'tail.1', '100-1700000002.3.flb'), encodeChunk({ meta: meta('app.b'), content: events(2), crc: true }));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('salvage', () => {
  it('tells a storage.path from other folders', async () => {
    expect(await isStoragePath(dir)).toBe(true);
    expect(await isStoragePath(path.join(dir, 'dummy.0'))).toBe(false);
  });

  it('plans only the rejected chunks, applies, verifies, and undo restores the bytes', async () => {
    const report = await scanStoragePath(dir);
    expect(report.totals).toMatchObject({ chunks: 3, records: 10, rejected: 1, rejectedRecords: 5, torn: 1 });
    expect(report.streams.map((s) => [s.name, s.plugin, s.instance, s.records])).toEqual([
      ['dummy.0', 'dummy', 0, 5],
      ['tail.1', 'tail', 1, 5],
    ]);
    const plan = await planSalvage(report, { skipProcessCheck: true });
    expect(plan.steps.map((s) => path.relative(dir, s.target))).toEqual(['dummy.0/100-1700000000.1.flb', 'tail.1/100-1700000001.2.flb']);
    expect(plan.details).toMatchObject({ kind: 'salvage', chunks: [{ records: 5, cutBytes: 0 }, { records: 3 }] });
    const tornCut = plan.details?.kind === 'salvage' ? plan.details.chunks[1].cutBytes : 0;
    expect(tornCut).toBe(Buffer.from(encode([1700000003, { n: 3 }])).length - 3);
    const before = readFileSync(path.join(dir, 'dummy.0', '100-1700000000.1.flb'));

    const result = await applyPlan(plan, { skipProcessCheck: true });
    expect(result).toMatchObject({ applied: true, verified: true });
    const after = await scanStoragePath(dir);
    expect(after.totals).toMatchObject({ records: 10, rejected: 0, torn: 0 });
    expect(after.streams.flatMap((s) => s.chunks.map((c) => c.crc))).toEqual(['valid', 'valid', 'valid']);
    expect(readdirSync(path.join(dir, 'dummy.0'))).toEqual(['100-1700000000.1.flb']); // no temp left

    const undo = await undoLast(dir, { skipProcessCheck: true });
    expect(undo.applied).toBe(true);
    expect(readFileSync(path.join(dir, 'dummy.0', '100-1700000000.1.flb')).equals(before)).toBe(true);
  });

  it('refuses a chunk that changed after the plan, writing nothing', async () => {
    const plan = await planSalvage(await scanStoragePath(dir), { skipProcessCheck: true });
    const f = path.join(dir, 'tail.1', '100-1700000001.2.flb');
    const changed = Buffer.from(readFileSync(f));
    changed[40] ^= 1;
    writeFileSync(f, changed);
    const other = readFileSync(path.join(dir, 'dummy.0', '100-1700000000.1.flb'));
    await expect(applyPlan(plan, { skipProcessCheck: true })).rejects.toThrow(/changed since the plan was made/);
    expect(readFileSync(path.join(dir, 'dummy.0', '100-1700000000.1.flb')).equals(other)).toBe(true);
  });

  it('with storage.checksum off only torn records are salvaged', async () => {
    const report = await scanStoragePath(dir, { config: { files: [], format: 'classic', outputs: [], warnings: [], service: { 'storage.checksum': 'off' } } });
    expect(report.totals.rejected).toBe(0);
    const plan = await planSalvage(report, { skipProcessCheck: true });
    expect(plan.steps.map((s) => path.relative(dir, s.target))).toEqual(['tail.1/100-1700000001.2.flb']);
    expect(report.limits.effects.join(' ')).toMatch(/storage.max_chunks_up 128: the 3 chunk\(s\) \(after salvage\) fit/);
  });

  it('reads storage.checksum and the limits from a YAML service section and says what they do', async () => {
    const yaml = path.join(dir, '..', `${path.basename(dir)}.yaml`);
    writeFileSync(
      yaml,
      `service:\n  storage.path: ${dir}\n  storage.checksum: on\n  storage.max_chunks_up: 2\n  storage.backlog.mem_limit: 8K\npipeline:\n  outputs:\n    - name: stdout\n      match: "*"\n      storage.total_limit_size: 1M\n`,
    );
    try {
      const config = await loadFluentBitConfig(yaml);
      expect(config.service?.['storage.path']).toBe(dir);
      const r = await scanStoragePath(dir, { config });
      expect(r.limits).toMatchObject({ checksum: true, maxChunksUp: 2 });
      const text = r.limits.effects.join('\n');
      expect(text).toMatch(/storage.max_chunks_up 2: 3 chunks \(after salvage\) exceed it/);
      expect(text).toMatch(/storage.backlog.mem_limit .*more than the limit/);
      expect(text).toMatch(/stdout.0 storage.total_limit_size .* is under it/);
    } finally {
      rmSync(yaml, { force: true });
    }
  });
});
