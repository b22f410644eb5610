/**
 * The diagnosis applies what the Fluent Bit version does (docs/fluent-bit-versions.md), on the real
 * snapshots of each version, through the engine session like the CLI (store.fluentBitVersion when
 * a version is given): 1.9.10's length-0 chunks are not damage and their crash padding is counted
 * in NUL bytes; quarantine/ is kept by 5.x and uploaded by 4.2.8 (downgrade); pre-5 versions lose
 * given-up chunks at a graceful stop; the 1.x config traps; and where the version is not known the
 * findings say what differs.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnosis, Finding } from '../../../shared/model';
import { diagnoseStore } from '../../support/diagnose';

const REAL = path.join(__dirname, '../../fixtures/fluent-bit-real');
const fx = (v: string, scenario: string, tar: string) => ({
  storePath: path.join(REAL, v, scenario, tar),
  configPath: path.join(REAL, v, scenario, 'fluent-bit.conf'),
});
const all = (d: Diagnosis): Finding[] => [...d.outputs.flatMap((o) => o.findings), ...d.storeFindings];
const codes = (d: Diagnosis) => all(d).map((f) => f.code);
const find = (d: Diagnosis, code: string) => all(d).find((f) => f.code === code);
/** The codes this file is about (the index findings are tested elsewhere). */
const VERSIONED = [
  'BUFFERED_BACKLOG',
  'QUARANTINED_DATA',
  'CHUNK_DAMAGED',
  'CHUNK_NUL_PADDING',
  'QUARANTINE_DOWNGRADE',
  'GIVEN_UP_LOST_AT_STOP',
  'CONFIG_HTTP_WITHOUT_TLS_OFF',
  'CONFIG_KEEPALIVE_DUPLICATES',
];
const versioned = (d: Diagnosis) => codes(d).filter((c) => VERSIONED.includes(c));

