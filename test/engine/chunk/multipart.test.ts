import { describe, expect, it } from 'vitest';
import { parseMultipartRecord } from '../../../electron/engine/chunk';

const meta = Buffer.from('/app.big/2026/11/29/18_36_06-0\ndedeafef5be1648c7690ff660c24a9ad');
const parse = (content: string, m: Buffer = meta) => parseMultipartRecord(m, Buffer.from(content));

describe('parseMultipartRecord (docs/fluent-bit-store-format.md#multipart-records item 7)', () => {
  it('splits the metadata at the first newline and reads every part', () => {
    const r = parse('part_number=1\tetag=55143c76f53e6597b796e8de394a7f81\npart_number=2\tetag=95a4e6ad41e09a58d5e279bb9a790ece\n');
    expect(r).toMatchObject({
      key: '/app.big/2026/11/29/18_36_06-0',
      s3Key: 'app.big/2026/11/29/18_36_06-0',
      uploadId: 'dedeafef5be1648c7690ff660c24a9ad',
      lastPartNumber: 2,
      stoppedAt: null,
      problems: [],
    });
    expect(r.completeParts.map((p) => p.partNumber)).toEqual([1, 2]);
    const more = parseMultipartRecord(Buffer.from('/k\nid\nextra'), Buffer.from('part_number=1\tetag=x\n'));
    expect(more.uploadId).toBe('id\nextra');
  });

  it('stops at a line without part_number=, without a TAB, or with N <= 0, losing what follows', () => {
    const a = parse('part_number=1\tetag=a\ngarbage\npart_number=3\tetag=c\n');
    expect(a.stoppedAt).toMatchObject({ line: 2, text: 'garbage' });
    expect(a.parts.map((p) => p.partNumber)).toEqual([1]);
    expect(a.completeParts.map((p) => p.partNumber)).toEqual([1]);
    expect(parse('part_number=1\tetag=a\npart_number=2 etag=b\npart_number=3\tetag=c\n').stoppedAt?.line).toBe(2);
    expect(parse('part_number=1\tetag=a\npart_number=0\tetag=b\n').stoppedAt?.reason).toMatch(/not above 0/);
    expect(parse('part_number=1\tetag=a\npart_number=-4\tetag=b\n').parts).toHaveLength(1);
  });

  it('skips blank lines, keeps a trailing CR in the ETag, and takes the text after the first "tag="', () => {
    const r = parse('\n\npart_number=1\tetag=abc\r\n\npart_number=2\tetag=x tag=y\n');
    expect(r.stoppedAt).toBeNull();
    expect(r.parts).toEqual([
      { partNumber: 1, etag: 'abc\r' },
      { partNumber: 2, etag: 'x tag=y' },
    ]);
  });

  it('lets the last line win: parts above the last N are left out of Complete', () => {
    const r = parse('part_number=1\tetag=a\npart_number=3\tetag=c\npart_number=2\tetag=b\n');
    expect(r.lastPartNumber).toBe(2);
    expect(r.completeParts).toEqual([
      { partNumber: 1, etag: 'a' },
      { partNumber: 2, etag: 'b' },
    ]);
    const dup = parse('part_number=1\tetag=old\npart_number=1\tetag=new\n');
    expect(dup.completeParts).toEqual([{ partNumber: 1, etag: 'new' }]);
  });

  it('reports records Fluent Bit skips: no newline in the metadata, no parsable line', () => {
    expect(parse('part_number=1\tetag=a\n', Buffer.from('/key-only')).problems[0]).toMatch(/no newline/);
    const none = parse('hello\n');
    expect(none.parts).toHaveLength(0);
    expect(none.problems.join(' ')).toMatch(/No part line/);
    expect(none.completeParts).toEqual([]);
  });

  it('ends the content at the first NUL byte like the C string it is', () => {
    const r = parseMultipartRecord(meta, Buffer.concat([Buffer.from('part_number=1\tetag=a\n'), Buffer.alloc(100), Buffer.from('part_number=2\tetag=b\n')]));
    expect(r.parts).toHaveLength(1);
  });
});
