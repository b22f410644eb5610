import { describe, expect, it } from 'vitest';
import {
  analyzeCollisions,
  DEFAULT_KEY_FORMAT,
  keyFormatPrefixTemplate,
  keyTimeWindow,
  literalPrefix,
  parseKey,
  renderKey,
  renderKeyDetailed,
  splitTag,
  strftimeUtc,
  toS3Key,
  unknownConversions,
} from '../../shared/keyformat';

const T = new Date('2026-11-29T18:32:54Z');

describe('renderKey: docs/fluent-bit-store-format.md#key-format pipeline', () => {
  it('renders the fixtures key format (index-reset run 1, first app.web object)', () => {
    expect(renderKey('/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX', { tag: 'app.web', index: 0, time: T })).toBe('/app.web/2026/11/29/18_32_54-0');
  });

  it('renders the default key format with a leading slash and the PutObject suffix', () => {
    const k = renderKey(DEFAULT_KEY_FORMAT, { tag: 'my.tag', time: T, putObject: true, randomSuffix: 'Ab3dE6gH' });
    expect(k).toBe('/fluent-bit-logs/my.tag/2026/11/29/18/32/54-objectAb3dE6gH');
    expect(toS3Key(k)).toBe('fluent-bit-logs/my.tag/2026/11/29/18/32/54-objectAb3dE6gH');
  });

  it('appends a random 8-char suffix only for PutObject without $UUID/$INDEX/static_file_path (§6.2)', () => {
    expect(renderKey('/a/$TAG', { tag: 't', time: T, putObject: true })).toMatch(/^\/a\/t-object[0-9A-Za-z]{8}$/);
    expect(renderKey('/a/$TAG', { tag: 't', time: T, putObject: false })).toBe('/a/t');
    expect(renderKey('/a/$TAG', { tag: 't', time: T, putObject: true, staticFilePath: true })).toBe('/a/t');
    expect(renderKey('/a/$TAG-$INDEX', { tag: 't', index: 4, time: T, putObject: true })).toBe('/a/t-4');
    expect(renderKey('/a/$UUID', { tag: 't', time: T, putObject: true, uuid: 'abcdefgh' })).toBe('/a/abcdefgh');
    const long = '/' + 'x'.repeat(1007); // 1008 + 16 = 1024: still appended
    expect(renderKey(long, { tag: 't', time: T, putObject: true })).toHaveLength(1008 + 15);
    expect(renderKey(long + 'y', { tag: 't', time: T, putObject: true })).toBe(long + 'y');
  });

  it('splits $TAG[n] on ANY delimiter character, runs collapse, no empty parts', () => {
    expect(splitTag('..a.-b--c.', '.-')).toEqual(['a', 'b', 'c']);
    expect(renderKey('/$TAG[0]/$TAG[1]/$TAG[2]', { tag: 'kube..var-log', time: T, tagDelimiters: '.-' })).toBe('/kube/var/log');
    expect(renderKey('/$TAG[1]_$TAG[1]', { tag: 'a.b', time: T })).toBe('/b_b');
  });

  it('leaves an out-of-range $TAG[n] for the $TAG pass, which turns it into <tag>[n] (as flb_get_s3_key does)', () => {
    const r = renderKeyDetailed('/$TAG[0]/$TAG[3]', { tag: 'app.web', time: T });
    expect(r.key).toBe('/app/app.web[3]');
    expect(r.warnings.join()).toMatch(/Out of bounds tag part/);
  });

  it('handles at most 10 tag parts: $TAG[10] is $TAG + "[10]"', () => {
    const tag = 'a.b.c.d.e.f.g.h.i.j.k';
    expect(renderKey('/$TAG[9]/$TAG[10]', { tag, time: T })).toBe(`/j/${tag}[10]`);
  });

  it('warns when the format uses $TAG[ and no delimiter occurs in the tag; $TAG[0] is the whole tag', () => {
    const r = renderKeyDetailed('/$TAG[0]/x', { tag: 'single', time: T });
    expect(r.key).toBe('/single/x');
    expect(r.warnings[0]).toMatch(/Invalid Tag delimiter/);
  });

  it('writes $INDEX unpadded, as uint64', () => {
    expect(renderKey('/s_$INDEX', { tag: 't', index: 7, time: T })).toBe('/s_7');
    expect(renderKey('/s_$INDEX', { tag: 't', index: 18446744073709551615n, time: T })).toBe('/s_18446744073709551615');
    expect(renderKey('/s_$INDEX', { tag: 't', index: -1, time: T })).toBe('/s_18446744073709551615');
  });

  it('uses the same $UUID for every occurrence in one key, 8 chars [0-9a-zA-Z], new per build', () => {
    const k = renderKey('/$UUID/$UUID', { tag: 't', time: T });
    const [, a, b] = k.split('/');
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9A-Za-z]{8}$/);
    const keys = new Set(Array.from({ length: 20 }, () => renderKey('/$UUID', { tag: 't', time: T })));
    expect(keys.size).toBeGreaterThan(15);
  });

  it('expands text from earlier passes: a tag with %Y or $INDEX or $UUID', () => {
    expect(renderKey('/x/$TAG', { tag: 'a%Yb', time: T })).toBe('/x/a2026b');
    expect(renderKey('/x/$TAG/$INDEX', { tag: 'i$INDEX', index: 5, time: T })).toBe('/x/i5/5');
    // $INDEX is only replaced when the *format* has it
    expect(renderKey('/x/$TAG', { tag: 'i$INDEX', index: 5, time: T })).toBe('/x/i$INDEX');
    expect(renderKey('/x/$TAG', { tag: 'u$UUID', uuid: 'ZZZZzzzz', time: T })).toBe('/x/uZZZZzzzz');
    // a tag part holding $TAG[1] is replaced by the next pass
    expect(renderKey('/$TAG[0]', { tag: '$TAG[1].z', time: T, tagDelimiters: '.' })).toBe('/z');
  });

  it('only %% gives a literal %, unknown conversions are copied as written', () => {
    expect(renderKey('/100%%/%Q/%L/%', { tag: 't', time: T })).toBe('/100%/%Q/%L/%');
    expect(unknownConversions('/%Q/%Y/%L')).toEqual(['%Q', '%L']);
    expect(renderKeyDetailed('/%Q/%Y', { tag: 't', time: T }).warnings).toEqual(['unknown strftime conversion %Q: copied into the key as written']);
  });
});

