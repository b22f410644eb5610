/**
 * Per-stream caches on the scan report (store/stream-facts.ts for the diagnosis, the stream
 * digests of session/fingerprint.ts for a plan's basis): kept by stream object, so they must give
 * exactly what a walk of every chunk gives — on the first call, on a report that shares unchanged
 * streams with an earlier one, and on a stream whose chunk list was replaced.
 */
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreReport, StreamInfo } from '../../../shared/model';
import { mergeStoreUpdate } from '../../../shared/store-update';
import { refreshRoot } from '../../../electron/engine/store/refresh';
import { scanStore } from '../../../electron/engine/store/scan';
import { streamFacts } from '../../../electron/engine/store/stream-facts';
import { storeFingerprint } from '../../../electron/engine/session/fingerprint';
import { generateStore, jsonLines } from '../../fixtures/store-gen';
import { tempDir } from '../../support/fixtures';

let t: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  t?.cleanup();
  t = null;
});

/** A root with a data stream (ok, a legacy-length chunk, one with a bad magic), a zero-byte chunk and a second data stream. */
async function store(): Promise<{ storeDir: string; root: string }> {
  t = tempDir('sd-stream-facts-');
  const g = await generateStore(path.join(t.dir, 'store'), {
    roots: [
      {
        bucket: 'logs',
        streams: [
          {
            name: '2026-01-01T00:00:00',
            chunks: [
              { name: '1-1.flb', meta: 'app.web', content: jsonLines(3) },
              { name: '1-2.flb', meta: 'app.db', content: jsonLines(2), contentLengthField: 0, pageSize: 4096 },
              { name: '1-3.flb', meta: 'app.web', content: jsonLines(4), mutate: (b) => ((b[0] = 0), b) },
              { name: '1-4.flb', bytes: new Uint8Array(0) },
            ],
          },
          { name: '2026-01-01T00:01:00', chunks: [{ name: '2-1.flb', meta: 'app.web', content: jsonLines(5) }] },
        ],
        seqIndex: { '0': '7' },
      },
    ],
  });
  return { storeDir: g.storeDir, root: g.roots.logs };
}

/** The facts by a plain walk of the stream's chunks. */
function walked(s: StreamInfo) {
  const damaged = ['too-short', 'bad-magic', 'truncated', 'crc-mismatch'];
  const ok = s.chunks.filter((c) => !damaged.includes(c.status));
  return {
    ok: ok.map((c) => c.name),
    okPaths: ok.map((c) => c.path),
    okRecords: ok.reduce((a, c) => a + (c.records ?? 0), 0),
    okContentLength: ok.reduce((a, c) => a + (c.contentLength ?? 0), 0),
    okTags: [...new Set(ok.map((c) => c.tag ?? ''))],
    damaged: s.chunks.filter((c) => damaged.includes(c.status)).map((c) => c.name),
    zeroByte: s.chunks.filter((c) => c.status === 'zero-byte').map((c) => c.name),
    legacy: s.chunks.filter((c) => c.status === 'legacy-length').map((c) => c.name),
    withLength: s.chunks.filter((c) => c.status === 'ok' && (c.contentLengthField ?? 0) > 0).map((c) => c.name),
    bytes: s.chunks.reduce((a, c) => a + c.fileSize, 0),
    oldestMs: s.chunks.length ? Math.min(...s.chunks.map((c) => Date.parse(c.firstRecordTime ?? c.mtime!))) : null,
  };
}
const names = (s: StreamInfo) => {
  const f = streamFacts(s);
  return {
    ...f,
    ok: f.ok.map((c) => c.name),
    damaged: f.damaged.map((c) => c.name),
    zeroByte: f.zeroByte.map((c) => c.name),
    legacy: f.legacy.map((c) => c.name),
    withLength: f.withLength.map((c) => c.name),
  };
};
const copy = (r: StoreReport): StoreReport => JSON.parse(JSON.stringify(r));

describe('per-stream caches of the scan report', () => {
  it('give what a walk of every chunk gives, on every kind of chunk', async () => {
    const { storeDir } = await store();
    const report = await scanStore(storeDir);
    const stream = report.roots[0].streams.find((s) => s.name === '2026-01-01T00:00:00')!;
    expect(stream.chunks.map((c) => c.status).sort()).toEqual(['bad-magic', 'legacy-length', 'ok', 'zero-byte']);
    for (const s of report.roots[0].streams) {
      expect(names(s)).toEqual(walked(s));
      expect(names(s)).toEqual(walked(s)); // the cached answer, the same
    }
    // the fingerprint of a report does not depend on what was cached before
    expect(storeFingerprint(report, null)).toBe(storeFingerprint(copy(report), null));
  });

  it('a refresh that replaces one stream changes its facts and the fingerprint; an unchanged report keeps both', async () => {
    const { storeDir, root } = await store();
    const before = await scanStore(storeDir);
    const print = storeFingerprint(before, root);
    const kept = before.roots[0].streams.find((s) => s.name === '2026-01-01T00:01:00')!;
    expect(streamFacts(kept).okRecords).toBe(5);
    // a chunk of the second stream is gone (uploaded), another one came
    rmSync(path.join(root, '2026-01-01T00:01:00', '2-1.flb'));
    writeFileSync(path.join(root, '2026-01-01T00:01:00', '2-2.flb'), Buffer.alloc(0));
    const r = await refreshRoot(before.roots[0], [path.join(root, '2026-01-01T00:01:00')]);
    const after = mergeStoreUpdate(before, [r.update]);
    const changed = after.roots[0].streams.find((s) => s.name === '2026-01-01T00:01:00')!;
    const same = after.roots[0].streams.find((s) => s.name === '2026-01-01T00:00:00')!;
    expect(changed).not.toBe(kept);
    expect(same).toBe(before.roots[0].streams.find((s) => s.name === '2026-01-01T00:00:00'));
    expect(names(changed)).toEqual(walked(changed));
    expect(streamFacts(changed).zeroByte.map((c) => c.name)).toEqual(['2-2.flb']);
    expect(storeFingerprint(after, root)).not.toBe(print);
    expect(storeFingerprint(after, root)).toBe(storeFingerprint(copy(after), root));
    expect(storeFingerprint(before, root)).toBe(print);
  });

  it('a stream object whose chunk list was replaced is walked again', async () => {
    const { storeDir } = await store();
    const report = await scanStore(storeDir);
    const s = report.roots[0].streams.find((x) => x.name === '2026-01-01T00:00:00')!;
    const print = storeFingerprint(report, null);
    expect(streamFacts(s).ok).toHaveLength(3);
    (s as { chunks: StreamInfo['chunks'] }).chunks = s.chunks.filter((c) => c.status === 'ok');
    expect(names(s)).toEqual(walked(s));
    expect(streamFacts(s).ok).toHaveLength(1);
    expect(storeFingerprint(report, null)).not.toBe(print);
  });
});