describe('1.9.10 stores (inferred from their length-0 chunks)', () => {
  it('crash-during-run after the SIGKILL: no damage; the two page-sized chunks go up with 1,885 and 3,126 NUL bytes', async () => {
    const { diagnosis: d } = await diagnoseStore(fx('v1.9.10', 'crash-during-run', 'store-after-crash.tar.gz'));
    expect(d.fluentBit).toMatchObject({ source: 'inferred', version: null, assumes: ['1.9.10'] });
    expect(d.fluentBit.text).toBe('Fluent Bit 1.x (or 2.x), inferred from the store (chunks with content-length field 0)');
    expect(versioned(d)).toEqual(['BUFFERED_BACKLOG', 'GIVEN_UP_LOST_AT_STOP', 'CHUNK_NUL_PADDING']);
    const nul = find(d, 'CHUNK_NUL_PADDING')!;
    expect(nul.severity).toBe('warning');
    expect(nul.summary).toBe('2 chunks will be uploaded with 5,011 NUL bytes at the end: the zero padding left by a crash, which Fluent Bit reads as content.');
    expect(nul.evidence).toEqual([
      'Fluent Bit 1.9.10 wrote them with content-length 0; after a SIGKILL the file keeps its page of zero padding and the length is read from the file size',
      '2026-12-01T21:07:24/229459631825522-8021775125891788339: 4096 bytes, content-length field 0, 4065 bytes read as content of which the last 1,885 are NUL (20 records, tag app.web)',
      '2026-12-01T21:07:24/6953322175898-8592336918126695162: 4096 bytes, content-length field 0, 4066 bytes read as content of which the last 3,126 are NUL (10 records, tag app.db)',
      'measured: the next start of 1.9.10 uploaded such chunks with their padding (objects with 1,885 to 23,836 NUL bytes; docs/fluent-bit-versions.md §2); the records themselves are intact',
    ]);
    expect(nul.next.map((s) => s.request)).toEqual([{ name: 'repair.plan', input: { action: 'replay', outputId: 0 } }]);
    expect(nul.data).toEqual({
      chunks: ['2026-12-01T21:07:24/229459631825522-8021775125891788339', '2026-12-01T21:07:24/6953322175898-8592336918126695162'],
      nulBytes: 5011,
    });
  });

  it('buffered-backlog after a graceful stop: exact-size length-0 chunks are read whole, no NUL, no damage; 5 tries then lost at a stop', async () => {
    const { diagnosis: d } = await diagnoseStore(fx('v1.9.10', 'buffered-backlog', 'store-after-run1.tar.gz'));
    expect(versioned(d)).toEqual(['BUFFERED_BACKLOG', 'GIVEN_UP_LOST_AT_STOP']);
    expect(find(d, 'BUFFERED_BACKLOG')!.summary).toMatch(/^4 chunks \(150 records/);
    const loss = find(d, 'GIVEN_UP_LOST_AT_STOP')!;
    expect(loss.summary).toBe(
      '4 buffered chunks (150 records) are lost if Fluent Bit 1.9.10 gives them up and is then stopped gracefully: before 5.x a given-up chunk alone in its stream is deleted with it.',
    );
    expect(loss.evidence).toContain('retry_limit 1: 1.9.10 ignore it: 5 tries (measured with retry_limit 1) (docs/fluent-bit-versions.md §4)');
    expect(loss.evidence.at(-1)).toMatch(/1\.9\.10, 3\.2\.10 and 4\.2\.8 exit 0 with an empty store — its 10 records gone/);
  });

  it('multipart-two-tags after the SIGKILL: the record (length 0, NUL tail) is a record, the two data chunks carry 44,426 NUL bytes', async () => {
    const { diagnosis: d } = await diagnoseStore(fx('v1.9.10', 'multipart-two-tags', 'store-after-crash.tar.gz'));
    expect(codes(d)).not.toContain('CHUNK_DAMAGED');
    // the record alone shows it: two lines for part 1, Fluent Bit's completion will fail (§9)
    expect(codes(d)).toContain('MULTIPART_ORPHANED');
    expect(codes(d)).not.toContain('MULTIPART_PENDING');
    expect(find(d, 'CHUNK_NUL_PADDING')!.data).toMatchObject({ nulBytes: 20590 + 23836 });
  });

  it('the 1.x config of the suite (tls Off, net.keepalive Off) has no config finding for 1.9.10', async () => {
    const { diagnosis: d } = await diagnoseStore({ ...fx('v1.9.10', 'crash-during-run', 'store-after-crash.tar.gz'), fluentBitVersion: '1.9.10' });
    expect(d.fluentBit).toMatchObject({ source: 'given', version: '1.9.10', assumes: ['1.9.10'], text: 'Fluent Bit 1.9.10, given' });
    expect(codes(d).filter((c) => c.startsWith('CONFIG_'))).toEqual([]);
  });
});

describe('quarantine/: kept by 5.x, uploaded by 4.2.8 (downgrade)', () => {
  const store = fx('v4.2.8', 'downgrade-quarantine-from-5.0.9', 'store-after-run1.tar.gz');

  it('the 5.0.9 store, version inferred: QUARANTINED_DATA, Fluent Bit never sends it again', async () => {
    const { diagnosis: d } = await diagnoseStore(store);
    expect(d.fluentBit).toMatchObject({ source: 'inferred', assumes: ['5.0.9', '5.1.1'] });
    // its config has http:// without tls Off, which only 1.x cannot take: no config finding for 5.x
    expect(versioned(d)).toEqual(['BUFFERED_BACKLOG', 'QUARANTINED_DATA']);
    const q = find(d, 'QUARANTINED_DATA')!;
    expect(q.summary).toBe('2 chunks (104 records, 11 KiB of record data) sit in quarantine/: Fluent Bit never uploads them again.');
    expect(q.evidence.at(-1)).toBe('5.0.9 and 5.1.1 never upload them again (measured) (docs/fluent-bit-versions.md §3, §8)');
    expect(find(d, 'BUFFERED_BACKLOG')!.evidence.slice(-2)).toEqual([
      'retry_limit 1: 5.0.9 and 5.1.1 give up above the limit: 2 tries (measured) (docs/fluent-bit-versions.md §4)',
      '5.0.9 and 5.1.1: a given-up chunk moves to quarantine/ and is never sent again (docs/fluent-bit-versions.md §3, §4.1)',
    ]);
  });

  it('the same store run by 4.2.8 (given): QUARANTINE_DOWNGRADE instead, and the stop-loss warning', async () => {
    const { diagnosis: d } = await diagnoseStore({ ...store, fluentBitVersion: '4.2.8' });
    expect(versioned(d)).toEqual(['BUFFERED_BACKLOG', 'GIVEN_UP_LOST_AT_STOP', 'QUARANTINE_DOWNGRADE']);
    const g = find(d, 'QUARANTINE_DOWNGRADE')!;
    expect(g.severity).toBe('warning');
    expect(g.summary).toBe(
      'quarantine/ holds 2 chunks (104 records, 11 KiB of record data) that Fluent Bit 4.2.8 uploads at its next start: it has no quarantine and sends the folder as an old stream (a 5.x store run by an older version).',
    );
    expect(g.evidence.at(-1)).toBe(
      'measured: 4.2.8 started on stores of 5.0.9 and 5.1.1 uploaded every quarantined record (104 and 98) exactly once and removed quarantine/ (docs/fluent-bit-versions.md §8)',
    );
    expect(find(d, 'GIVEN_UP_LOST_AT_STOP')!.evidence).toContain(
      'retry_limit 1: 4.2.8 give up at the limit: 1 try (measured) (docs/fluent-bit-versions.md §4)',
    );
  });

  it('run by 1.9.10 (given): the downgrade finding says 4.2.8 was measured, not 1.9.10', async () => {
    const { diagnosis: d } = await diagnoseStore({ ...store, fluentBitVersion: '1.9.10' });
    expect(find(d, 'QUARANTINE_DOWNGRADE')!.evidence.at(-1)).toMatch(/; not measured with 1\.9\.10$/);
  });

  it('given 5.1.1: no downgrade', async () => {
    const { diagnosis: d } = await diagnoseStore({ ...store, fluentBitVersion: '5.1.1' });
    expect(versioned(d)).toEqual(['BUFFERED_BACKLOG', 'QUARANTINED_DATA']);
  });
});

describe('a store only 3.x or later can have written (no quarantine/): the findings say what differs', () => {
  const store = fx('v3.2.10', 'crash-during-run', 'store-after-crash.tar.gz');

  it('inferred: no stop-loss claim; the backlog evidence names both behaviours', async () => {
    const { diagnosis: d } = await diagnoseStore(store);
    expect(d.fluentBit).toMatchObject({ source: 'inferred', assumes: ['3.2.10', '4.2.8', '5.0.9', '5.1.1'] });
    expect(d.fluentBit.text).toBe('Fluent Bit 3.x or later, inferred from the store (chunks with the content length in the header)');
    expect(versioned(d)).toEqual(['BUFFERED_BACKLOG']);
    expect(find(d, 'BUFFERED_BACKLOG')!.evidence.at(-1)).toBe(
      '3.2.10 and 4.2.8: a given-up chunk stays in its stream, is sent again at every start, and is deleted with its stream at a graceful stop when no other chunk keeps it; 5.0.9 and 5.1.1: a given-up chunk moves to quarantine/ and is never sent again (docs/fluent-bit-versions.md §3, §4.1)',
    );
  });

  it('given 3.2.10: the stop-loss warning with five tries', async () => {
    const { diagnosis: d } = await diagnoseStore({ ...store, fluentBitVersion: '3.2.10' });
    expect(versioned(d)).toEqual(['BUFFERED_BACKLOG', 'GIVEN_UP_LOST_AT_STOP']);
    expect(find(d, 'GIVEN_UP_LOST_AT_STOP')!.evidence).toContain(
      'retry_limit not set (Fluent Bit default 1): 3.2.10 ignore it: 5 tries (measured with retry_limit 1) (docs/fluent-bit-versions.md §4)',
    );
  });
});

describe('1.x config traps: http:// without tls Off, keep-alive', () => {
  // a 5.0.9 config: endpoint http://127.0.0.1:20601, no tls, no net.keepalive
  const store = fx('v5.0.9', 'index-reset', 'store-after-run1.tar.gz');

  it('given 1.9.10: the crash is an error, keep-alive a warning', async () => {
    const { diagnosis: d } = await diagnoseStore({ ...store, fluentBitVersion: '1.9.10' });
    const tls = find(d, 'CONFIG_HTTP_WITHOUT_TLS_OFF')!;
    expect(tls.severity).toBe('error');
    expect(tls.summary).toBe(
      's3.0: Fluent Bit 1.9.10 crashes (SIGSEGV, exit 134) at its first upload to the http:// endpoint http://127.0.0.1:20601: the output has no `tls Off`.',
    );
    expect(tls.evidence[0]).toMatch(/^s3\.0 \(.*fluent-bit\.conf:\d+\): endpoint http:\/\/127\.0\.0\.1:20601, tls not set$/);
    const ka = find(d, 'CONFIG_KEEPALIVE_DUPLICATES')!;
    expect(ka.severity).toBe('warning');
    expect(ka.evidence[0]).toMatch(/net\.keepalive not set \(on\)$/);
    expect(ka.action).toMatch(/net\.keepalive Off/);
  });

  it('given 5.0.9: nothing', async () => {
    const { diagnosis: d } = await diagnoseStore({ ...store, fluentBitVersion: '5.0.9' });
    expect(codes(d).filter((c) => c.startsWith('CONFIG_'))).toEqual([]);
  });

  it('unknown (an empty store): a warning that says which versions crash and which do not', async () => {
    const { diagnosis: d } = await diagnoseStore(store);
    expect(d.fluentBit.source).toBe('unknown');
    const tls = find(d, 'CONFIG_HTTP_WITHOUT_TLS_OFF')!;
    expect(tls.severity).toBe('warning');
    expect(tls.summary).toBe(
      's3.0: the http:// endpoint http://127.0.0.1:20601 has no `tls Off`: Fluent Bit 1.9.10 crashes (SIGSEGV) at its first upload, 3.2.10, 4.2.8, 5.0.9 and 5.1.1 work.',
    );
    expect(tls.evidence.at(-1)).toMatch(/^measured: 1\.9\.10 reused idle connections/);
    expect(codes(d)).not.toContain('CONFIG_KEEPALIVE_DUPLICATES');
  });

  it('a version between two measured ones applies both and says so', async () => {
    const { diagnosis: d } = await diagnoseStore({ ...store, fluentBitVersion: '2.2.0' });
    expect(d.fluentBit).toMatchObject({ source: 'given', version: '2.2.0', assumes: ['1.9.10', '3.2.10'] });
    expect(d.fluentBit.text).toBe('Fluent Bit 2.2.0, given; not measured: between 1.9.10 and 3.2.10, so the findings say where those two differ');
    expect(find(d, 'CONFIG_HTTP_WITHOUT_TLS_OFF')!.severity).toBe('warning');
  });
});

describe('two uploads in flight at a SIGKILL (every version, docs/fluent-bit-versions.md §9)', () => {
  it.each(['v1.9.10', 'v3.2.10', 'v4.2.8', 'v5.0.9', 'v5.1.1'])(
    '%s: the mixed record and the recordless upload are one MULTIPART_ORPHANED error, settled by multipart',
    async (v) => {
      const dir = path.join(REAL, v, 'multipart-two-tags');
      const { diagnosis: d } = await diagnoseStore({
        ...fx(v, 'multipart-two-tags', 'store-after-crash.tar.gz'),
        multipart: [path.join(dir, 's3api-list-multipart-uploads-after-crash.json')],
      });
      expect(codes(d)).not.toContain('MULTIPART_PENDING');
      const f = find(d, 'MULTIPART_ORPHANED')!;
      expect(f.severity).toBe('error');
      expect(f.evidence).toHaveLength(2);
      expect(f.evidence[0]).toMatch(
        /^multipart_upload_metadata\/\S+: app\.big\/\S+\/0 upload \S+, local parts 1 — 2 lines for part 1: a crash with two uploads in flight wrote another upload's part lines into this record .* fails with InvalidPart at every start, both uploads stay open$/,
      );
      expect(f.evidence[1]).toMatch(
        /^app\.huge\/\S+\/1 upload \S+ .*no local record: Fluent Bit never completes it; its part lines may be in multipart_upload_metadata\/\S+ \(the two-tag crash\)/,
      );
      expect(f.next.map((s) => s.request)).toEqual([{ name: 'repair.plan', input: { action: 'multipart', outputId: 0 } }]);
    },
  );
});

describe("each version's own backlog, its version given: exact version findings and retry rule", () => {
  const cases: [string, string, string[], RegExp][] = [
    ['v1.9.10', 'buffered-backlog', ['BUFFERED_BACKLOG', 'GIVEN_UP_LOST_AT_STOP'], /^retry_limit 1: 1\.9\.10 ignore it: 5 tries/],
    ['v1.9.10', 'crash-during-run', ['BUFFERED_BACKLOG', 'GIVEN_UP_LOST_AT_STOP', 'CHUNK_NUL_PADDING'], /^retry_limit not set .*: 1\.9\.10 ignore it: 5 tries/],
    ['v3.2.10', 'buffered-backlog', ['BUFFERED_BACKLOG', 'GIVEN_UP_LOST_AT_STOP'], /^retry_limit 1: 3\.2\.10 ignore it: 5 tries/],
    ['v3.2.10', 'crash-during-run', ['BUFFERED_BACKLOG', 'GIVEN_UP_LOST_AT_STOP'], /^retry_limit not set .*: 3\.2\.10 ignore it: 5 tries/],
    ['v4.2.8', 'buffered-backlog', ['BUFFERED_BACKLOG', 'GIVEN_UP_LOST_AT_STOP'], /^retry_limit 1: 4\.2\.8 give up at the limit: 1 try \(measured\)/],
    ['v4.2.8', 'crash-during-run', ['BUFFERED_BACKLOG', 'GIVEN_UP_LOST_AT_STOP'], /^retry_limit not set .*: 4\.2\.8 give up at the limit: 1 try \(measured\)/],
    ['v5.0.9', 'buffered-backlog', ['BUFFERED_BACKLOG', 'QUARANTINED_DATA'], /^retry_limit 1: 5\.0\.9 give up above the limit: 2 tries \(measured\)/],
    ['v5.0.9', 'crash-during-run', ['BUFFERED_BACKLOG'], /^retry_limit not set .*: 5\.0\.9 give up above the limit: 2 tries/],
    ['v5.1.1', 'buffered-backlog', ['BUFFERED_BACKLOG', 'QUARANTINED_DATA'], /^retry_limit 1: 5\.1\.1 give up above the limit: 2 tries \(measured\)/],
    ['v5.1.1', 'crash-during-run', ['BUFFERED_BACKLOG'], /^retry_limit not set .*: 5\.1\.1 give up above the limit: 2 tries/],
  ];
  it.each(cases)('%s %s', async (v, scenario, want, tries) => {
    const tar = scenario === 'buffered-backlog' ? 'store-after-run1.tar.gz' : 'store-after-crash.tar.gz';
    const { diagnosis: d } = await diagnoseStore({ ...fx(v, scenario, tar), fluentBitVersion: v.slice(1) });
    expect(d.fluentBit).toMatchObject({ source: 'given', version: v.slice(1), assumes: [v.slice(1)] });
    expect(versioned(d)).toEqual(want);
    const backlog = find(d, 'BUFFERED_BACKLOG')!.evidence;
    expect(backlog.at(-2)).toMatch(tries);
    expect(backlog.at(-1)).toMatch(v.startsWith('v5') ? /moves to quarantine\/ and is never sent again/ : /stays in its stream, is sent again at every start/);
  });
});
