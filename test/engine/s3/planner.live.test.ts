/**
 * The listing planner against a real S3 (Ceph RGW from the test setup), on a bucket filled with the
 * keys of the real `index-reset` fixture plus older history, a stale tag and unrelated objects.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { listAllObjects, listForKeyFormat } from '../../../electron/engine/s3';
import type { Progress } from '../../../shared/model';
import { s3Enabled, testS3, type TestS3 } from '../../support/s3';

const FORMAT = '/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX';
const fixture = JSON.parse(readFileSync('test/fixtures/fluent-bit-real/index-reset/s3api-list-objects-v2-after-run2.json', 'utf8')) as {
  Contents: { Key: string }[];
};
const FIXTURE_KEYS = fixture.Contents.map((c) => c.Key);
const pad = (n: number) => String(n).padStart(2, '0');

/** 14 days of hourly history for the fixture's tags before the fixture's day, with a running index. */
function history(): string[] {
  const keys: string[] = [];
  let index = 0;
  for (let day = 14; day >= 1; day--) {
    for (let h = 0; h < 24; h++) {
      const t = new Date(Date.UTC(2026, 10, 29 - day, h, 0, 0));
      const path = `${t.getUTCFullYear()}/${pad(t.getUTCMonth() + 1)}/${pad(t.getUTCDate())}/${pad(h)}_00_00`;
      for (const tag of ['app.db', 'app.web', 'sys.kernel']) keys.push(`${tag}/${path}-${index++}`);
    }
  }
  return keys;
}
const STALE_OLD = ['old.tag/2026/11/09/10_00_00-1', 'old.tag/2026/11/09/11_00_00-2'];
const STALE_NEWEST = ['old.tag/2026/11/10/03_00_00-3', 'old.tag/2026/11/10/07_15_00-4'];
const JUNK = ['README.txt', 'backups/db/dump.sql', 'app.db/2026/11/29/notes.txt', 'app.db/2026/11/29/18_40_00-x'];
const FORMAT_KEYS = [...FIXTURE_KEYS, ...history(), ...STALE_OLD, ...STALE_NEWEST].sort();

