/**
 * Issue 9 item 10: layout detection from evidence.
 * - a support bundle with store/ next to etc/ and logs/: the store inside is found (and the report
 *   says where), not scanned as a store_dir of three empty roots with a false "index missing";
 * - a tar with an extra absolute entry does not hide the chunks;
 * - a bucket root that is a symlink (Fluent Bit follows it) is read, and the report says so;
 * - an empty folder is not taken as the root of any bucket: repair-index refuses to create
 *   sequence/ in a folder that shows no sign of being that bucket's root, unless forced.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanStore } from '../../../electron/engine/store';
import { rootEvidence } from '../../../electron/engine/store/root-evidence';
import { diagnoseStore as runDiagnosis } from '../../support/diagnose';
import { planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { encodeChunk } from '../../../electron/engine/chunk';
import { generateStore, jsonLines } from '../../fixtures/generate';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-layout-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function bundle(): Promise<string> {
  const b = path.join(tmp, 'bundle');
  await generateStore(path.join(b, 'store'), {
    roots: [
      {
        bucket: 'logs-bucket',
        streams: [{ name: '2026-01-01T00:00:00', chunks: [{ name: '1-1', meta: 'app', content: jsonLines(3) }] }],
        seqIndex: { '0': '7' },
      },
    ],
  });
  fs.mkdirSync(path.join(b, 'etc', 'fluent-bit'), { recursive: true });
  fs.writeFileSync(path.join(b, 'etc', 'fluent-bit', 'fluent-bit.conf'), '[OUTPUT]\n    name s3\n');
  fs.mkdirSync(path.join(b, 'logs'));
  fs.writeFileSync(path.join(b, 'logs', 'fluent-bit.log'), 'started\n');
  return b;
}

describe('a support bundle', () => {
  it('finds the store inside and says where (folder)', async () => {
    const b = await bundle();
    const r = await scanStore(b);
    expect(r.roots.map((x) => [x.bucket, x.path])).toEqual([['logs-bucket', path.join(b, 'store', 'logs-bucket')]]);
    expect(r.roots[0].totals.chunks).toBe(1);
    expect(r.roots[0].seqIndex[0]).toMatchObject({ value: 7 });
    expect(r.source.kind).toBe('store_dir');
    expect(r.source.description).toContain('store found at store/');
    expect(r.problems.some((p) => p.severity === 'info' && p.message.includes(`store found at ${path.join(b, 'store')}`))).toBe(true);
    const d = await runDiagnosis({ storePath: b });
    expect(d.diagnosis.outputs[0].persistedNextIndex).toBe(7);
    expect(d.diagnosis.outputs[0].findings.map((f) => f.code)).not.toContain('INDEX_FILE_MISSING');
  });

  it('finds it in a .tar.gz of the bundle too', async () => {
    const b = await bundle();
    const file = path.join(tmp, 'bundle.tar.gz');
    execFileSync('tar', ['--format=posix', '-C', path.dirname(b), '-czf', file, path.basename(b)]);
    const r = await scanStore(file);
    expect(r.roots.map((x) => x.bucket)).toEqual(['logs-bucket']);
    expect(r.roots[0].totals.chunks).toBe(1);
    expect(r.source.description).toContain('under bundle/store/');
  });
});

describe('a tar with an extra absolute entry', () => {
  it('still shows every chunk', async () => {
    const pack = tar.pack();
    const file = path.join(tmp, 'abs.tar.gz');
    const out = fs.createWriteStream(file);
    const done = new Promise<void>((r) => out.on('finish', () => r()));
    pack.pipe(zlib.createGzip()).pipe(out);
    const c = encodeChunk({ meta: 'app', content: jsonLines(2) });
    pack.entry({ name: 'store/b/2026-01-01T00:00:00/1-1' }, c);
    pack.entry({ name: 'store/b/2026-01-01T00:00:00/1-2' }, c);
    pack.entry({ name: 'store/b/sequence/index_metadata/seq_index_0' }, '4');
    pack.entry({ name: '/etc/hostname' }, 'host\n');
    pack.finalize();
    await done;
    const r = await scanStore(file);
    expect(r.roots.map((x) => x.bucket)).toEqual(['b']);
    expect(r.roots[0].totals.chunks).toBe(2);
    expect(r.problems.some((p) => p.severity === 'warning' && /absolute path/.test(p.message) && p.path.includes('/etc/hostname'))).toBe(true);
  });
});

describe('a symlinked bucket root', () => {
  it('is read through the link (Fluent Bit follows it) and the report says so', async () => {
    const elsewhere = path.join(tmp, 'data');
    const g = await generateStore(elsewhere, {
      roots: [
        { bucket: 'real-b', streams: [{ name: '2026-01-01T00:00:00', chunks: [{ name: '1-1', meta: 'app', content: jsonLines(2) }] }], seqIndex: { '0': '3' } },
      ],
    });
    const store = path.join(tmp, 'store');
    await generateStore(store, {
      roots: [{ bucket: 'a', streams: [{ name: '2026-01-01T00:00:00', chunks: [{ name: 'x', meta: 't', content: jsonLines(1) }] }] }],
    });
    fs.symlinkSync(g.roots['real-b'], path.join(store, 'b'));
    const r = await scanStore(store);
    expect(r.roots.map((x) => x.bucket)).toEqual(['a', 'b']);
    const b = r.roots[1];
    expect(b.totals.chunks).toBe(1);
    expect(b.seqIndex[0].value).toBe(3);
    expect(b.linkTarget).toBe(g.roots['real-b']);
    expect(r.problems.some((p) => p.severity === 'info' && p.path === path.join(store, 'b') && /symlink to .*real-b.*followed/.test(p.message))).toBe(true);
  });

  it('a symlink to a folder that is not a root (e.g. /etc) is not followed', async () => {
    const store = path.join(tmp, 'store');
    await generateStore(store, {
      roots: [{ bucket: 'a', streams: [{ name: '2026-01-01T00:00:00', chunks: [{ name: 'x', meta: 't', content: jsonLines(1) }] }] }],
    });
    fs.symlinkSync('/etc', path.join(store, 'etc'));
    const r = await scanStore(store);
    expect(r.roots.map((x) => x.bucket)).toEqual(['a']);
  });
});

describe('an empty folder is not the root of any bucket', () => {
  it('rootEvidence lists the signs, and none for an empty folder of another name', async () => {
    const empty = path.join(tmp, 'x');
    fs.mkdirSync(empty);
    expect((await rootEvidence(empty, 'b')).signs).toEqual([]);
    const named = path.join(tmp, 'b');
    fs.mkdirSync(named);
    expect((await rootEvidence(named, 'b')).signs.join(' ')).toMatch(/named like the bucket/);
    const g = await generateStore(path.join(tmp, 'st'), { roots: [{ bucket: 'other', streams: [{ name: 'multipart_upload_metadata' }] }] });
    expect((await rootEvidence(g.roots.other, 'b')).signs.join(' ')).toMatch(/multipart_upload_metadata/);
  });

  it('repair-index refuses to create sequence/ there unless forced', async () => {
    const empty = path.join(tmp, 'x');
    fs.mkdirSync(empty);
    const plan = await planIndexRepair({ storePath: empty, rootPath: empty, outputId: 0, safeNextIndex: 5, bucket: 'b', skipProcessCheck: true });
    const refusal = plan.refusals.find((r) => /no sign/.test(r.reason));
    expect(refusal).toMatchObject({ forceable: true });
    expect(refusal!.reason).toContain(`${empty} shows no sign of being the root of bucket b`);
    // an empty folder named like the bucket (a root after a graceful stop) is fine
    const b = path.join(tmp, 'b');
    fs.mkdirSync(b);
    const ok = await planIndexRepair({ storePath: b, rootPath: b, outputId: 0, safeNextIndex: 5, bucket: 'b', skipProcessCheck: true });
    expect(ok.refusals).toEqual([]);
  });
});

describe('a root that holds only Store Doctor’s own folder', () => {
  // After repair-index then undo on a store of a graceful stop, the bucket folder holds only
  // .store-doctor/journal.jsonl: it is still that bucket's root (and the journal says so).
  it('is found as the root of its bucket, in a store_dir and opened directly', async () => {
    const root = path.join(tmp, 'store', 'logs-bucket');
    fs.mkdirSync(path.join(root, '.store-doctor'), { recursive: true });
    fs.writeFileSync(path.join(root, '.store-doctor', 'journal.jsonl'), '');
    const viaStore = await scanStore(path.join(tmp, 'store'));
    expect(viaStore.roots.map((r) => r.bucket)).toEqual(['logs-bucket']);
    const direct = await scanStore(root);
    expect(direct.roots.map((r) => r.bucket)).toEqual(['logs-bucket']);
  });

  it('a folder of ordinary folders with dot-files is still not a store', async () => {
    const top = path.join(tmp, 'home');
    fs.mkdirSync(path.join(top, 'docs', '.git'), { recursive: true });
    fs.writeFileSync(path.join(top, 'docs', 'notes.txt'), 'x');
    expect((await scanStore(top)).roots).toEqual([]);
  });
});
