import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseKey, renderKey, toS3Key, keyFormatPrefixTemplate } from '../../shared/keyformat';

const tagChar = fc.constantFrom(...'abcxyz019_.-'.split(''));
const tagArb = fc.array(tagChar, { minLength: 1, maxLength: 16 }).map((a) => a.join(''));
const timeArb = fc
  .date({ min: new Date('1970-01-02T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000));
const uuidArb = fc
  .array(fc.constantFrom(...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('')), { minLength: 8, maxLength: 8 })
  .map((a) => a.join(''));

const segmentArb = fc.constantFrom('logs', 'fluent-bit', '$TAG', '%Y', '%m', '%d', '%H', '%Y-%m-%d', '%H_%M_%S', '%j', '%s', 'day=%F', '%b%e');
const formatArb = fc
  .tuple(fc.array(segmentArb, { minLength: 0, maxLength: 5 }), fc.constantFrom('$INDEX', 'segment_$INDEX', '%H_%M_%S-$INDEX', '$UUID', '$INDEX-$UUID', 'obj'))
  .map(([segs, last]) => '/' + [...segs, last].join('/'));

describe('render → parse round trip (property)', () => {
  it('recovers tag, index, uuid and the time fields', () => {
    fc.assert(
      fc.property(
        formatArb,
        tagArb.filter((t) => !t.includes('/')),
        fc.nat({ max: 2 ** 40 }),
        timeArb,
        uuidArb,
        (format, tag, index, time, uuid) => {
          const key = toS3Key(renderKey(format, { tag, index, time, uuid, putObject: true, randomSuffix: 'Suffix01' }));
          const parts = parseKey(format, key);
          expect(parts).not.toBeNull();
          if (format.includes('$TAG')) expect(parts!.tag).toBe(tag);
          if (format.includes('$INDEX')) expect(parts!.index).toBe(index);
          if (format.includes('$UUID')) expect(parts!.uuid).toBe(uuid);
          if (!format.includes('$INDEX') && !format.includes('$UUID')) expect(parts!.suffix).toBe('Suffix01');
          const t = parts!.time ?? {};
          if (format.includes('%Y')) expect(t.year).toBe(time.getUTCFullYear());
          if (format.includes('%m') || format.includes('%F') || format.includes('%b') || (format.includes('%j') && format.includes('%Y')))
            expect(t.month).toBe(time.getUTCMonth() + 1);
          if (format.includes('%d') || format.includes('%F') || format.includes('%e')) expect(t.day).toBe(time.getUTCDate());
          if (format.includes('%H')) expect(t.hour).toBe(time.getUTCHours());
          if (format.includes('%S')) expect(t.second).toBe(time.getUTCSeconds());
          if (format.includes('%s')) expect(t.epoch).toBe(time.getTime() / 1000);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('tag parts round-trip with several delimiter characters', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.constantFrom(...'abz09'.split('')), { minLength: 1, maxLength: 5 }).map((a) => a.join('')),
          { minLength: 3, maxLength: 3 },
        ),
        fc.constantFrom('.', '-', '._'),
        fc.nat(1000),
        (parts, delims, index) => {
          const tag = parts.join(delims[0]);
          const format = '/$TAG[0]/$TAG[2]/$TAG[1]-$INDEX';
          const key = toS3Key(renderKey(format, { tag, index, time: new Date(0), tagDelimiters: delims }));
          expect(parseKey(format, key, { tagDelimiters: delims })).toEqual({ tagParts: { 0: parts[0], 1: parts[1], 2: parts[2] }, index });
        },
      ),
    );
  });

  it('every rendered segment matches its template pattern', () => {
    fc.assert(
      fc.property(
        formatArb,
        tagArb.filter((t) => !t.includes('/')),
        fc.nat(10_000),
        timeArb,
        (format, tag, index, time) => {
          const segs = keyFormatPrefixTemplate(format);
          const rendered = toS3Key(renderKey(format, { tag, index, time })).split('/');
          expect(rendered).toHaveLength(segs.length);
          segs.forEach((s, i) => expect(new RegExp(`^${s.pattern}$`).test(rendered[i])).toBe(true));
        },
      ),
      { numRuns: 200 },
    );
  });
});