describe.skipIf(!s3Enabled())('listForKeyFormat on a real S3', () => {
  let s3: TestS3;
  let bucket: string;

  beforeAll(async () => {
    s3 = testS3();
    bucket = await s3.createBucket('planner');
    await s3.putKeys(bucket, [...FORMAT_KEYS, ...JUNK], { concurrency: 24 });
  }, 120_000);

  it('full mode finds exactly the keys of the format that a full listing finds, with the same details', async () => {
    const counter = { requests: 0 };
    const all = await listAllObjects(s3.client(), bucket, undefined, { counter });
    expect(all.map((o) => o.key).sort()).toEqual([...FORMAT_KEYS, ...JUNK].sort());

    const ev = await listForKeyFormat(s3.client(), { bucket, keyFormat: FORMAT });
    expect(ev.source).toBe('live');
    expect(ev.coverage).toBe('full');
    expect(ev.complete).toBe(true);
    expect(ev.objects.map((o) => o.key)).toEqual(FORMAT_KEYS);
    const byKey = new Map(all.map((o) => [o.key, o]));
    for (const o of ev.objects) expect(o).toEqual(byKey.get(o.key));
    // one discovery of the tag level + one scan per top-level prefix (each under 1000 keys)
    expect(ev.requests).toBe(1 + 5);
    expect(ev.notes.join('\n')).toMatch(/4 keys under the listed prefixes do not match/);
  });

  it('a literal prefix keeps the planner away from unrelated data', async () => {
    const ev = await listForKeyFormat(s3.client(), { bucket, keyFormat: '/app.db/%Y/%m/%d/%H_%M_%S-$INDEX', maxKeys: 200 });
    const expected = FORMAT_KEYS.filter((k) => k.startsWith('app.db/'));
    expect(ev.objects.map((o) => o.key)).toEqual(expected);
    const naive = { requests: 0 };
    await listAllObjects(s3.client(), bucket, undefined, { counter: naive, maxKeys: 200 });
    expect(ev.requests).toBe(Math.ceil((expected.length + 2) / 200));
    expect(ev.requests).toBeLessThan(naive.requests);
  });

  it('focus mode lists what a restart needs, with fewer requests than a full listing', async () => {
    const at = '2026-11-29T18:35:00Z';
    const progress: Progress[] = [];
    const ev = await listForKeyFormat(s3.client(), { bucket, keyFormat: FORMAT, focus: { at }, maxKeys: 50, onProgress: (p) => progress.push(p) });

    // Ground truth from a full listing: keys at or after since (at − 1 h) + the stale tag's newest day.
    const naive = { requests: 0 };
    const all = await listAllObjects(s3.client(), bucket, undefined, { counter: naive, maxKeys: 50 });
    const sinceKey = (k: string) => k.split('/').slice(1).join('/') >= '2026/11/29/17_35_00';
    const expected = all.map((o) => o.key).filter((k) => FORMAT_KEYS.includes(k) && (sinceKey(k) || k.startsWith('old.tag/2026/11/10/')));
    expect(ev.objects.map((o) => o.key)).toEqual(expected.sort());
    expect(expected).toEqual(expect.arrayContaining([...FIXTURE_KEYS, ...STALE_NEWEST]));
    expect(ev.objects.map((o) => o.key)).not.toContain(STALE_OLD[0]);
    expect(ev.coverage).toBe('focused');
    expect(ev.notes.join('\n')).toMatch(/Focused listing for a restart at 2026-11-29T18:35:00Z: keys from 2026-11-29T17:35:00.000Z on/);
    expect(ev.requests).toBeLessThan(naive.requests);

    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.task === 'list' && p.total !== null && p.done <= p.total)).toBe(true);
    const lastP = progress.at(-1)!;
    expect(lastP.done).toBe(lastP.total);
  });

  it('focus with an explicit since takes older partitions in, and drops time partitions in a walk', async () => {
    const ev = await listForKeyFormat(s3.client(), {
      bucket,
      keyFormat: FORMAT,
      focus: { at: '2026-11-29T18:35:00Z', since: '2026-11-28T22:00:00Z', newestPerTag: false },
    });
    const expected = FORMAT_KEYS.filter((k) => k.split('/').slice(1).join('/') >= '2026/11/28/22_00_00');
    expect(ev.objects.map((o) => o.key)).toEqual(expected);
  });

  it('focus on a format whose keys do not sort by time walks the partitions and drops the old ones', async () => {
    const dayFirst = await s3.createBucket('dayfirst');
    const keys: string[] = [];
    for (let d = 20; d <= 29; d++) for (const tag of ['a', 'b']) keys.push(`logs/${d}-11-2026/${tag}-${d}`);
    await s3.putKeys(dayFirst, [...keys, 'logs/notes/x-1']);
    const ev = await listForKeyFormat(s3.client(), {
      bucket: dayFirst,
      keyFormat: '/logs/%d-%m-%Y/$TAG-$INDEX',
      focus: { at: '2026-11-29T12:00:00Z', since: '2026-11-27T10:00:00Z' },
    });
    expect(ev.objects.map((o) => o.key)).toEqual(keys.filter((k) => Number(k.slice(5, 7)) >= 27).sort());
    // 1 discovery + 3 day partitions; 7 days ended before since and 1 prefix cannot match
    expect(ev.requests).toBe(4);
    expect(ev.notes.join('\n')).toMatch(/7 time partitions end before 2026-11-27T10:00:00.000Z/);
    expect(ev.notes.join('\n')).toMatch(/1 prefixes cannot hold keys/);
  });

  it('cancel stops the listing and marks the evidence incomplete', async () => {
    const ac = new AbortController();
    const ev = await listForKeyFormat(s3.client(), {
      bucket,
      keyFormat: FORMAT,
      maxKeys: 20,
      concurrency: 1,
      signal: ac.signal,
      onProgress: (p) => p.done >= 2 && ac.abort(),
    });
    expect(ev.complete).toBe(false);
    expect(ev.notes).toContain('Listing cancelled: the evidence is incomplete.');
    expect(ev.objects.length).toBeLessThan(FORMAT_KEYS.length);
  });
});
