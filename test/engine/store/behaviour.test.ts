/** scanStore as a tool: bad input, progress, cancel, never writing, reading chunks, watching, fuzz. */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Progress } from '../../../shared/model';
import { readChunk, readRecords, scanStore, StoreError, liveWatch } from '../../../electron/engine/store';
import { encodeChunk } from '../../../electron/engine/chunk';
import { EDGE_BUCKET, generateEdgeCaseStore, generateStore, jsonLines, type EdgeCaseStore } from '../../fixtures/generate';
import { packDir } from '../../fixtures/tar';

let tmp: string;
let edge: EdgeCaseStore;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-beh-'));
  edge = await generateEdgeCaseStore(path.join(tmp, 'store'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Every entry under `dir` with its type, size, mtime and content hash. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: Buffer) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true, encoding: 'buffer' })) {
      const p = Buffer.concat([d, Buffer.from('/'), e.name as unknown as Buffer]);
      const st = fs.lstatSync(p);
      const hash = e.isFile() ? createHash('sha1').update(fs.readFileSync(p)).digest('hex') : '';
      out.set(p.toString('hex'), `${st.mode}:${st.size}:${st.mtimeMs}:${hash}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(Buffer.from(dir));
  return out;
}

describe('bad input', () => {
  it('throws a StoreError naming the path for a missing path, a non-store file, an empty file and a symlink loop', async () => {
    const missing = path.join(tmp, 'nope');
    await expect(scanStore(missing)).rejects.toThrow(StoreError);
    await expect(scanStore(missing)).rejects.toThrow(/nope: no such file/);
    const text = path.join(tmp, 'notes.txt');
    fs.writeFileSync(text, 'hello');
    await expect(scanStore(text)).rejects.toThrow(/notes\.txt: not a store/);
    const empty = path.join(tmp, 'empty.tar.gz');
    fs.writeFileSync(empty, '');
    await expect(scanStore(empty)).rejects.toThrow(/empty\.tar\.gz/);
    const loop = path.join(tmp, 'loop');
    fs.symlinkSync(loop, loop);
    await expect(scanStore(loop)).rejects.toThrow(/symlink loop/);
    const junk = path.join(tmp, 'junk.tar.gz');
    fs.writeFileSync(junk, Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(100, 7)]));
    await expect(scanStore(junk)).rejects.toThrow(/junk\.tar\.gz: unreadable archive/);
    // a folder that holds no store is read, and the report says so (no roots, an error problem)
    const plainDir = path.join(tmp, 'plain-files');
    fs.mkdirSync(plainDir);
    fs.writeFileSync(path.join(plainDir, 'a.txt'), 'x');
    const plain = await scanStore(plainDir);
    expect(plain.roots).toEqual([]);
    expect(plain.problems).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringMatching(/not a Fluent Bit store/) })]);
    expect(plain.source.description).toMatch(/no Fluent Bit store/);
  });

  it('a tree of ordinary folders and files (like /usr/share/doc) is not a store; custom stream names with chunk files are', async () => {
    const docs = path.join(tmp, 'docs');
    for (const pkg of ['bash', 'curl', 'zlib1g']) {
      fs.mkdirSync(path.join(docs, pkg), { recursive: true });
      fs.writeFileSync(path.join(docs, pkg, 'copyright'), 'text');
      fs.writeFileSync(path.join(docs, pkg, 'changelog.gz'), 'zz');
    }
    const notStore = await scanStore(docs);
    expect(notStore.roots).toEqual([]);
    expect(notStore.problems[0].message).toMatch(/not a Fluent Bit store/);
    // a root whose stream folders have custom names but hold files named as Fluent Bit names chunks
    const custom = path.join(tmp, 'custom', 'bkt');
    fs.mkdirSync(path.join(custom, 'replayed-later'), { recursive: true });
    fs.writeFileSync(path.join(custom, 'replayed-later', '6953800178197-3228368509826696576'), encodeChunk({ meta: 'app', content: '{"a":1}\n' }));
    const ok = await scanStore(custom);
    expect(ok.roots.map((r) => r.bucket)).toEqual(['bkt']);
    expect(ok.roots[0].totals.chunks).toBe(1);
  });

  it.skipIf(process.getuid?.() === 0)('reports an unreadable stream as a problem naming it (not as root: root reads every folder)', async () => {
    const { roots } = await generateStore(path.join(tmp, 'perm'), {
      roots: [{ bucket: 'b', streams: [{ name: '2026-01-01T00:00:00', chunks: [{ name: 'c', meta: 't', content: 'x\n' }] }] }],
    });
    const s = path.join(roots.b, '2026-01-01T00:00:00');
    fs.chmodSync(s, 0);
    try {
      const r = await scanStore(path.join(tmp, 'perm'));
      expect(r.problems.some((p) => p.path.endsWith('2026-01-01T00:00:00') && /permission denied/.test(p.message))).toBe(true);
    } finally {
      fs.chmodSync(s, 0o755);
    }
  });
});

describe('progress, cancel and read-only', () => {
  it('reports progress up to done = total and can be cancelled', async () => {
    const events: Progress[] = [];
    const r = await scanStore(edge.storeDir, { onProgress: (p) => events.push(p), concurrency: 2 });
    const last = events[events.length - 1];
    expect(last.total).toBeGreaterThan(20);
    expect(last.done).toBe(last.total);
    expect(last.bytes).toBeGreaterThan(0);
    expect(r.roots).toHaveLength(2);
    const ac = new AbortController();
    ac.abort(new Error('stop now'));
    await expect(scanStore(edge.storeDir, { signal: ac.signal })).rejects.toThrow('stop now');
    const tarFile = packDir(edge.storeDir, path.join(tmp, 'p.tar.gz'));
    await expect(scanStore(tarFile, { signal: ac.signal })).rejects.toThrow('stop now');
  });

  it('never writes: every byte, size and mtime is unchanged after scanning and reading (legacy chunks included)', async () => {
    const before = snapshot(edge.storeDir);
    await scanStore(edge.storeDir);
    await scanStore(edge.root, { records: false });
    await readChunk(edge.storeDir, edge.root, '2026-01-01T00:00:00/legacy-padded');
    await readRecords(edge.storeDir, edge.root, '2026-01-01T00:00:00/legacy-padded', 0, 10);
    expect(snapshot(edge.storeDir)).toEqual(before);
  });
});

describe('readChunk / readRecords', () => {
  it('reads one chunk from a folder and from an archive identically', async () => {
    const tarFile = packDir(edge.storeDir, path.join(tmp, 'r.tar.gz'));
    const a = await readChunk(edge.storeDir, edge.root, '2026-01-01T00:00:00/ok-iso', { content: true });
    const b = await readChunk(tarFile, `${tarFile}!/store/${EDGE_BUCKET}`, '2026-01-01T00:00:00/ok-iso', { content: true });
    expect(a.info).toMatchObject({ status: 'ok', tag: 'app.web', records: 5, path: '2026-01-01T00:00:00/ok-iso' });
    expect(a.meta.toString()).toBe('app.web');
    expect(a.content.toString()).toBe(jsonLines(5, { start: Date.UTC(2026, 0, 1) / 1000 }));
    expect(a.headerHex).toHaveLength(48);
    expect(b.content.equals(a.content)).toBe(true);
    expect(b.info.status).toBe('ok');
    const bad = await readChunk(edge.storeDir, edge.root, '2026-01-01T00:00:00/bad-name-\\xff\\xfe');
    expect(bad.info.status).toBe('ok');
    await expect(readChunk(edge.storeDir, edge.root, '2026-01-01T00:00:00/missing')).rejects.toThrow(/missing: no such file/);
    await expect(readChunk(tarFile, `${tarFile}!/store/${EDGE_BUCKET}`, 'x/missing')).rejects.toThrow(StoreError);
    await expect(readChunk(edge.storeDir, edge.root, '../etc/passwd')).rejects.toThrow(StoreError);
  });

  it('pages records from a folder and from an archive', async () => {
    const tarFile = packDir(edge.storeDir, path.join(tmp, 'rr.tar'), false);
    const p = await readRecords(edge.storeDir, edge.root, '2026-01-01T00:00:00/bad-line-middle', 1, 2);
    expect(p).toMatchObject({ chunkPath: '2026-01-01T00:00:00/bad-line-middle', offset: 1, total: 4, nextOffset: 3 });
    expect(p.records[1]).toEqual({ _raw: 'this is not json' });
    const q = await readRecords(tarFile, `${tarFile}!/store/${EDGE_BUCKET}`, '2026-01-01T00:00:00/bad-line-middle', 1, 2);
    expect(q).toEqual(p);
  });
});

describe('liveWatch', () => {
  it('reports changes in batches and ignores dot entries and .store-doctor/', async () => {
    const dir = path.join(tmp, 'watched');
    await generateStore(dir, { roots: [{ bucket: 'b', streams: [{ name: 's', chunks: [{ name: 'c', meta: 't', content: 'x\n' }] }] }] });
    const seen: string[][] = [];
    const w = liveWatch(dir, (paths) => seen.push(paths), { debounceMs: 50 });
    await new Promise((r) => setTimeout(r, 400));
    fs.mkdirSync(path.join(dir, 'b', '.store-doctor'));
    fs.writeFileSync(path.join(dir, 'b', '.store-doctor', 'journal'), 'x');
    fs.writeFileSync(path.join(dir, 'b', 's', '.tmp-chunk'), 'x');
    fs.writeFileSync(path.join(dir, 'b', 's', 'new-chunk'), 'x');
    const until = Date.now() + 5000;
    while (!seen.flat().some((p) => p.endsWith('new-chunk')) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await w.close();
    const all = seen.flat();
    expect(all.some((p) => p.endsWith('new-chunk'))).toBe(true);
    expect(all.some((p) => p.includes('.store-doctor') || p.includes('.tmp-chunk'))).toBe(false);
  });
});

describe('scanStore fuzz', () => {
  it('survives random bytes in chunk files, seq_index files and names (no throw, no hang)', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: 1, maxLength: 5 }),
        fc.uint8Array({ maxLength: 40 }),
        fc.constantFrom('2026-01-01T00:00:00', 'quarantine', 'multipart_upload_metadata', 'sequence', 'custom'),
        async (files, seq, stream) => {
          const dir = path.join(tmp, `fuzz-${n++}`);
          await generateStore(dir, {
            roots: [{ bucket: 'b', streams: [{ name: stream, chunks: files.map((bytes, i) => ({ name: `f${i}`, bytes })) }], seqIndex: { '0': seq } }],
          });
          const r = await scanStore(dir);
          const chunks = r.roots[0].streams.flatMap((s) => s.chunks);
          expect(chunks).toHaveLength(files.length);
          for (const c of chunks) expect(c.fluentBitAction.length).toBeGreaterThan(5);
          expect(r.roots[0].seqIndex).toHaveLength(1);
          fs.rmSync(dir, { recursive: true, force: true });
        },
      ),
      { numRuns: 60 },
    );
  });
});