describe('strftimeUtc (glibc, C locale, gmtime)', () => {
  it.each([
    ['%Y-%m-%d %H:%M:%S', '2026-11-29 18:32:54'],
    ['%y %j %s', '26 333 1795977174'],
    ['%e|%b|%B|%a|%A|%p|%P', '29|Nov|November|Sun|Sunday|PM|pm'],
    ['%F %T %D %R', '2026-11-29 18:32:54 11/29/26 18:32'],
    ['%Z %z', 'GMT +0000'],
    ['%c', 'Sun Nov 29 18:32:54 2026'],
    ['%I %l %k %r', '06  6 18 06:32:54 PM'],
    ['%u %w %U %W %V %G %g %C', '7 0 48 47 48 2026 26 20'],
    ['%-d %_m %^a %10Y %#p', '29 11 SUN 0000002026 pm'],
  ])('%s', (fmt, out) => {
    expect(strftimeUtc(fmt, T)).toBe(out);
  });

  it('pads single-digit days with a space for %e and zero for %d', () => {
    const d = new Date('2026-01-05T03:04:05Z');
    expect(strftimeUtc('%d|%e|%j|%I %p', d)).toBe('05| 5|005|03 AM');
  });

  it('agrees with ISO week numbers at year boundaries', () => {
    expect(strftimeUtc('%G-W%V-%u', new Date('2021-01-03T00:00:00Z'))).toBe('2020-W53-7');
    expect(strftimeUtc('%G-W%V-%u', new Date('2024-12-30T00:00:00Z'))).toBe('2025-W01-1');
  });
});

