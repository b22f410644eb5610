/** Review of issue 3: parse ambiguities and out-of-range tag parts (keys that must not be missed). */
import { describe, expect, it } from 'vitest';
import { analyzeCollisions, keyFormatPrefixTemplate, parseKey, renderKey, toS3Key } from '../../shared/keyformat';

const T = new Date('2026-11-29T18:32:54Z'); // a Sunday: %u = 7, %w = 0

describe('parseKey: fixed-width conversions next to $INDEX', () => {
  it('%u and %w are one digit, so the digits after them belong to $INDEX', () => {
    const f = '/$TAG/%u$INDEX';
    expect(toS3Key(renderKey(f, { tag: 'a', index: 12, time: T }))).toBe('a/712');
    expect(parseKey(f, 'a/712')).toMatchObject({ tag: 'a', index: 12 });
    expect(parseKey('/%w-$INDEX', '0-3')).toMatchObject({ index: 3 });
    expect(parseKey('/%w-$INDEX', '12-3')).toBeNull();
  });

  it('an ambiguous variable-width field next to $INDEX reads the highest index (never too low)', () => {
    // `%-H$INDEX` for hour 1 index 512 and hour 15 index 12 both give "1512": take 512
    const f = '/$TAG/%-H$INDEX';
    expect(toS3Key(renderKey(f, { tag: 'a', index: 512, time: new Date('2026-11-29T01:00:00Z') }))).toBe('a/1512');
    expect(parseKey(f, 'a/1512')).toMatchObject({ index: 512, time: { hour: 1 } });
    // a tag ending in digits glued to $INDEX: the index takes every digit it can
    expect(parseKey('/$TAG$INDEX', 'app112')).toMatchObject({ index: 112 });
  });
});

describe('parseKey: $TAG[n] beyond the tag parts', () => {
  it('recognises the <tag>[n] text Fluent Bit writes when the tag has fewer parts (tag with delimiters)', () => {
    const f = '/$TAG[0]/$TAG[2]/$INDEX';
    const key = toS3Key(renderKey(f, { tag: 'app.web', index: 41, time: T }));
    expect(key).toBe('app/app.web[2]/41');
    expect(parseKey(f, key)).toMatchObject({ tag: 'app.web', index: 41, tagParts: { 0: 'app' } });
    // and still rejects keys whose parts contradict the tag
    expect(parseKey(f, 'other/app.web[2]/41')).toBeNull();
    // a tag that really has 3 parts is a normal key
    expect(parseKey(f, toS3Key(renderKey(f, { tag: 'a.b.c', index: 1, time: T })))).toMatchObject({ tagParts: { 0: 'a', 2: 'c' }, index: 1 });
  });

  it('the listing template matches that segment too', () => {
    const f = '/logs/$TAG[1]/$INDEX';
    const segs = keyFormatPrefixTemplate(f);
    const rendered = toS3Key(renderKey(f, { tag: 'single.x', index: 3, time: T })).split('/');
    expect(rendered).toEqual(['logs', 'x', '3']);
    const short = toS3Key(renderKey('/logs/$TAG[2]/$INDEX', { tag: 'a.b', index: 3, time: T })).split('/');
    expect(short).toEqual(['logs', 'a.b[2]', '3']);
    const segs2 = keyFormatPrefixTemplate('/logs/$TAG[2]/$INDEX');
    segs2.forEach((s, i) => expect(new RegExp(`^${s.pattern}$`).test(short[i])).toBe(true));
    segs.forEach((s, i) => expect(new RegExp(`^${s.pattern}$`).test(rendered[i])).toBe(true));
  });
});

describe('analyzeCollisions: periodic time fields say how often they repeat', () => {
  it.each([
    ['/$TAG/%H/$INDEX', /every day/],
    ['/$TAG/%M/$INDEX', /every hour/],
    ['/%d/$INDEX', /every month/],
    ['/%m/%d/$INDEX', /every year/],
    ['/%Y/%d/$INDEX', /every month/],
    ['/%Y/%m/%d/%I/$INDEX', /every 12 hours/],
  ])('%s', (format, re) => {
    const a = analyzeCollisions(format);
    expect(a.risk).toBe('same-window');
    expect(a.explanation).toMatch(re);
  });
});
