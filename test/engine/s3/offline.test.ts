/**
 * Offline evidence from every real fixture listing, generated multi-page input and malformed input.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOfflineEvidence, OfflineEvidenceError, parseOfflineEvidence, type OfflineDocument } from '../../../electron/engine/s3';

const ROOT = 'test/fixtures/fluent-bit-real';
const scenarios = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const listingFiles = scenarios.flatMap((s) =>
  readdirSync(join(ROOT, s))
    .filter((f) => /^s3(api-.*|-objects.*)\.json$/.test(f))
    .map((f) => join(ROOT, s, f)),
);
const doc = (file: string): OfflineDocument => ({ name: file, text: readFileSync(file, 'utf8') });

describe('offline evidence from the real fixtures', () => {
  it('finds the fixture listing files', () => {
    expect(listingFiles.length).toBeGreaterThanOrEqual(20);
  });

  it.each(listingFiles)('%s parses to what the file holds', (file) => {
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    const ev = parseOfflineEvidence([doc(file)]);
    expect(ev.source).toBe('offline');
    expect(ev.scope).toEqual([file]);
    expect(ev.requests).toBe(0);
    expect(ev.complete).toBe(true);
    if (raw.objects) {
      expect(ev.bucket).toBe(raw.bucket);
      expect(ev.objects.map((o) => o.key)).toEqual(raw.objects.map((o: { key: string }) => o.key).sort());
      expect(ev.multipartUploads?.map((u) => u.uploadId)).toEqual(raw.multipartUploads.map((u: { uploadId: string }) => u.uploadId));
    } else if (raw.Uploads) {
      expect(ev.bucket).toBe(raw.Bucket);
      expect(ev.multipartUploads).toEqual(
        raw.Uploads.map((u: { Key: string; UploadId: string; Initiated: string }) => ({
          key: u.Key,
          uploadId: u.UploadId,
          initiated: u.Initiated,
          parts: null,
        })),
      );
    } else {
      expect(ev.objects).toHaveLength(raw.Contents?.length ?? 0);
      expect(ev.multipartUploads).toBeNull();
      for (const o of ev.objects) expect(o.lastModified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    }
  });

  it.each(scenarios.filter((s) => readdirSync(join(ROOT, s)).includes('s3-objects.json')))(
    '%s: the aws s3api listing and the recorder listing give the same objects',
    (s) => {
      const api = parseOfflineEvidence([doc(join(ROOT, s, 's3api-list-objects-v2.json'))]);
      const rec = parseOfflineEvidence([doc(join(ROOT, s, 's3-objects.json'))]);
      expect(api.objects).toEqual(rec.objects);
    },
  );

  it('multipart-inflight: uploads from list-multipart-uploads get their parts from the recorder', () => {
    const dir = join(ROOT, 'multipart-inflight');
    const ev = parseOfflineEvidence([doc(join(dir, 's3api-list-multipart-uploads-after-crash.json')), doc(join(dir, 's3-objects-after-crash.json'))]);
    expect(ev.bucket).toBe('fb-multipart');
    expect(ev.multipartUploads).toHaveLength(1);
    expect(ev.multipartUploads![0]).toMatchObject({ key: 'app.big/2026/11/29/18_36_06-0', uploadId: 'dedeafef5be1648c7690ff660c24a9ad' });
    expect(ev.multipartUploads![0].parts?.map((p) => p.partNumber)).toEqual([1, 2]);
  });

  it('loadOfflineEvidence reads files by role and names a missing file', async () => {
    const dir = join(ROOT, 'index-reset');
    const ev = await loadOfflineEvidence({ listing: [join(dir, 's3api-list-objects-v2-after-run1.json'), join(dir, 's3api-list-objects-v2-after-run2.json')] });
    expect(ev.objects).toHaveLength(24); // run 1's 12 keys are also in run 2's listing: deduplicated
    await expect(loadOfflineEvidence({ listing: ['/nonexistent/list.json'] })).rejects.toThrow('/nonexistent/list.json: cannot read: no such file');
    await expect(loadOfflineEvidence({ versions: [join(dir, 's3api-list-objects-v2.json')] })).rejects.toThrow(
      /not a listing Store Doctor reads: found keys Contents, RequestCharged, Prefix; expected the JSON of list-object-versions/,
    );
  });
});

const contents = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    Key: `app/2026/11/29/${String(from + i).padStart(5, '0')}-${from + i}`,
    LastModified: '2026-11-29T18:33:06+00:00',
    ETag: `"e${from + i}"`,
    Size: 100 + from + i,
  }));

describe('offline evidence from generated pages', () => {
  const pages = [
    { Contents: contents(3, 0), KeyCount: 3, IsTruncated: true, NextContinuationToken: 'tok-1', Name: 'b1' },
    { Contents: contents(3, 3), KeyCount: 3, IsTruncated: true, ContinuationToken: 'tok-1', NextContinuationToken: 'tok-2', Name: 'b1' },
    { Contents: contents(2, 5), KeyCount: 2, IsTruncated: false, ContinuationToken: 'tok-2', Name: 'b1' }, // overlaps key 5
  ];

  it('merges pages given as separate files, deduplicates and checks the chain', () => {
    const ev = parseOfflineEvidence(pages.map((p, i) => ({ name: `page${i}.json`, text: JSON.stringify(p, null, 4) })));
    expect(ev.bucket).toBe('b1');
    expect(ev.objects.map((o) => o.size)).toEqual([100, 101, 102, 103, 104, 105, 106]);
    expect(ev.complete).toBe(true);
    expect(ev.notes).toEqual([]);
  });

  it('reads pages appended into one file (and JSON lines)', () => {
    const ev = parseOfflineEvidence([{ name: 'all.json', text: pages.map((p) => JSON.stringify(p, null, 2)).join('\n') }]);
    expect(ev.objects).toHaveLength(7);
    const lines = parseOfflineEvidence([{ name: 'all.jsonl', text: pages.map((p) => JSON.stringify(p)).join('\n') }]);
    expect(lines.objects).toEqual(ev.objects);
  });

  it('says the evidence is incomplete when a page is missing', () => {
    const ev = parseOfflineEvidence([pages[0], pages[2]].map((p, i) => ({ name: `p${i}.json`, text: JSON.stringify(p) })));
    expect(ev.complete).toBe(false);
    expect(ev.notes.join('\n')).toMatch(
      /p0\.json: the listing continues \(NextContinuationToken\) but no given file holds the next page; keys after "app\/2026\/11\/29\/00002-2" are unknown/,
    );
    const cli = parseOfflineEvidence([{ name: 'max-items.json', text: JSON.stringify({ Contents: contents(2), NextToken: 'eyJ9' }) }]);
    expect(cli.complete).toBe(false);
    expect(cli.notes.join('\n')).toMatch(/aws --max-items/);
    const cut = parseOfflineEvidence([{ name: 'cut.json', text: JSON.stringify({ Contents: contents(2), KeyCount: 5 }) }]);
    expect(cut.notes.join('\n')).toMatch(/cut\.json: KeyCount is 5 but Contents holds 2 entries/);
  });

  it('keeps the newer entry when pages disagree about a key', () => {
    const older = { Contents: [{ ...contents(1)[0], ETag: '"old"', LastModified: '2026-11-29T18:00:00Z' }] };
    const newer = { Contents: [{ ...contents(1)[0], ETag: '"new"', LastModified: '2026-11-29T19:00:00Z' }] };
    const ev = parseOfflineEvidence([
      { name: 'a.json', text: JSON.stringify(newer) },
      { name: 'b.json', text: JSON.stringify(older) },
    ]);
    expect(ev.objects[0].etag).toBe('"new"');
    expect(ev.notes[0]).toMatch(/listed differently in a\.json and b\.json/);
  });

  it('reads list-object-versions (versions, delete markers) and derives current objects from it', () => {
    const v = {
      Versions: [
        { Key: 'k/1', VersionId: 'v2', IsLatest: true, LastModified: '2026-11-29T19:00:00Z', ETag: '"b"', Size: 2 },
        { Key: 'k/1', VersionId: 'v1', IsLatest: false, LastModified: '2026-11-29T18:00:00Z', ETag: '"a"', Size: 1 },
        { Key: 'k/2', VersionId: 'v3', IsLatest: false, LastModified: '2026-11-29T18:00:00Z', ETag: '"c"', Size: 3 },
      ],
      DeleteMarkers: [{ Key: 'k/2', VersionId: 'v4', IsLatest: true, LastModified: '2026-11-29T19:30:00Z' }],
      Name: 'vb',
    };
    const ev = parseOfflineEvidence([{ name: 'versions.json', text: JSON.stringify(v) }]);
    expect(ev.versions!.map((x) => [x.key, x.versionId, x.isLatest, x.isDeleteMarker])).toEqual([
      ['k/1', 'v2', true, false],
      ['k/1', 'v1', false, false],
      ['k/2', 'v4', true, true],
      ['k/2', 'v3', false, false],
    ]);
    expect(ev.objects).toEqual([{ key: 'k/1', size: 2, etag: '"b"', lastModified: '2026-11-29T19:00:00.000Z' }]);
    expect(ev.notes.join('\n')).toMatch(/current objects are taken from the latest versions/);
  });

  it('attaches list-parts output to its upload', () => {
    const ev = parseOfflineEvidence([
      { name: 'uploads.json', text: JSON.stringify({ Bucket: 'mb', Uploads: [{ Key: 'a/0', UploadId: 'U1', Initiated: '2026-11-29T18:36:09.197Z' }] }) },
      {
        name: 'parts.json',
        text: JSON.stringify({
          Bucket: 'mb',
          Key: 'a/0',
          UploadId: 'U1',
          Parts: [
            { PartNumber: 2, ETag: '"p2"', Size: 5 },
            { PartNumber: 1, ETag: '"p1"', Size: 6 },
          ],
        }),
      },
    ]);
    expect(ev.multipartUploads![0].parts).toEqual([
      { partNumber: 1, etag: '"p1"', size: 6 },
      { partNumber: 2, etag: '"p2"', size: 5 },
    ]);
  });
});

describe('offline evidence from malformed input', () => {
  const fail = (name: string, text: string) => {
    try {
      parseOfflineEvidence([{ name, text }]);
    } catch (err) {
      expect(err).toBeInstanceOf(OfflineEvidenceError);
      expect((err as OfflineEvidenceError).file).toBe(name);
      return (err as Error).message;
    }
    throw new Error('expected an error');
  };

  it('names the file and the problem', () => {
    expect(fail('empty.json', '  \n')).toBe('empty.json: the file is empty (expected the JSON printed by aws s3api)');
    expect(fail('broken.json', '{\n  "Contents": [\n    {"Key": "a",}\n  ]\n}')).toMatch(/^broken\.json: not valid JSON at line 3, column \d+/);
    expect(
      fail(
        'size.json',
        JSON.stringify({
          Contents: [
            { Key: 'a', Size: 1 },
            { Key: 'b', Size: '12' },
          ],
        }),
      ),
    ).toBe('size.json: invalid list-objects output: Contents[1].Size: Invalid input: expected number, received string');
    expect(fail('nokey.json', JSON.stringify({ Contents: [{ Size: 1 }] }))).toMatch(/nokey\.json: invalid list-objects output: Contents\[0\]\.Key: /);
    expect(fail('date.json', JSON.stringify({ Contents: [{ Key: 'a', Size: 1, LastModified: 'yesterday' }] }))).toMatch(
      /Contents\[0\]\.LastModified: not a date\/time/,
    );
    expect(fail('other.json', JSON.stringify({ hello: 'world' }))).toMatch(
      /^other\.json: not a listing Store Doctor reads: found keys hello; expected the JSON of aws s3api list-objects-v2 \(Contents\)/,
    );
    expect(fail('num.json', '42')).toMatch(/found a JSON number/);
    expect(fail('rec.json', JSON.stringify({ bucket: 'b', objects: [{ key: 'a' }] }))).toMatch(/rec\.json: invalid recorder output: objects\[0\]\.size/);
  });

  it('refuses listings of different buckets', () => {
    expect(() =>
      parseOfflineEvidence([
        { name: 'a.json', text: JSON.stringify({ bucket: 'one', objects: [] }) },
        { name: 'b.json', text: JSON.stringify({ Bucket: 'two', Uploads: [] }) },
      ]),
    ).toThrow(/the files describe different buckets: "one" \(a\.json\), "two" \(b\.json\)/);
  });

  it('reads a saved file through loadOfflineEvidence with the same errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sd-offline-'));
    writeFileSync(join(dir, 'bad.json'), '{"Contents": [');
    await expect(loadOfflineEvidence({ listing: [join(dir, 'bad.json')] })).rejects.toThrow(`${join(dir, 'bad.json')}: not valid JSON`);
  });
});
