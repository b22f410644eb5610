/** The generated edge-case store: every status and each trap of docs/fluent-bit-store-format.md#what-a-start-does-with-each-file, as a folder and as archives. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkInfo, RootReport, StoreReport } from '../../../shared/model';
import { scanStore } from '../../../electron/engine/store';
import { EDGE_BUCKET, generateEdgeCaseStore, type EdgeCaseStore } from '../../fixtures/generate';
import { packDir } from '../../fixtures/tar';

let tmp: string;
let edge: EdgeCaseStore;
let report: StoreReport;

const rootOf = (r: StoreReport, bucket = EDGE_BUCKET): RootReport => r.roots.find((x) => x.bucket === bucket) as RootReport;
const chunks = (r: RootReport): Map<string, ChunkInfo> => new Map(r.streams.flatMap((s) => s.chunks.map((c) => [c.path, c] as const)));

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-edge-'));
  edge = await generateEdgeCaseStore(path.join(tmp, 'store'));
  report = await scanStore(edge.storeDir);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('scanStore on the edge-case store_dir', () => {
  it('sees a store_dir with both roots', () => {
    expect(report.source).toMatchObject({ kind: 'store_dir', path: edge.storeDir });
    expect(report.roots.map((r) => r.bucket)).toEqual([EDGE_BUCKET, 'plain']);
    expect(rootOf(report).path).toBe(edge.root);
  });

  it('gives every chunk the expected status, lengths, tag, records, times and Fluent Bit action', () => {
    const got = chunks(rootOf(report));
    expect([...got.keys()].sort()).toEqual(Object.keys(edge.chunks).sort());
    for (const [p, e] of Object.entries(edge.chunks)) {
      const c = got.get(p) as ChunkInfo;
      expect(c.status, p).toBe(e.status);
      expect(c.message.length, p).toBeGreaterThan(10);
      for (const k of ['records', 'contentLength', 'metaLength', 'tag', 'firstRecordTime', 'lastRecordTime'] as const) {
        if (e[k] !== undefined) expect(c[k], `${p} ${k}`).toBe(e[k]);
      }
      if (e.action) expect(c.fluentBitAction, p).toContain(e.action);
      expect(c.nulTail, `${p} nulTail`).toBe(e.nulTail);
    }
  });

  it('keeps the exact metadata bytes of a tag that is not UTF-8', () => {
    const c = chunks(rootOf(report)).get('2026-01-01T00:00:00/non-utf8-tag') as ChunkInfo;
    expect(c.metaHex).toBe(Buffer.concat([Buffer.from('app.'), Buffer.from([0xff, 0xfe])]).toString('hex'));
    expect(report.problems.some((p) => p.message.includes('not valid UTF-8') && p.path.includes('bad-name-\\xff\\xfe'))).toBe(true);
  });

  it('reports what Fluent Bit ignores, with a reason', () => {
    const r = rootOf(report);
    const ignored = [...r.ignored, ...r.streams.flatMap((s) => s.ignored)];
    for (const p of edge.ignored) {
      const i = ignored.find((x) => x.path === p);
      expect(i, p).toBeDefined();
      expect(i!.reason.length).toBeGreaterThan(10);
    }
    expect(ignored.find((x) => x.path === 'link-stream')?.type).toBe('symlink');
    expect(ignored.find((x) => x.path === '2026-01-01T00:00:00/nested')?.reason).toMatch(/inside a stream/);
  });

  it('reads every seq_index by fscanf rules', () => {
    const r = rootOf(report);
    expect(r.seqIndex.map((s) => s.fileName).sort()).toEqual(Object.keys(edge.seqIndex).sort());
    for (const [name, e] of Object.entries(edge.seqIndex)) {
      const s = r.seqIndex.find((x) => x.fileName === name)!;
      expect(s, name).toMatchObject(e);
      expect(s.outputId).toBe(Number(name.slice('seq_index_'.length)));
    }
    expect(r.seqIndex.find((s) => s.fileName === 'seq_index_6')!.raw).toBe('12\\x0a');
    expect(r.seqIndex.find((s) => s.fileName === 'seq_index_1')!.message).toMatch(/refuses to start/);
  });

  it('knows which sequence/ survives a graceful stop', () => {
    expect(rootOf(report).sequence).toMatchObject({
      present: true,
      indexMetadataPresent: true,
      markerChunks: [edge.markerChunk],
      deletedOnGracefulStop: false,
    });
    expect(rootOf(report, 'plain').sequence).toMatchObject({ present: true, markerChunks: [], deletedOnGracefulStop: true });
    expect(rootOf(report, 'plain').streams.find((s) => s.kind === 'sequence')!.fateOnGracefulStop).toMatch(/deleted/);
  });

  it('parses multipart records the way Fluent Bit restores them', () => {
    const got = chunks(rootOf(report));
    for (const [p, e] of Object.entries(edge.multipart)) {
      const mp = got.get(p)!.multipart!;
      expect(
        mp.completeParts.map((x) => x.partNumber),
        p,
      ).toEqual(e.completeParts);
      expect(mp.stoppedAt?.line ?? null, p).toBe(e.stoppedAtLine);
      expect(mp.problems, p).toHaveLength(e.problems);
      expect(mp.uploadId).toBe(e.uploadId);
    }
  });

  it('classifies streams, start times, fates and totals', () => {
    const r = rootOf(report);
    const kinds = Object.fromEntries(r.streams.map((s) => [s.name, s.kind]));
    expect(kinds).toEqual({
      '2026-01-01T00:00:00': 'data',
      '2026-01-02T00:00:00': 'data',
      multipart_upload_metadata: 'multipart',
      quarantine: 'quarantine',
      sequence: 'sequence',
    });
    expect(r.streams.find((s) => s.name === '2026-01-01T00:00:00')!.startTime).toBe('2026-01-01T00:00:00');
    expect(r.streams.find((s) => s.name === '2026-01-02T00:00:00')!.fateOnGracefulStop).toMatch(/^deleted/);
    const all = [...chunks(r).values()];
    expect(r.totals.chunks).toBe(all.length);
    expect(r.totals.damaged).toBe(all.filter((c) => ['too-short', 'bad-magic', 'truncated', 'crc-mismatch'].includes(c.status)).length);
    expect(r.totals.quarantined).toBe(1);
  });

  it('reads a single root given directly', async () => {
    const r = await scanStore(edge.root);
    expect(r.source.kind).toBe('root');
    expect(r.roots).toHaveLength(1);
    const a = chunks(r.roots[0]);
    const b = chunks(rootOf(report));
    for (const [p, c] of b) expect(a.get(p)?.status, p).toBe(c.status);
  });

  it('reads headers only with records:false, still checking CRCs', async () => {
    const r = await scanStore(edge.storeDir, { records: false });
    const got = chunks(rootOf(r));
    expect(got.get('2026-01-01T00:00:00/ok-iso')!.records).toBeNull();
    for (const [p, e] of Object.entries(edge.chunks)) expect(got.get(p)!.status, p).toBe(e.status);
  });
});

describe('scanStore on archives of the edge-case store', () => {
  it.each([true, false])('reads a tar (gzip %s) in place with the same results as the folder', async (gzip) => {
    const tarFile = packDir(edge.storeDir, path.join(tmp, gzip ? 'edge.tar.gz' : 'edge.tar'), gzip);
    const r = await scanStore(tarFile);
    expect(r.source).toMatchObject({ kind: 'archive', archive: { gzip, layout: 'store_dir' }, readOnly: true });
    expect(rootOf(r).path).toBe(`${tarFile}!/store/${EDGE_BUCKET}`);
    // A name that is not UTF-8 travels in a pax record (hdrcharset=BINARY), which tar-stream decodes
    // lossily: it shows with U+FFFD there, and a warning says so.
    const ascii = (m: Map<string, ChunkInfo>) => new Map([...m].filter(([p]) => !p.includes('bad-name-')));
    const a = ascii(chunks(rootOf(r)));
    const b = ascii(chunks(rootOf(report)));
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    expect(r.problems.some((p) => p.path.includes('bad-name-') && /not valid UTF-8/.test(p.message))).toBe(true);
    for (const [p, c] of b) {
      const x = a.get(p)!;
      expect({ s: x.status, r: x.records, t: x.tag, l: x.contentLength, f: x.firstRecordTime, act: x.fluentBitAction }, p).toEqual({
        s: c.status,
        r: c.records,
        t: c.tag,
        l: c.contentLength,
        f: c.firstRecordTime,
        act: c.fluentBitAction,
      });
    }
    expect(rootOf(r).seqIndex.map((s) => [s.fileName, s.status, s.valueText])).toEqual(rootOf(report).seqIndex.map((s) => [s.fileName, s.status, s.valueText]));
  });

  it('reports a truncated archive as a problem naming the file, with what could be read', async () => {
    const full = fs.readFileSync(packDir(edge.storeDir, path.join(tmp, 'full.tar'), false));
    const cut = path.join(tmp, 'cut.tar');
    fs.writeFileSync(cut, full.subarray(0, Math.floor(full.length * 0.6)));
    const r = await scanStore(cut);
    expect(r.problems.some((p) => p.severity === 'error' && p.path.endsWith('cut.tar') && /truncated|corrupt/.test(p.message))).toBe(true);
    const gz = path.join(tmp, 'cut.tar.gz');
    fs.writeFileSync(gz, fs.readFileSync(path.join(tmp, 'edge.tar.gz')).subarray(0, 3000));
    const r2 = await scanStore(gz).catch((e) => e);
    if (r2 instanceof Error) expect(r2.message).toContain('cut.tar.gz');
    else expect(r2.problems.some((p: { path: string }) => p.path.endsWith('cut.tar.gz'))).toBe(true);
  });
});
