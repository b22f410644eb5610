/** Review gap of issue 3: `$INDEX` is a uint64 in Fluent Bit; keys above 2^53 still belong to the format. */
import { describe, expect, it } from 'vitest';
import { parseKey, renderKey } from '../../shared/keyformat';

describe('$INDEX beyond the exact range of a JavaScript number', () => {
  it('keeps the key and reports the index exactly as text', () => {
    const p = parseKey('/logs/segment_$INDEX', 'logs/segment_9007199254740993');
    expect(p).not.toBeNull();
    expect(p!.index).toBeUndefined();
    expect(p!.indexText).toBe('9007199254740993');
    expect(parseKey('/logs/$TAG/$INDEX', 'logs/app/18446744073709551615')).toMatchObject({ tag: 'app', indexText: '18446744073709551615' });
  });

  it('exact indices stay numbers without indexText', () => {
    const p = parseKey('/logs/segment_$INDEX', 'logs/segment_9007199254740991')!;
    expect(p.index).toBe(Number.MAX_SAFE_INTEGER);
    expect(p).not.toHaveProperty('indexText');
    expect(parseKey('/logs/segment_$INDEX', renderKey('/logs/segment_$INDEX', { tag: 't', time: new Date(0), index: 7 }).slice(1))).toEqual({ index: 7 });
  });

  it('above 2^64 - 1 the digits cannot be a Fluent Bit $INDEX (uint64 wraps): not of the format', () => {
    expect(parseKey('/logs/segment_$INDEX', 'logs/segment_18446744073709551616')).toBeNull();
  });
});

describe('render → parse round trip of a uint64 index', () => {
  it.each([2n ** 53n + 1n, 2n ** 60n + 3n, 2n ** 64n - 1n])('%s', (i) => {
    const key = renderKey('/$TAG/%Y/$INDEX', { tag: 'a.b', time: new Date(Date.UTC(2026, 0, 2)), index: i }).slice(1);
    expect(parseKey('/$TAG/%Y/$INDEX', key)).toEqual({ tag: 'a.b', indexText: i.toString(), time: { year: 2026 } });
  });
});
