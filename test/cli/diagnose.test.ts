import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectConforms } from '../support/json-schemas';

const ROOT = path.resolve(__dirname, '../..');
const FIX = path.join(ROOT, 'test/fixtures/fluent-bit-real');
const f = (scenario: string, file: string) => path.join(FIX, scenario, file);

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/store-doctor.cjs'), ...args], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

describe('store-doctor diagnose', { timeout: 120_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sd-diag-cli-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('index-reset after run 2: --json with the index summary and findings, exit 4', async () => {
    const r = await cli([
      'diagnose',
      f('index-reset', 'store-after-run2.tar.gz'),
      '--config',
      f('index-reset', 'fluent-bit.conf'),
      '--listing',
      f('index-reset', 's3api-list-objects-v2-after-run2.json'),
      '--json',
    ]);
    expect(r.code).toBe(4);
    const j = JSON.parse(r.stdout);
    expect(j.outputs).toHaveLength(1);
    const o = j.outputs[0];
    expect(o).toMatchObject({
      id: 0,
      bucket: 'fb-index-reset',
      keyFormat: '/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX',
      persistedNextIndex: null,
      highestIndexInBucket: 11,
      safeNextIndex: 12,
    });
    const codes = o.findings.map((x: { code: string }) => x.code);
    expect(codes).toEqual(expect.arrayContaining(['INDEX_FILE_MISSING', 'INDEX_REUSED']));
    expect(codes).not.toContain('OVERWRITE_RISK');
    for (const x of o.findings) {
      expect(Object.keys(x)).toEqual(expect.arrayContaining(['code', 'severity', 'summary', 'evidence', 'action']));
      expect(Array.isArray(x.evidence)).toBe(true);
    }
    expect(o.findings.find((x: { code: string }) => x.code === 'INDEX_FILE_MISSING').commands.join('\n')).toContain('store-doctor repair-index');
  });

  it('no config, a bucket root whose sequence/ a graceful stop deleted: INDEX_STATE_UNKNOWN, exit 7 (incomplete), never "no findings"', async () => {
    const store = f('index-reset', 'store-after-run2.tar.gz');
    const r = await cli(['diagnose', store]);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).not.toMatch(/no findings/);
    expect(r.stdout).toMatch(/root fb-index-reset: INDEX STATE UNKNOWN \(no config, no seq_index file\)/);
    expect(r.stdout).toMatch(
      /WARNING INDEX_STATE_UNKNOWN: Index state of root fb-index-reset unknown: if an output on this root uses \$INDEX, a graceful stop deleted its index/,
    );
    expect(r.stdout).toMatch(/Result: INCOMPLETE — the index state of fb-index-reset is unknown/);
    const j = await cli(['diagnose', store, '--json']);
    expect(j.code).toBe(7);
    const d = JSON.parse(j.stdout);
    expect(d.checks).toMatchObject({ complete: false, roots: [{ bucket: 'fb-index-reset', index: 'unknown' }] });
    expect(d.storeFindings.map((x: { code: string }) => x.code)).toContain('INDEX_STATE_UNKNOWN');
    // with the config the index state is known: the findings decide the exit code
    expect((await cli(['diagnose', store, '--config', f('index-reset', 'fluent-bit.conf')])).code).toBe(4);
  });

  it('--max-evidence-age: a listing file older than the limit is stale — no safe index, repair-index refused until listed again', async () => {
    const listing = path.join(dir, 'old-listing.json');
    await copyFile(f('index-reset', 's3api-list-objects-v2-after-run2.json'), listing);
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await utimes(listing, twoHoursAgo, twoHoursAgo);
    const args = [f('index-reset', 'store-after-run2.tar.gz'), '--config', f('index-reset', 'fluent-bit.conf'), '--listing', listing];
    const fresh = JSON.parse((await cli(['diagnose', ...args, '--max-evidence-age', '180', '--json'])).stdout);
    expect(fresh.outputs[0]).toMatchObject({
      safeNextIndex: 12,
      highestIndexScope: 'bucket',
      indexEvidence: { coverage: 'complete', listedAt: twoHoursAgo.toISOString() },
    });
    const r = await cli(['diagnose', ...args, '--max-evidence-age', '60', '--json']);
    const o = JSON.parse(r.stdout).outputs[0];
    expect(o).toMatchObject({ safeNextIndex: null, highestIndexScope: 'stale-listing', indexEvidence: { coverage: 'stale' } });
    expect(o.indexEvidence.text).toMatch(
      /^stale evidence: the listing was taken .*, 120 min ago, older than the limit of 60 min: list again \(export the listing file again: its file time is the listing time\)/,
    );
    const text = await cli(['diagnose', ...args, '--max-evidence-age', '60']);
    expect(text.stdout).toMatch(/bucket evidence STALE listing \(list again: re-run with --live, or export the --listing file again\)/);
    expect(text.stdout).toMatch(/highest in a stale listing 11/);
    const rep = await cli(['repair-index', ...args, '--max-evidence-age', '60']);
    expect(rep.code).toBe(5);
    expect(rep.stdout).toMatch(/repair-index REFUSED: .*stale evidence: the listing was taken/);
    expect((await cli(['diagnose', ...args, '--max-evidence-age', 'soon'])).code).toBe(2);
  });

  it('crash-during-run after the crash: human output, exit 0 (nothing above warning)', async () => {
    const r = await cli([
      'diagnose',
      f('crash-during-run', 'store-after-crash.tar.gz'),
      '--config',
      f('crash-during-run', 'fluent-bit.conf'),
      '--output',
      's3.0',
      '--listing',
      f('crash-during-run', 's3api-list-objects-v2-after-crash.json'),
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/persisted index 6 +highest in bucket 5 +safe next index 6/);
    expect(r.stdout).toMatch(/WARNING BUFFERED_BACKLOG: 3 chunks \(804 records/);
    expect(r.stdout).toMatch(/→ /);
  });

  it('a generated store with /logs/segment_$INDEX and an aws s3api listing: OVERWRITE_RISK, exit 4', async () => {
    const store = path.join(dir, 'store');
    await mkdir(path.join(store, 'seg-bucket'), { recursive: true });
    const conf = path.join(dir, 'fluent-bit.conf');
    await writeFile(
      conf,
      `[OUTPUT]\n    name stdout\n    match *\n[OUTPUT]\n    name s3\n    match *\n    bucket seg-bucket\n    store_dir ${store}\n    s3_key_format /logs/segment_$INDEX\n`,
    );
    const listing = path.join(dir, 'listing.json');
    await writeFile(
      listing,
      JSON.stringify({
        Contents: [0, 1, 2].map((i) => ({
          Key: `logs/segment_${i}`,
          LastModified: '2026-11-28T10:00:00+00:00',
          ETag: '"x"',
          Size: 5,
          StorageClass: 'STANDARD',
        })),
        Name: 'seg-bucket',
      }),
    );
    const r = await cli(['diagnose', store, '--config', conf, '--listing', listing, '--json', '--at', '2026-11-29T20:00:00Z']);
    expect(r.code).toBe(4);
    const o = JSON.parse(r.stdout).outputs[0];
    expect(o).toMatchObject({ id: 1, bucket: 'seg-bucket', highestIndexInBucket: 2, safeNextIndex: 3 });
    const risk = o.findings.find((x: { code: string }) => x.code === 'OVERWRITE_RISK');
    expect(risk.severity).toBe('critical');
    expect(risk.evidence.join('\n')).toContain('logs/segment_0');
  });

  it('an aws s3api listing with keys of two nodes interleaving one counter: COLLISION_ACROSS_NODES naming them, in the schema', async () => {
    const store = path.join(dir, 'store-writers');
    await mkdir(path.join(store, 'fleet-bucket'), { recursive: true });
    const conf = path.join(dir, 'fluent-bit-writers.conf');
    await writeFile(conf, `[OUTPUT]\n    name s3\n    match *\n    bucket fleet-bucket\n    store_dir ${store}\n    s3_key_format /logs/$TAG/$INDEX\n`);
    const t0 = Date.parse('2026-11-28T10:00:00Z');
    const contents = ['node-a', 'node-b'].flatMap((node, w) =>
      Array.from({ length: 8 }, (_, i) => ({
        Key: `logs/${node}.app/${i}`,
        LastModified: new Date(t0 + w * 20_000 + i * 60_000).toISOString().replace('.000Z', '+00:00'),
        ETag: '"x"',
        Size: 5,
        StorageClass: 'STANDARD',
      })),
    );
    const listing = path.join(dir, 'listing-writers.json');
    await writeFile(listing, JSON.stringify({ Contents: contents, Name: 'fleet-bucket' }));
    const r = await cli(['diagnose', store, '--config', conf, '--listing', listing, '--json', '--at', '2026-11-29T20:00:00Z']);
    const j = JSON.parse(r.stdout);
    expectConforms('diagnose', j);
    const c = j.outputs[0].findings.find((x: { code: string }) => x.code === 'COLLISION_ACROSS_NODES');
    expect(c).toMatchObject({
      severity: 'error',
      data: { writers: 2, nodes: ['node-a', 'node-b'], namedBy: '$TAG[0]', sharedIndices: [0, 1, 2, 3, 4, 5, 6, 7] },
    });
    const text = await cli(['diagnose', store, '--config', conf, '--listing', listing, '--at', '2026-11-29T20:00:00Z']);
    expect(text.stdout).toContain('2 writers, told apart by $TAG[0] in their keys (node-a, node-b)');
  });

  it.each([
    [['--at', 'yesterday'], /not an ISO time/],
    [['--region', 'eu-west-1'], /only apply with --live/],
    [['--config', 'README.md'], /README.md:3: entry outside of any section/],
    [['--config', 'fluent-bit.conf', '--output', '7'], /no output with id 7/],
  ])('bad usage or input %j → exit 2', async (extra, msg) => {
    const args = extra.map((a) => (a === 'README.md' || a === 'fluent-bit.conf' ? f('index-reset', a) : a));
    const r = await cli(['diagnose', f('index-reset', 'store-after-run2.tar.gz'), ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(msg);
  });

  it('a store that does not exist → exit 2', async () => {
    const r = await cli(['diagnose', path.join(dir, 'nope')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nope/);
  });
});
