/**
 * The multipart settlement decision (electron/engine/repair/bucket/multipart-match.ts) on generated edge
 * cases: the two-tag crash layout of docs/fluent-bit-versions.md §9 (one record, two
 * `part_number=1` lines, no record for the second upload), mismatched ETags, a gap, a part below
 * 5 MiB that is not the last, an upload already gone, a record line of an upload that no longer
 * exists, equal content in an unrelated upload, and what stays unsettled.
 */
import { describe, expect, it } from 'vitest';
import {
  MIN_PART_SIZE,
  settleMultipart,
  type LocalRecord,
  type MultipartDecision,
  type ServerUpload,
} from '../../../electron/engine/repair/bucket/multipart-match';

const MB6 = 6 * 1024 * 1024;
const rec = (key: string, uploadId: string, lines: [number, string][], p = `/r/multipart_upload_metadata/${uploadId}`): LocalRecord => ({
  path: p,
  key,
  uploadId,
  lines: lines.map(([partNumber, etag]) => ({ partNumber, etag })),
});
const up = (key: string, uploadId: string, parts: [number, string, number][] | null): ServerUpload => ({
  key,
  uploadId,
  parts: parts && parts.map(([partNumber, etag, size]) => ({ partNumber, etag: `"${etag}"`, size })),
});
const orphan = (u: ServerUpload, owned = true) => ({ ...u, owned });
function run(records: [LocalRecord, ServerUpload][], orphans: ReturnType<typeof orphan>[] = [], decision: MultipartDecision = 'auto', abortOrphans = false) {
  return settleMultipart(
    records.map(([r]) => r),
    new Map(records),
    orphans,
    decision,
    abortOrphans,
  );
}
const ops = (s: ReturnType<typeof run>) =>
  s.items.map(
    (i) => `${i.key} ${i.op}${i.parts.length ? ` [${i.parts.map((p) => p.partNumber).join(',')}]` : ''}${i.recordRole === 'lines' ? ' (lines)' : ''}`,
  );

describe('the two-tag crash (one record, two part_number=1 lines, no record for the second upload)', () => {
  const r = rec('app.big/0', 'A', [
    [1, 'aaaa'],
    [1, 'hhhh'],
  ]);
  const A = up('app.big/0', 'A', [[1, 'AAAA', MB6]]);
  const H = up('app.huge/1', 'H', [[1, 'HHHH', MB6]]);

  it.each(['auto', 'complete'] as const)('%s: completes both uploads from the record lines, then removes the record', (decision) => {
    const s = run([[r, A]], [orphan(H)], decision);
    expect(ops(s)).toEqual(['app.big/0 complete [1]', 'app.huge/1 complete [1] (lines)']);
    expect(s.items[1]).toMatchObject({ recordPath: r.path, parts: [{ partNumber: 1, etag: 'hhhh' }] });
    expect(s.items[1].reason).toMatch(/no record of its own .* every part \(1:hhhh\) is a line of \/r\/multipart_upload_metadata\/A/);
    expect(s.records).toEqual([r.path]);
    expect(s.unsettled).toEqual([]);
  });

  it('interleaved parts of both uploads (1,1,2,2): both complete with parts 1 and 2', () => {
    const r2 = rec('app.big/0', 'A', [
      [1, 'a1'],
      [1, 'h1'],
      [2, 'a2'],
      [2, 'h2'],
    ]);
    const s = run(
      [
        [
          r2,
          up('app.big/0', 'A', [
            [1, 'a1', MIN_PART_SIZE],
            [2, 'a2', 100],
          ]),
        ],
      ],
      [
        orphan(
          up('app.huge/1', 'H', [
            [1, 'h1', MIN_PART_SIZE],
            [2, 'h2', 100],
          ]),
        ),
      ],
    );
    expect(ops(s)).toEqual(['app.big/0 complete [1,2]', 'app.huge/1 complete [1,2] (lines)']);
  });

  it('abort: both uploads aborted, the record removed', () => {
    expect(ops(run([[r, A]], [orphan(H)], 'abort'))).toEqual(['app.big/0 abort', 'app.huge/1 abort (lines)']);
  });

  it('the second upload is gone (a record line of an upload that no longer exists): the first completes, the line is noted', () => {
    const s = run([[r, A]]);
    expect(ops(s)).toEqual(['app.big/0 complete [1]']);
    expect(s.notes).toEqual([`${r.path}: line part_number=1 etag=hhhh matches no part of any open upload (its upload is gone, or the part was lost)`]);
    expect(s.records).toEqual([r.path]);
    expect(s.unsettled).toEqual([]);
  });

  it('the first upload is gone: its record is forgotten only after the second completes from it', () => {
    const s = run([[r, up('app.big/0', 'A', null)]], [orphan(H)]);
    expect(ops(s)).toEqual(['app.big/0 forget', 'app.huge/1 complete [1] (lines)']);
    expect(s.records).toEqual([r.path]);
  });

  it('the second upload has a gap (1, 3): it stays open, and so does the record that proves it; the first still completes', () => {
    const r3 = rec('app.big/0', 'A', [
      [1, 'aaaa'],
      [1, 'h1'],
      [3, 'h3'],
    ]);
    const s = run(
      [[r3, A]],
      [
        orphan(
          up('app.huge/1', 'H', [
            [1, 'h1', MB6],
            [3, 'h3', MB6],
          ]),
        ),
      ],
    );
    expect(ops(s)).toEqual(['app.big/0 complete [1]', 'app.huge/1 none (lines)']);
    expect(s.unsettled).toEqual(["app.huge/1 (H): the server's parts are 1, 3: part 2 is missing (a gap)"]);
    expect(s.records).toEqual([]);
  });
});

