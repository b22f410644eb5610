/**
 * Issue 9 item 12: resource limits on hostile input.
 * - tar entries with names over PATH_MAX (4096) or pax headers above 64 KiB are rejected with a
 *   clear error (a 2.5 MB .tar.gz of long pax names took memory to 2.9 GB);
 * - `@INCLUDE` fan-out: the same file read twice (Fluent Bit refuses: "Read twice"), include
 *   cycles and more than 1000 files are ConfigErrors, never minutes of parsing;
 * - chunk.inspect / chunk.records read only what they need (no 512 MiB content per request,
 *   a page of records holds at most 16 MiB of lines).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChunk, readRecords, scanStore } from '../../electron/engine/store';
import { ConfigError, loadFluentBitConfig, parseFluentBitConfig } from '../../electron/engine/fluentbit';
import { encodeChunk } from '../../electron/engine/chunk';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-limits-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Hdr = { name: string; type?: 'file' | 'directory' | 'symlink'; size?: number; linkname?: string; pax?: Record<string, string> };

async function tarGz(file: string, entries: { header: Hdr; body?: Buffer }[]): Promise<string> {
  const pack = tar.pack();
  const out = fs.createWriteStream(file);
  const done = new Promise<void>((resolve, reject) => out.on('finish', resolve).on('error', reject));
  pack.pipe(zlib.createGzip()).pipe(out);
  for (const e of entries) {
    await new Promise<void>((resolve, reject) => pack.entry(e.header as never, e.body ?? Buffer.alloc(0), (err) => (err ? reject(err) : resolve())));
  }
  pack.finalize();
  await done;
  return file;
}

const chunk = encodeChunk({ meta: 'app', content: '{"date":1}\n' });
const good: { header: Hdr; body?: Buffer }[] = [
  { header: { name: 'b/2026-01-01T00:00:00/', type: 'directory' } },
  { header: { name: 'b/2026-01-01T00:00:00/1-1', size: chunk.length }, body: chunk },
];

describe('archives: names and pax headers are bounded', () => {
  it('a name longer than PATH_MAX is rejected with a clear error, before more is read', async () => {
    const long = `b/2026-01-01T00:00:00/${'n'.repeat(3_900_000)}`;
    const file = await tarGz(path.join(tmp, 'long.tar.gz'), [...good, { header: { name: long, size: 2 }, body: Buffer.from('xx') }, ...good]);
    expect(fs.statSync(file).size).toBeLessThan(100_000);
    await expect(scanStore(file)).rejects.toThrow(/long\.tar\.gz: archive entry 3 has a name of 3900022 bytes, longer than PATH_MAX \(4096\)/);
  });

  it('a link target longer than PATH_MAX, and a pax header above 64 KiB, are rejected', async () => {
    const link = await tarGz(path.join(tmp, 'link.tar.gz'), [...good, { header: { name: 'b/x', type: 'symlink', linkname: 'l'.repeat(5000) } }]);
    await expect(scanStore(link)).rejects.toThrow(/link target of 5000 bytes, longer than PATH_MAX/);
    const pax = await tarGz(path.join(tmp, 'pax.tar.gz'), [
      ...good,
      { header: { name: 'b/2026-01-01T00:00:00/1-2', size: chunk.length, pax: { comment: 'c'.repeat(200_000) } }, body: chunk },
    ]);
    await expect(scanStore(pax)).rejects.toThrow(/pax\.tar\.gz: archive entry 3 has a pax header of \d+ bytes \(more than 64 KiB\)/);
  });

  it('a normal archive with a long-but-legal name (pax) still scans', async () => {
    const name = `b/2026-01-01T00:00:00/${'n'.repeat(200)}`;
    const file = await tarGz(path.join(tmp, 'ok.tar.gz'), [...good, { header: { name, size: chunk.length }, body: chunk }]);
    const r = await scanStore(file);
    expect(r.roots[0].totals.chunks).toBe(2);
  });
});

describe('@INCLUDE fan-out', () => {
  function conf(dir: string, files: Record<string, string>): string {
    fs.mkdirSync(dir, { recursive: true });
    for (const [n, t] of Object.entries(files)) fs.writeFileSync(path.join(dir, n), t);
    return path.join(dir, 'fluent-bit.conf');
  }

  it('the same file included twice is refused, as Fluent Bit refuses it ("Read twice")', async () => {
    const main = conf(path.join(tmp, 'twice'), {
      'fluent-bit.conf': '@INCLUDE out.conf\n@INCLUDE out.conf\n',
      'out.conf': '[OUTPUT]\n    name stdout\n',
    });
    const e = await loadFluentBitConfig(main).then(
      () => null,
      (x: unknown) => x as ConfigError,
    );
    expect(e).toBeInstanceOf(ConfigError);
    expect(e!.message).toMatch(
      /fluent-bit\.conf:2: @INCLUDE out\.conf: .*out\.conf is already included \(an include cycle or a file included twice: Fluent Bit refuses a file read twice/,
    );
  });

  it('a binary fan-out (each file including the next one twice, 30 levels) ends at once', async () => {
    const files: Record<string, string> = { 'fluent-bit.conf': '@INCLUDE f0.conf\n' };
    for (let i = 0; i < 30; i++) files[`f${i}.conf`] = `@INCLUDE f${i + 1}.conf\n@INCLUDE f${i + 1}.conf\n`;
    files['f30.conf'] = '[OUTPUT]\n    name stdout\n';
    const main = conf(path.join(tmp, 'fan'), files);
    await expect(loadFluentBitConfig(main)).rejects.toThrow(/already included/);
    // each file is read at most once (2^30 reads if the fan-out were followed): counted, not timed
    const reads: string[] = [];
    const io = {
      readFile: async (p: string) => (reads.push(p), fs.readFileSync(p, 'utf8')),
      fileId: async (p: string) => p,
      glob: async (p: string) => [p],
      resolve: (base: string, rel: string) => path.resolve(path.dirname(base), rel),
    };
    await expect(parseFluentBitConfig(files['fluent-bit.conf'], { fileName: main, io })).rejects.toThrow(/already included/);
    expect(reads.length).toBeLessThanOrEqual(Object.keys(files).length);
    expect(new Set(reads).size).toBe(reads.length);
  });

  it('the same real file through a symlink or another path is the same file; a glob of 1001 files is refused', async () => {
    const dir = path.join(tmp, 'alias');
    const main = conf(dir, { 'fluent-bit.conf': '@INCLUDE out.conf\n@INCLUDE ./sub/../alias.conf\n', 'out.conf': '[OUTPUT]\n    name stdout\n' });
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.symlinkSync(path.join(dir, 'out.conf'), path.join(dir, 'alias.conf'));
    await expect(loadFluentBitConfig(main)).rejects.toThrow(/already included/);
    const many = path.join(tmp, 'many');
    const files: Record<string, string> = { 'fluent-bit.conf': '@INCLUDE parts/*.conf\n' };
    fs.mkdirSync(path.join(many, 'parts'), { recursive: true });
    for (let i = 0; i < 1001; i++) fs.writeFileSync(path.join(many, 'parts', `p${String(i).padStart(4, '0')}.conf`), '# empty\n');
    await expect(loadFluentBitConfig(conf(many, files))).rejects.toThrow(/more than 1000 config files/);
  });
});

describe('chunk.inspect / chunk.records read only what they need', () => {
  let root: string;
  beforeAll(() => {
    root = path.join(tmp, 'inspect', 'b');
    const s = path.join(root, '2026-01-01T00:00:00');
    fs.mkdirSync(s, { recursive: true });
    // 64 MiB of content in one data chunk; 40 lines of 4 MiB each in another
    fs.writeFileSync(path.join(s, 'big'), encodeChunk({ meta: 'app', content: Buffer.alloc(64 * 1024 * 1024, 0x61) }));
    const line = `{"msg":"${'x'.repeat(4 * 1024 * 1024)}"}\n`;
    fs.writeFileSync(path.join(s, 'wide'), encodeChunk({ meta: 'app', content: line.repeat(40) }));
  });

  it('chunk.inspect keeps no content of a data chunk (it only needs the info); an explicit caller may ask for it', async () => {
    const r = await readChunk(root, root, '2026-01-01T00:00:00/big');
    expect(r.info).toMatchObject({ status: 'ok', records: 1 });
    expect(r.content.length).toBe(0);
    // the session's chunk.inspect reads it the same way (no content kept)
    const { createEngine, dispatchRequest } = await import('../../electron/engine');
    const e = createEngine({ door: 'host', watch: false });
    try {
      const opened = await dispatchRequest(e, 'store.open', { path: root });
      const storeId = (opened as { ok: true; value: { storeId: string } }).value.storeId;
      const d = await dispatchRequest(e, 'chunk.inspect', { storeId, rootPath: root, chunkPath: '2026-01-01T00:00:00/big' });
      expect(d).toMatchObject({ ok: true, value: { chunk: { status: 'ok' } } });
    } finally {
      await e.dispose();
    }
    // an explicit caller may still ask for the content
    expect((await readChunk(root, root, '2026-01-01T00:00:00/big', { content: true })).content.length).toBe(64 * 1024 * 1024);
  });

  it('a page of records holds at most 16 MiB of lines and says where the next page starts', async () => {
    const p = await readRecords(root, root, '2026-01-01T00:00:00/wide', 0, 1000);
    const bytes = p.records.reduce((n: number, r) => n + JSON.stringify(r).length, 0);
    expect(bytes).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(p.records.length).toBe(3);
    expect(p.total).toBe(40);
    expect(p.nextOffset).toBe(3);
    const next = await readRecords(root, root, '2026-01-01T00:00:00/wide', 3, 1000);
    expect(next.records.length).toBe(3);
    expect(next.nextOffset).toBe(6);
  });
});
