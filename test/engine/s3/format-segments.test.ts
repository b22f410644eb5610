/** The planner's view of a key format: segments, matchers, time ranges and time-ordered chains. */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  capturedTime,
  formatLiteralPrefix,
  keyMatcher,
  renderChain,
  splitSegments,
  timeChainAt,
  timeRange,
  tokenizeFormat,
} from '../../../electron/engine/s3/format-segments';
import { createS3Client, describeConnection } from '../../../electron/engine/s3';

describe('format segments', () => {
  it('splits the S3 key form of a format into literal and variable segments', () => {
    const segs = splitSegments('/logs/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX');
    expect(segs.map((s) => [s.literalHead, s.isLiteral, s.hasTag, s.hasTime])).toEqual([
      ['logs', true, false, false],
      ['', false, true, false],
      ['', false, false, true],
      ['', false, false, true],
      ['', false, false, true],
      ['', false, false, true],
    ]);
    expect(formatLiteralPrefix('/logs/$TAG/%Y')).toBe('logs/');
    expect(formatLiteralPrefix('/fluent-bit-logs/%%lit/$TAG')).toBe('fluent-bit-logs/%lit/');
  });

  it('expands composite conversions, so %D and %F split where their `/` falls', () => {
    expect(splitSegments('/a/%D/x').map((s) => s.tokens.length)).toEqual([1, 1, 1, 1, 1]);
    expect(tokenizeFormat('/%F').map((t) => (t.kind === 'time' ? t.conv : t.kind === 'literal' ? t.text : t.kind))).toEqual(['Y', '-', 'm', '-', 'd']);
    expect(tokenizeFormat('/%Q-$TAG[1]$UUID')).toEqual([{ kind: 'literal', text: '%Q-' }, { kind: 'tag', part: 1 }, { kind: 'uuid' }]);
  });

  it('matches every key of the real fixtures against their format, and not junk', () => {
    const root = 'test/fixtures/fluent-bit-real';
    const m = keyMatcher('/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX');
    let n = 0;
    for (const s of readdirSync(root)) {
      const f = join(root, s, 's3api-list-objects-v2.json');
      let contents: { Key: string }[] = [];
      try {
        contents = JSON.parse(readFileSync(f, 'utf8')).Contents ?? [];
      } catch {
        continue;
      }
      for (const c of contents) {
        expect(m.test(c.Key), c.Key).toBe(true);
        n++;
      }
    }
    expect(n).toBeGreaterThan(40);
    for (const junk of ['README', 'app.db/2026/11/29/notes.txt', 'app.db/2026/11/29/18_33_06-x', 'a/b/2026/11/29/18_33_06-1'])
      expect(m.test(junk), junk).toBe(false);
    // PutObject suffix only when the format has neither $INDEX nor $UUID
    expect(keyMatcher('/fluent-bit-logs/$TAG/%Y/%m/%d/%H/%M/%S').test('fluent-bit-logs/app/2026/11/29/18/33/06-objectAb3dE9fZ')).toBe(true);
    expect(keyMatcher('/l/$TAG-$INDEX').test('l/app-3-objectAb3dE9fZ')).toBe(false);
  });

  it('gives the UTC window of partition prefixes', () => {
    const [, y, m, d, h] = splitSegments('/$TAG/%Y/%m/%d/%H/$INDEX');
    const f = { ...capturedTime(y, y.regex.exec('2026')!), ...capturedTime(m, m.regex.exec('02')!) };
    expect(timeRange(f)).toEqual({ start: Date.UTC(2026, 1, 1), end: Date.UTC(2026, 2, 1) });
    const g = { ...f, ...capturedTime(d, d.regex.exec('28')!), ...capturedTime(h, h.regex.exec('23')!) };
    expect(timeRange(g)).toEqual({ start: Date.UTC(2026, 1, 28, 23), end: Date.UTC(2026, 2, 1, 0) });
    const [dm] = splitSegments('/%d-%b-%Y');
    expect(timeRange(capturedTime(dm, dm.regex.exec('05-Nov-2026')!))).toEqual({ start: Date.UTC(2026, 10, 5), end: Date.UTC(2026, 10, 6) });
    expect(timeRange({ H: 3 })).toBeNull();
    expect(timeRange({ s: 1_800_000_000 })).toEqual({ start: 1_800_000_000_000, end: 1_800_000_001_000 });
  });

  it('recognises formats whose keys sort by time', () => {
    const segs = splitSegments('/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX');
    expect(timeChainAt(segs, 0)).toBeNull();
    expect(timeChainAt(segs, 1)?.resolution).toBe('S');
    expect(timeChainAt(splitSegments('/%d/%m/%Y/$INDEX'), 0)).toBeNull();
    expect(timeChainAt(splitSegments('/x/%Y/%-m/%d'), 1)?.resolution).toBe('Y');
    expect(renderChain(timeChainAt(segs, 1)!, new Date('2026-03-04T05:06:07Z'))).toBe('2026/03/04/05_06_07');
  });

  it('renders a bound every later key sorts above (property)', () => {
    const chain = timeChainAt(splitSegments('/%Y/%m/%d/%H/$INDEX'), 0)!;
    const time = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) });
    fc.assert(
      fc.property(time, time, fc.nat(99999), (a, b, index) => {
        const [since, t] = a <= b ? [a, b] : [b, a];
        const floor = Math.floor(since / 3_600_000) * 3_600_000;
        const key = `${renderChain(chain, new Date(t))}/${index}`;
        const bound = renderChain(chain, new Date(since));
        return t >= floor ? key > bound : key < bound;
      }),
    );
  });
});

describe('S3 client options', () => {
  it('describes a connection without secrets', () => {
    expect(describeConnection({ profile: 'prod', region: 'eu-west-1', endpoint: 'http://user:pw@127.0.0.1:9000/?x=1' })).toEqual({
      profile: 'prod',
      region: 'eu-west-1',
      endpoint: 'http://127.0.0.1:9000',
      pathStyle: true,
    });
    expect(describeConnection({}).pathStyle).toBe(false);
  });

  it('rejects an endpoint that is not a URL and sets S3-compatible defaults', async () => {
    expect(() => createS3Client({ endpoint: '127.0.0.1:9000' })).toThrow(/is not a URL/);
    const c = createS3Client({ endpoint: 'http://127.0.0.1:9', region: 'eu-central-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    expect(c.config.forcePathStyle).toBe(true);
    expect(await c.config.region()).toBe('eu-central-1');
    expect(await c.config.requestChecksumCalculation()).toBe('WHEN_REQUIRED');
    expect(await c.config.responseChecksumValidation()).toBe('WHEN_REQUIRED');
    c.destroy();
  });
});
