/**
 * The suite's own instruments, checked without Fluent Bit (runs in the unit suite): binary
 * discovery, the independent chunk reader, record parsing, the overwrite diff, the config writer.
 * A wrong instrument would make every scenario's "0 overwritten, exactly once" meaningless.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareVersions, discoverFluentBit, parseVersionOutput } from './binaries';
import { overwritten, type BucketSnapshot } from './bucket';
import { renderConfig } from './config';
import { parseJsonLines } from './records';
import { parseParts, readChunk } from './store';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sd-fb-support-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function fakeBinary(dir: string, script: string): string {
  const p = path.join(dir, 'bin', 'fluent-bit');
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, `#!/bin/sh\n${script}\n`);
  chmodSync(p, 0o755);
  return p;
}

describe('binary discovery', () => {
  const dir = path.join(tmp, 'fb');
  fakeBinary(path.join(dir, '5.0.9'), 'echo "Fluent Bit v5.0.9"; echo "Git commit: "');
  fakeBinary(path.join(dir, 'old'), 'echo "Fluent Bit v1.9.10"');
  fakeBinary(path.join(dir, 'broken'), 'exit 3');
  mkdirSync(path.join(dir, 'empty'));

  it('reads the version from --version, not from the folder name; sorts; lists broken binaries', () => {
    const d = discoverFluentBit({ FLUENT_BIT_DIR: dir });
    expect(d.binaries.map((b) => [b.version, b.major])).toEqual([
      ['1.9.10', 1],
      ['5.0.9', 5],
    ]);
    expect(d.broken.map((b) => path.relative(dir, b.path))).toEqual(['broken/bin/fluent-bit']);
    expect(d.skipReason).toBeNull();
  });

  it('FLUENT_BIT_VERSIONS filters and names what it did not find', () => {
    const d = discoverFluentBit({ FLUENT_BIT_DIR: dir, FLUENT_BIT_VERSIONS: '5.0.9, 4.2.8' });
    expect(d.binaries.map((b) => b.version)).toEqual(['5.0.9']);
    expect(d.skipReason).toBe(`FLUENT_BIT_VERSIONS asks for 4.2.8, not found in FLUENT_BIT_DIR=${dir}`);
  });

  it('FLUENT_BIT_BIN wins; nothing set means nothing runs, with the reason', () => {
    expect(discoverFluentBit({ FLUENT_BIT_BIN: path.join(dir, '5.0.9/bin/fluent-bit'), FLUENT_BIT_DIR: '/nonexistent' }).binaries).toHaveLength(1);
    expect(discoverFluentBit({})).toEqual({ binaries: [], skipReason: 'neither FLUENT_BIT_BIN nor FLUENT_BIT_DIR is set', broken: [] });
    expect(discoverFluentBit({ FLUENT_BIT_DIR: path.join(dir, 'empty') }).skipReason).toMatch(/no <version>\/bin\/fluent-bit in it/);
  });

  it('parses banners and compares dotted versions numerically', () => {
    expect(parseVersionOutput('Fluent Bit v3.2.10\nGit commit: \n')).toBe('3.2.10');
    expect(parseVersionOutput('fluent-bit 3.2.10')).toBeNull();
    expect(compareVersions('1.9.10', '3.2.10')).toBeLessThan(0);
    expect(compareVersions('5.0.10', '5.0.9')).toBeGreaterThan(0);
  });
});

function chunk(tag: string, content: string, opts: { lengthField?: number; size?: number } = {}): string {
  const meta = Buffer.from(tag);
  const body = Buffer.from(content);
  const size = opts.size ?? 24 + meta.length + body.length;
  const b = Buffer.alloc(size);
  b[0] = 0xc1;
  b.writeUInt32BE(opts.lengthField ?? body.length, 10);
  b.writeUInt16BE(meta.length, 22);
  meta.copy(b, 24);
  body.copy(b, 24 + meta.length);
  const f = path.join(tmp, `chunk-${Math.random().toString(36).slice(2)}`);
  writeFileSync(f, b, { mode: 0o600 });
  return f;
}

describe('independent chunk reader', () => {
  const lines = '{"a":1}\n{"a":2}\n';
  it('length field set, page padded: content = field, the rest is slack', () => {
    const c = readChunk(chunk('app.web', lines, { size: 4096 }), 's/x', 's');
    expect(c).toMatchObject({
      contentLengthField: 16,
      contentBytes: 16,
      legacyLength: false,
      slackBytes: 4096 - 24 - 7 - 16,
      nulInContent: 0,
      pagePadded: true,
    });
    expect(c.lines?.records).toEqual(['{"a":1}', '{"a":2}']);
  });
  it('1.9.10 at a graceful stop: field 0, exact size → the rest of the file, no NUL', () => {
    const c = readChunk(chunk('app.web', lines, { lengthField: 0 }), 's/x', 's');
    expect(c).toMatchObject({ contentLengthField: 0, contentBytes: 16, legacyLength: true, slackBytes: 0, nulInContent: 0, pagePadded: false });
  });
  it('1.9.10 after SIGKILL: field 0, page padded → the padding is content (NUL bytes counted), records intact', () => {
    const c = readChunk(chunk('app.web', lines, { lengthField: 0, size: 4096 }), 's/x', 's');
    expect(c).toMatchObject({ contentBytes: 4096 - 31, legacyLength: true, nulInContent: 4096 - 31 - 16 });
    expect(c.lines).toMatchObject({ records: ['{"a":1}', '{"a":2}'], nulBytes: 4096 - 31 - 16, bad: [] });
  });
  it('field 0 and a NUL first byte: an empty chunk, not legacy', () => {
    expect(readChunk(chunk('m', '', { lengthField: 0, size: 4096 }), 's/x', 's')).toMatchObject({ contentBytes: 0, legacyLength: false });
  });
  it('multipart records: lines as Fluent Bit parses them, stopping at a bad line', () => {
    expect(parseParts('part_number=1\tetag=aa\npart_number=1\tetag=bb\n\0\0\0')).toEqual([
      { partNumber: 1, etag: 'aa' },
      { partNumber: 1, etag: 'bb' },
    ]);
    expect(parseParts('part_number=1\tetag=aa\nbroken\npart_number=2\tetag=cc\n')).toEqual([{ partNumber: 1, etag: 'aa' }]);
  });
  it('JSON lines: NUL runs removed and counted, non-JSON lines reported', () => {
    expect(parseJsonLines(Buffer.from('{"a":1}\n\0\0{"b":2}\nnot json\n'))).toEqual({ records: ['{"a":1}', '{"b":2}'], nulBytes: 2, bad: ['not json'] });
  });
});

describe('overwrite diff', () => {
  const o = (key: string, etag: string, lastModified = '2026-12-01T00:00:00.000Z') => ({ key, etag, size: 1, lastModified });
  const snap = (objects: ReturnType<typeof o>[], versions: string[] = []): BucketSnapshot => ({
    bucket: 'b',
    takenAt: '',
    objects,
    versions: versions.map((k, i) => ({ ...o(k, `"v${i}"`), versionId: String(i), isLatest: true })),
    deleteMarkers: [],
    uploads: [],
  });
  it('same key with another ETag, a later write, a new version, or gone; new keys are not overwrites', () => {
    const before = snap([o('a', '"1"'), o('b', '"2"'), o('c', '"3"'), o('d', '"4"'), o('e', '"5"')], ['c']);
    const after = snap([o('a', '"9"'), o('b', '"2"', '2026-12-01T00:00:05.000Z'), o('c', '"3"'), o('e', '"5"'), o('new', '"6"')], ['c', 'c']);
    expect(overwritten(before, after).map((x) => [x.key, x.why.split(' ')[0]])).toEqual([
      ['a', 'ETag'],
      ['b', 'written'],
      ['c', 'new'],
      ['d', 'gone'],
    ]);
    expect(overwritten(before, before)).toEqual([]);
  });
});

describe('config writer', () => {
  const spec = (major: number) =>
    renderConfig({
      major,
      runId: 'r1',
      inputs: [{ tag: 'app.web', rate: 5, record: { msg: 'x' } }],
      outputs: [{ bucket: 'b', endpoint: 'http://127.0.0.1:1', storeDir: '/s', keyFormat: '/$TAG/$INDEX' }],
    });
  it('tls Off and net.keepalive Off only for 1.x/2.x; every record says its run and tag', () => {
    expect(spec(1)).toMatch(/tls\s+Off/);
    expect(spec(1)).toMatch(/net\.keepalive\s+Off/);
    expect(spec(5)).not.toMatch(/tls|keepalive/);
    expect(spec(5)).toMatch(/dummy\s+\{"run":"r1","tag":"app.web","msg":"x"\}/);
  });
});