describe('parseKey', () => {
  const F = '/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX';
  it('parses tag, index and time of a fixture key', () => {
    expect(parseKey(F, 'app.db/2026/11/29/18_32_54-1')).toEqual({
      tag: 'app.db',
      index: 1,
      time: { year: 2026, month: 11, day: 29, hour: 18, minute: 32, second: 54 },
    });
  });

  it('says when a key does not belong to the format', () => {
    expect(parseKey(F, 'app.db/2026/11/29/18_32_54')).toBeNull();
    expect(parseKey(F, 'app.db/2026/13/29/18_32_54-1')).toBeNull();
    expect(parseKey(F, 'app.db/2026/11/29/18_32_54-01')).toBeNull();
    expect(parseKey('/logs/segment_$INDEX', 'logs/other_1')).toBeNull();
  });

  it('accepts a key with its leading slash (multipart record form)', () => {
    expect(parseKey(F, '/app.big/2026/11/29/18_36_06-0')?.index).toBe(0);
  });

  it('parses tag parts, uuid and the PutObject suffix', () => {
    expect(parseKey('/$TAG[0]/$TAG[1]/$UUID', 'kube/web/aB3dE6gH')).toEqual({ tagParts: { 0: 'kube', 1: 'web' }, uuid: 'aB3dE6gH' });
    expect(parseKey(DEFAULT_KEY_FORMAT, 'fluent-bit-logs/a.b/2026/11/29/18/32/54-objectAb3dE6gH')).toMatchObject({ tag: 'a.b', suffix: 'Ab3dE6gH' });
    expect(parseKey(DEFAULT_KEY_FORMAT, 'fluent-bit-logs/a.b/2026/11/29/18/32/54')).toMatchObject({ tag: 'a.b' });
  });

  it('rejects keys whose repeated fields disagree', () => {
    expect(parseKey('/$INDEX/$INDEX', '3/3')).toEqual({ index: 3 });
    expect(parseKey('/$INDEX/$INDEX', '3/4')).toBeNull();
    expect(parseKey('/%Y/%F', '2026/2026-11-29')).toMatchObject({ time: { year: 2026, month: 11, day: 29 } });
    expect(parseKey('/%Y/%F', '2025/2026-11-29')).toBeNull();
    expect(parseKey('/$TAG/$TAG[1]', 'a.b/c')).toBeNull();
  });

  it('derives month and day from %j and hour from %I %p', () => {
    expect(parseKey('/%Y/%j/%I%p', '2026/333/06PM')?.time).toEqual({ year: 2026, month: 11, day: 29, hour: 18 });
  });
});

describe('analyzeCollisions', () => {
  it('classifies the formats of issue 3', () => {
    const day = analyzeCollisions('/$TAG/%Y/%m/%d/$INDEX');
    expect(day).toMatchObject({ risk: 'same-window', timeResolutionSeconds: 86_400, hasTag: true, hasIndex: true });
    expect(day.explanation).toMatch(/same day/);
    expect(analyzeCollisions('/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX').risk).toBe('practically-never');
    expect(analyzeCollisions('/logs/segment_$INDEX')).toMatchObject({ risk: 'always', literalPrefix: 'logs/segment_', timeResolutionSeconds: null });
    expect(analyzeCollisions(DEFAULT_KEY_FORMAT).risk).toBe('never');
    expect(analyzeCollisions('/a/$UUID/$INDEX').risk).toBe('practically-never');
    expect(analyzeCollisions('/a/%H/$INDEX').explanation).toMatch(/periodically/);
  });

  it('gives the time window of a parsed key', () => {
    const f = '/$TAG/%Y/%m/%d/$INDEX';
    expect(keyTimeWindow(f, parseKey(f, 'a/2026/11/29/4')!)).toEqual({ start: new Date('2026-11-29T00:00:00Z'), end: new Date('2026-11-30T00:00:00Z') });
    expect(keyTimeWindow('/%Y/%m/$INDEX', parseKey('/%Y/%m/$INDEX', '2026/12/1')!)?.end).toEqual(new Date('2027-01-01T00:00:00Z'));
    expect(keyTimeWindow('/%H/$INDEX', parseKey('/%H/$INDEX', '18/1')!)).toBeNull();
  });
});

describe('listing helpers', () => {
  it('literalPrefix is the S3-key text before the first variable', () => {
    expect(literalPrefix('/logs/app/$TAG/%Y')).toBe('logs/app/');
    expect(literalPrefix('/$TAG/%Y')).toBe('');
    expect(literalPrefix('/100%%/x/%Y')).toBe('100%/x/');
  });

  it('keyFormatPrefixTemplate describes each path segment with a matching pattern', () => {
    const segs = keyFormatPrefixTemplate('/logs/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX');
    expect(segs.map((s) => s.kind)).toEqual(['literal', 'tag', 'time', 'time', 'time', 'mixed']);
    expect(segs[5].last).toBe(true);
    const rendered = renderKey('/logs/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX', { tag: 'app.web', index: 12, time: T }).slice(1).split('/');
    segs.forEach((s, i) => expect(new RegExp(`^${s.pattern}$`).test(rendered[i])).toBe(true));
  });
});
