import { describe, expect, it } from 'vitest';
import { codeSpans, hexRows } from '../../renderer/src/format';

describe('codeSpans', () => {
  it('marks `backtick` spans of engine sentences as code', () => {
    expect(codeSpans('Run `store-doctor undo <store_dir> --apply` now.')).toEqual([
      { text: 'Run ', code: false },
      { text: 'store-doctor undo <store_dir> --apply', code: true },
      { text: ' now.', code: false },
    ]);
    expect(codeSpans('`a``b`')).toEqual([
      { text: 'a', code: true },
      { text: 'b', code: true },
    ]);
  });
  it('leaves text without or with unbalanced backticks as written', () => {
    expect(codeSpans('plain')).toEqual([{ text: 'plain', code: false }]);
    expect(codeSpans('one ` only')).toEqual([{ text: 'one ` only', code: false }]);
  });
});

describe('hexRows', () => {
  it('gives 16-byte rows with offset and printable ASCII', () => {
    const rows = hexRows('c1 00 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50');
    expect(rows).toHaveLength(2);
    expect(rows[0].offset).toBe('00000000');
    expect(rows[0].ascii).toBe('..ABCDEFGHIJKLMN');
    expect(rows[1]).toMatchObject({ offset: '00000010', ascii: 'OP' });
  });
});
