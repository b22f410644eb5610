/** Markdown export escaping: no raw HTML outside code spans, commands inside code spans kept verbatim. */
import { describe, expect, it } from 'vitest';
import { md } from '../../../electron/engine/session/export';

describe('md()', () => {
  it('keeps <placeholders> verbatim inside code spans', () => {
    expect(md('Run `store-doctor repair-index <store_dir> --apply` now')).toBe('Run `store-doctor repair-index <store_dir> --apply` now');
  });
  it('escapes raw HTML outside code spans and table pipes everywhere', () => {
    expect(md('a <b>bold</b> | c\nd')).toBe('a &lt;b&gt;bold&lt;/b&gt; \\| c d');
  });
});
