/** `store-doctor scan` run for real (node bin/store-doctor.cjs): JSON shape, human tree, exit codes. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateEdgeCaseStore, generateStore, jsonLines } from '../fixtures/generate';

const ROOT = path.join(__dirname, '../..');
const REAL = path.join(ROOT, 'test/fixtures/fluent-bit-real');
let tmp: string;

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/store-doctor.cjs'), 'scan', ...args], { encoding: 'utf8', cwd: ROOT, timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-cli-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('store-doctor scan', () => {
  it('prints the documented JSON shape for a real snapshot and exits 0', () => {
    const tarFile = path.join(REAL, 'multipart-inflight/store-after-crash.tar.gz');
    const r = run(tarFile, '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    const root = j.roots[0];
    expect(Object.keys(root)).toEqual(expect.arrayContaining(['bucket', 'path', 'streams', 'seqIndex']));
    expect(root.bucket).toBe('fb-multipart');
    const kinds = root.streams.map((s: { kind: string }) => s.kind).sort();
    expect(kinds).toEqual(['data', 'multipart', 'quarantine', 'sequence']);
    const chunk = root.streams.find((s: { kind: string }) => s.kind === 'data').chunks[0];
    for (const k of ['name', 'fileSize', 'metaLength', 'contentLength', 'tag', 'status', 'records', 'firstRecordTime', 'lastRecordTime'])
      expect(chunk).toHaveProperty(k);
    expect(root.seqIndex[0]).toMatchObject({ outputId: 0, raw: '1', value: 1, status: 'ok' });
  });

  it('prints a human tree with problems first and the seq index', async () => {
    const { storeDir } = await generateStore(path.join(tmp, 'human'), {
      roots: [
        {
          bucket: 'logs',
          streams: [{ name: '2026-02-01T08:00:00', chunks: [{ name: 'c1', meta: 'app.web', content: jsonLines(4) }] }],
          seqIndex: { '0': '9' },
        },
      ],
    });
    const r = run(storeDir);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/store_dir with 1 bucket root \(logs\)/);
    expect(r.out).toMatch(/Root logs/);
    expect(r.out).toMatch(/2026-02-01T08:00:00\/\s+\[data\]\s+1 chunk, 4\.0 KiB, 4 records/);
    expect(r.out).toMatch(/tags: app\.web/);
    expect(r.out).toMatch(/seq index seq_index_0 \(output 0\): raw "9" → 9 \[ok\]/);
    const noRec = run(storeDir, '--no-records', '--json');
    expect(JSON.parse(noRec.out).roots[0].streams[0].chunks[0].records).toBeNull();
  });

  it('exits 3 when chunks are damaged and lists them first', async () => {
    const edge = await generateEdgeCaseStore(path.join(tmp, 'edge'));
    const r = run(edge.storeDir);
    expect(r.code).toBe(3);
    const damaged = r.out.indexOf('✗ 2026-01-01T00:00:00/bad-magic');
    expect(damaged).toBeGreaterThan(0);
    expect(damaged).toBeLessThan(r.out.indexOf('2026-01-01T00:00:00/  [data]'));
    expect(run(edge.storeDir, '--json').code).toBe(3);
  });

  it('exits 2 for a missing path, a non-store file, a truncated archive and bad usage', () => {
    const missing = run(path.join(tmp, 'does-not-exist'));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/does-not-exist: no such file or directory/);
    const txt = path.join(tmp, 'x.txt');
    fs.writeFileSync(txt, 'not a store');
    expect(run(txt).code).toBe(2);
    const full = fs.readFileSync(path.join(REAL, 'buffered-backlog-no-ordering/store-after-run1.tar.gz'));
    const cut = path.join(tmp, 'cut.tar.gz');
    fs.writeFileSync(cut, full.subarray(0, Math.floor(full.length / 2)));
    const c = run(cut, '--json');
    expect(c.code).toBe(2);
    expect(JSON.parse(c.out).problems[0].path).toBe(cut);
    expect(run().code).toBe(2);
  });
});
