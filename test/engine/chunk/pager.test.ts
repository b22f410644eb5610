import { describe, expect, it } from 'vitest';
import { countRecords, encodeChunk, readRecordPage, RecordPager, type ByteSource } from '../../../electron/engine/chunk';

function lines(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += `{"i":${i},"date":${1767225600 + i}}\n`;
  return s;
}

function source(file: Buffer, id?: string, reads?: number[]): ByteSource {
  return {
    fileSize: file.length,
    id,
    read: async (pos, len) => {
      reads?.push(pos);
      return file.subarray(pos, pos + len);
    },
  };
}

describe('record pager', () => {
  it('pages through records numbered like the counter counts them', async () => {
    const content = lines(25) + 'not json\n' + '\n' + '{"last":true}';
    const file = encodeChunk({ meta: 'app', content });
    expect(countRecords(Buffer.from(content)).records).toBe(27);
    const p1 = await readRecordPage(source(file), 0, 10);
    expect(p1.records).toHaveLength(10);
    expect(p1.records[0]).toEqual({ i: 0, date: 1767225600 });
    expect(p1.total).toBe(27);
    expect(p1.nextOffset).toBe(10);
    const p3 = await readRecordPage(source(file), 20, 10);
    expect(p3.records).toEqual([
      { i: 20, date: 1767225620 },
      { i: 21, date: 1767225621 },
      { i: 22, date: 1767225622 },
      { i: 23, date: 1767225623 },
      { i: 24, date: 1767225624 },
      { _raw: 'not json' },
      { last: true },
    ]);
    expect(p3.badLines).toBe(1);
    expect(p3.nextOffset).toBeNull();
  });

  it('gives the same page however the content is fed', () => {
    const content = Buffer.from(lines(50));
    const want = (() => {
      const p = new RecordPager(17, 5);
      p.push(content);
      return p.finish();
    })();
    for (const step of [1, 3, 64]) {
      const p = new RecordPager(17, 5);
      for (let i = 0; i < content.length; i += step) p.push(Buffer.from(content.subarray(i, i + step)));
      expect(p.finish()).toEqual(want);
    }
  });

  it('uses cached checkpoints so a later page does not read the chunk from the start', async () => {
    const content = lines(5000);
    const file = encodeChunk({ meta: 'app', content });
    const first: number[] = [];
    await readRecordPage(source(file, 'big-1', first), 0, 10);
    const later: number[] = [];
    const page = await readRecordPage(source(file, 'big-1', later), 4500, 5, { countTotal: false });
    expect(page.records[0]).toMatchObject({ i: 4500 });
    expect(page.total).toBeNull();
    const contentReads = later.filter((p) => p > 0);
    expect(contentReads[0]).toBeGreaterThan(24 + 3 + content.length / 2);
  });

  it('streams archives (sequential sources) and handles damaged files', async () => {
    const file = encodeChunk({ meta: 'app', content: lines(30) });
    const seq: ByteSource = {
      fileSize: file.length,
      stream: async function* () {
        for (let i = 0; i < file.length; i += 100) yield file.subarray(i, i + 100);
      },
    };
    const p = await readRecordPage(seq, 28, 10);
    expect(p.records).toEqual([
      { i: 28, date: 1767225628 },
      { i: 29, date: 1767225629 },
    ]);
    expect(p.total).toBe(30);
    const bad = Buffer.from(file);
    bad[0] = 0;
    expect((await readRecordPage(source(bad), 0, 10)).records).toEqual([]);
  });
});