describe('one record, one upload', () => {
  const r = rec('k/one', 'U', [
    [1, 'e1'],
    [2, 'e2'],
  ]);

  it('every part proven and valid: complete (ETags compared without quotes or case)', () => {
    const s = run([
      [
        r,
        up('k/one', 'U', [
          [1, 'E1', MB6],
          [2, 'E2', 10],
        ]),
      ],
    ]);
    expect(ops(s)).toEqual(['k/one complete [1,2]']);
    expect(s.items[0].parts).toEqual([
      { partNumber: 1, etag: 'e1' },
      { partNumber: 2, etag: 'e2' },
    ]);
  });

  it.each([
    [
      'a mismatched ETag',
      [
        [1, 'e1', MB6],
        [2, 'xx', 10],
      ],
      /ETag differs: 2 \(server xx, record e2\)/,
    ],
    [
      'a gap',
      [
        [1, 'e1', MB6],
        [3, 'e3', 10],
      ],
      /part 2 is missing \(a gap\)/,
    ],
    [
      'a part below 5 MiB that is not the last',
      [
        [1, 'e1', 1024],
        [2, 'e2', 10],
      ],
      /part 1 is 0\.00 MiB, below the 5 MiB minimum, and not the last part/,
    ],
    [
      'a server part no record line names',
      [
        [1, 'e1', MB6],
        [2, 'e2', MB6],
        [3, 'e3', 10],
      ],
      /part 3 \(ETag e3\) is on the server but in no record line/,
    ],
  ] as [string, [number, string, number][], RegExp][])(
    '%s: left alone and unsettled, also when complete is asked (never a subset of the parts)',
    (_n, parts, why) => {
      const server = up('k/one', 'U', parts);
      for (const decision of ['auto', 'complete'] as const) {
        const s = run([[r, server]], [], decision);
        expect(ops(s), decision).toEqual(['k/one none']);
        expect(s.items[0].reason).toMatch(why);
        expect(s.items[0].reason).toMatch(/^cannot complete: .*; left alone: choose abort to abort it$/);
        expect(s.unsettled).toHaveLength(1);
        expect(s.records).toEqual([]);
      }
      expect(ops(run([[r, server]], [], 'abort'))).toEqual(['k/one abort']);
    },
  );

  it('the record lists a part no server upload has: left alone; complete completes what is there and says what is left out', () => {
    const server = up('k/one', 'U', [[1, 'e1', MB6]]);
    const auto = run([[r, server]]);
    expect(auto.items[0]).toMatchObject({ op: 'none' });
    expect(auto.items[0].reason).toMatch(/the record lists part\(s\) 2 that no server upload has .*or complete to complete what the server has$/);
    const complete = run([[r, server]], [], 'complete');
    expect(ops(complete)).toEqual(['k/one complete [1]']);
    expect(complete.items[0].reason).toMatch(/^complete requested: .*; left out: record line\(s\) 2:e2 match no part on the server$/);
    expect(complete.records).toEqual([r.path]);
  });

  it('no part proven at all: cannot complete even when asked', () => {
    const s = run([[r, up('k/one', 'U', [[1, 'zz', MB6]])]], [], 'complete');
    expect(ops(s)).toEqual(['k/one none']);
    expect(s.items[0].reason).toMatch(/^cannot complete: ETag differs: 1/);
  });

  it('the upload is already gone: forget the record', () => {
    const s = run([[r, up('k/one', 'U', null)]]);
    expect(ops(s)).toEqual(['k/one forget']);
    expect(s.records).toEqual([r.path]);
  });
});

describe('server uploads with no record', () => {
  const r = rec('k/one', 'U', [
    [1, 'e1'],
    [2, 'e2'],
  ]);
  const gone = up('k/one', 'U', null);

  it('equal content proves nothing: a record without two lines of one part number proves no other upload', () => {
    const twin = up('other/key', 'T', [
      [1, 'e1', MB6],
      [2, 'e2', 10],
    ]);
    const s = run([[r, gone]], [orphan(twin)]);
    expect(ops(s)).toEqual(['k/one forget']);
    expect(s.unsettled).toEqual(['other/key (T): a server upload with no local record, and no record line proves its parts']);
    expect(ops(run([[r, gone]], [orphan(twin)], 'auto', true))).toEqual(['k/one forget', 'other/key abort']);
  });

  it("one the output's key format cannot produce is left alone without counting as unsettled", () => {
    const s = run([], [orphan(up('someone/else', 'X', [[1, 'q', 10]]), false)]);
    expect(ops(s)).toEqual([]);
    expect(s.unsettled).toEqual([]);
    expect(s.leftAlone[0]).toMatch(/someone\/else \(X\), not a key this output makes, is left alone/);
  });

  it('listed, then gone when its parts were asked for: noted, not unsettled', () => {
    const s = run([], [orphan(up('k/two', 'G', null))]);
    expect(s.unsettled).toEqual([]);
    expect(s.notes[0]).toMatch(/then gone when its parts were asked for/);
  });
});
