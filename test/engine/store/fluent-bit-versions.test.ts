/**
 * Real snapshots of every Fluent Bit version (test/fixtures/fluent-bit-real/v<version>/<scenario>/,
 * made by test/fluent-bit/harness.ts), read in place: every chunk is read as Fluent Bit reads it —
 * length (also 1.9.10's length-0 chunks, exact size or zero-padded), records, tag, multipart parts,
 * seq index — and diagnosing a version's own store reports no damaged chunk. Driven by each
 * fixture's expected.json (facts read from the files independently of the engine).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DAMAGED_CHUNK_STATUSES, type ChunkInfo } from '../../../shared/model';
import { scanStore } from '../../../electron/engine/store';
import { diagnoseStore } from '../../support/diagnose';

const REAL = path.join(__dirname, '../../fixtures/fluent-bit-real');

interface ExpChunk {
  path: string;
  stream: string;
  fileSize: number;
  crcField: string;
  contentLengthField: number;
  metaLen: number;
  meta: string;
  contentBytes: number;
  legacyLength?: boolean;
  nulInContent?: number;
  payloadKind: 'json_lines' | 'multipart_upload_metadata';
  records?: number;
  firstRecordDate?: string;
  lastRecordDate?: string;
  parts?: { partNumber: number; etag: string }[];
}
interface Stage {
  storeTar?: string;
  store?: { streams: string[]; chunkFiles: ExpChunk[]; seqIndexFiles: Record<string, { value: string }> };
  s3?: { listObjectsV2: string };
}

const cases: { name: string; dir: string; bucket: string; stage: string; s: Stage }[] = [];
for (const v of fs.existsSync(REAL) ? fs.readdirSync(REAL).filter((d) => /^v\d/.test(d)) : [])
  for (const scenario of fs.readdirSync(path.join(REAL, v)).sort()) {
    const dir = path.join(REAL, v, scenario);
    const f = path.join(dir, 'expected.json');
    if (!fs.existsSync(f)) continue;
    const exp = JSON.parse(fs.readFileSync(f, 'utf8')) as { bucket: string; stages: Record<string, Stage> };
    for (const [stage, s] of Object.entries(exp.stages))
      if (s.storeTar && s.store?.chunkFiles.length) cases.push({ name: `${v} ${scenario} ${stage}`, dir, bucket: exp.bucket, stage, s });
  }

describe('real snapshots of every Fluent Bit version', () => {
  it('has snapshots of 1.9.10, 3.2.10, 4.2.8 and 5.1.1', () => {
    const versions = new Set(cases.map((c) => c.name.split(' ')[0]));
    for (const v of ['v1.9.10', 'v3.2.10', 'v4.2.8', 'v5.1.1']) expect(versions).toContain(v);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: every chunk read as Fluent Bit reads it', async (_n, c) => {
    const report = await scanStore(path.join(c.dir, c.s.storeTar!));
    const root = report.roots.find((r) => r.bucket === c.bucket)!;
    expect(root.streams.map((s) => s.name).sort()).toEqual([...c.s.store!.streams].sort());
    const chunks = root.streams.flatMap((s) => s.chunks);
    expect(chunks).toHaveLength(c.s.store!.chunkFiles.length);
    for (const e of c.s.store!.chunkFiles) {
      const rel = e.path.split('/').slice(2).join('/');
      const g = chunks.find((x) => x.path === rel) as ChunkInfo;
      expect(g, rel).toBeDefined();
      expect.soft(DAMAGED_CHUNK_STATUSES, `${rel}: ${g.status} — ${g.message}`).not.toContain(g.status);
      expect
        .soft({ fileSize: g.fileSize, crc: g.crcField, field: g.contentLengthField, meta: g.metaLength, tag: g.tag, length: g.contentLength }, rel)
        .toEqual({
          fileSize: e.fileSize,
          crc: e.crcField,
          field: e.contentLengthField,
          meta: e.metaLen,
          tag: e.meta,
          length: e.contentBytes,
        });
      if (e.payloadKind === 'json_lines')
        expect.soft({ records: g.records, first: g.firstRecordTime, last: g.lastRecordTime }, `${rel} records`).toEqual({
          records: e.records,
          first: e.firstRecordDate ?? null,
          last: e.lastRecordDate ?? null,
        });
      else expect.soft(g.multipart?.parts, `${rel} multipart parts`).toEqual(e.parts);
      // 1.9.10's length-0 chunks: the zero padding Fluent Bit reads (and 1.x uploads) as content
      expect.soft(g.nulTail, `${rel} NUL bytes at the end of the content`).toBe(e.legacyLength ? e.nulInContent : undefined);
    }
    for (const [file, s] of Object.entries(c.s.store!.seqIndexFiles)) expect(root.seqIndex.find((x) => x.fileName === file)?.raw).toBe(s.value);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: diagnose reports no damaged chunk', async (_n, c) => {
    const { diagnosis } = await diagnoseStore({
      storePath: path.join(c.dir, c.s.storeTar!),
      configPath: path.join(c.dir, 'fluent-bit.conf'),
      listing: c.s.s3 ? [path.join(c.dir, c.s.s3.listObjectsV2)] : undefined,
    });
    const damaged = diagnosis.outputs.flatMap((o) => o.findings.filter((f) => f.code === 'CHUNK_DAMAGED'));
    expect(damaged.map((f) => `${f.severity}: ${f.summary} ${f.evidence.slice(0, 2).join(' | ')}`)).toEqual([]);
  });
});
