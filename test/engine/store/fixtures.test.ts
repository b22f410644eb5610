/**
 * Every real Fluent Bit snapshot (test/fixtures/fluent-bit-real/<scenario>/store-*.tar.gz), read in
 * place, must scan to what its expected.json recorded. Driven by expected.json, nothing hard-coded.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChunkInfo, StoreReport } from '../../../shared/model';
import { scanStore } from '../../../electron/engine/store';

const REAL = path.join(__dirname, '../../fixtures/fluent-bit-real');

interface ExpChunk {
  path: string;
  stream: string;
  fileSize: number;
  mtime: string;
  crcField: string;
  contentLengthField: number;
  metaLen: number;
  meta: string;
  payloadKind: string;
  records?: number;
  firstRecordDate?: string;
  lastRecordDate?: string;
  tag?: string;
  s3Key?: string;
  uploadId?: string;
  parts?: { partNumber: number; etag: string }[];
}
interface ExpStore {
  streams: string[];
  sequenceDirPresent: boolean;
  seqIndexFiles: Record<string, { path: string; value: string; fileSize: number; mtime: string }>;
  chunkFiles: ExpChunk[];
  pendingChunkFiles: number;
  pendingRecords: number;
  pendingRecordsByTag: Record<string, number>;
  quarantinedChunkFiles: number;
  quarantinedRecords: number;
  multipartMetadataFiles: number;
}

const cases: { scenario: string; stage: string; tar: string; bucket: string; store: ExpStore }[] = [];
for (const scenario of fs.readdirSync(REAL).sort()) {
  const f = path.join(REAL, scenario, 'expected.json');
  if (!fs.existsSync(f)) continue;
  const exp = JSON.parse(fs.readFileSync(f, 'utf8'));
  for (const [stage, v] of Object.entries<{ storeTar?: string; store?: ExpStore }>(exp.stages ?? {})) {
    if (v.storeTar && v.store) cases.push({ scenario, stage, tar: path.join(REAL, scenario, v.storeTar), bucket: exp.bucket, store: v.store });
  }
}

function chunksOf(r: StoreReport): ChunkInfo[] {
  return r.roots.flatMap((x) => x.streams.flatMap((s) => s.chunks));
}

describe('real Fluent Bit v5.0.9 snapshots, read in place', () => {
  it('finds every store-*.tar.gz that has an expected.json stage', () => {
    const tars = fs
      .readdirSync(REAL)
      .flatMap((d) => (fs.statSync(path.join(REAL, d)).isDirectory() ? fs.readdirSync(path.join(REAL, d)).filter((f) => /^store-.*\.tar\.gz$/.test(f)) : []));
    expect(cases.length).toBe(tars.length);
    expect(cases.length).toBeGreaterThan(5);
  });

  it.each(cases.map((c) => [`${c.scenario} ${c.stage}`, c] as const))('%s', async (_name, c) => {
    const report = await scanStore(c.tar);
    expect(report.source.kind).toBe('archive');
    expect(report.source.archive?.layout).toBe('store_dir');
    expect(report.problems).toEqual([]);
    const root = report.roots.find((r) => r.bucket === c.bucket);
    if (c.store.streams.length) expect(root, `root ${c.bucket}`).toBeDefined();
    const streams = root ? root.streams.map((s) => s.name) : [];
    expect(streams.sort()).toEqual([...c.store.streams].sort());
    if (root) expect(root.path).toBe(`${c.tar}!/store/${c.bucket}`);

    const chunks = chunksOf(report);
    expect(chunks).toHaveLength(c.store.chunkFiles.length);
    for (const e of c.store.chunkFiles) {
      const rel = e.path.split('/').slice(2).join('/');
      const got = chunks.find((x) => x.path === rel);
      expect(got, rel).toBeDefined();
      const g = got as ChunkInfo;
      expect(g.stream).toBe(e.stream);
      expect(g.status).toBe('ok');
      expect(g.fileSize).toBe(e.fileSize);
      expect(g.crcField).toBe(e.crcField);
      expect(g.contentLengthField).toBe(e.contentLengthField);
      expect(g.contentLength).toBe(e.contentLengthField);
      expect(g.metaLength).toBe(e.metaLen);
      expect(g.tag).toBe(e.meta);
      expect(g.mtime).toBe(e.mtime);
      expect(g.slackZero).toBe(true);
      if (e.payloadKind === 'json_lines') {
        expect(g.tag).toBe(e.tag);
        expect(g.records).toBe(e.records);
        expect(g.firstRecordTime).toBe(e.firstRecordDate);
        expect(g.lastRecordTime).toBe(e.lastRecordDate);
      } else if (e.payloadKind === 'multipart_upload_metadata') {
        expect(g.multipart).toMatchObject({ key: e.s3Key, uploadId: e.uploadId, parts: e.parts, stoppedAt: null, problems: [] });
        expect(g.multipart?.completeParts).toEqual(e.parts);
      }
    }

    const seq = root?.seqIndex ?? [];
    expect(seq.map((s) => s.fileName).sort()).toEqual(Object.keys(c.store.seqIndexFiles).sort());
    for (const [name, e] of Object.entries(c.store.seqIndexFiles)) {
      const s = seq.find((x) => x.fileName === name)!;
      expect(s).toMatchObject({
        valueText: e.value,
        value: Number(e.value),
        fileSize: e.fileSize,
        status: 'ok',
        raw: e.value,
        outputId: Number(name.split('_').pop()),
      });
      expect(s.mtime).toBe(e.mtime);
    }
    expect(root?.sequence.present ?? false).toBe(c.store.sequenceDirPresent);
    if (c.store.sequenceDirPresent) expect(root?.sequence.deletedOnGracefulStop).toBe(true);

    const data = root ? root.streams.filter((s) => s.kind === 'data').flatMap((s) => s.chunks) : [];
    const quarantine = root ? root.streams.filter((s) => s.kind === 'quarantine').flatMap((s) => s.chunks) : [];
    expect(data).toHaveLength(c.store.pendingChunkFiles);
    expect(data.reduce((a, x) => a + (x.records ?? 0), 0)).toBe(c.store.pendingRecords);
    const byTag: Record<string, number> = {};
    for (const x of data) byTag[x.tag as string] = (byTag[x.tag as string] ?? 0) + (x.records ?? 0);
    expect(byTag).toEqual(c.store.pendingRecordsByTag);
    expect(quarantine).toHaveLength(c.store.quarantinedChunkFiles);
    expect(quarantine.reduce((a, x) => a + (x.records ?? 0), 0)).toBe(c.store.quarantinedRecords);
    expect(root ? root.streams.filter((s) => s.kind === 'multipart').flatMap((s) => s.chunks).length : 0).toBe(c.store.multipartMetadataFiles);
    if (root) {
      expect(root.totals).toMatchObject({ damaged: 0, pending: c.store.pendingChunkFiles, quarantined: c.store.quarantinedChunkFiles });
      expect(root.totals.records).toBe(c.store.pendingRecords + c.store.quarantinedRecords);
    }
  });
});
