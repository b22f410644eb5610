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

describe('exportMarkdown on the real index-reset store', () => {
  it('says what was checked, renders next steps as command lines, and never calls an index safe without evidence', async () => {
    const { diagnoseStore } = await import('../../support/diagnose');
    const { exportMarkdown } = await import('../../../electron/engine/session/export');
    const path = await import('node:path');
    const fix = path.resolve(__dirname, '../../fixtures/fluent-bit-real/index-reset');
    const noListing = await diagnoseStore({ storePath: path.join(fix, 'store-after-run2.tar.gz'), configPath: path.join(fix, 'fluent-bit.conf') });
    const a = exportMarkdown({ ...noListing, evidence: null, version: 't' }).text;
    expect(a).toContain('## What was checked');
    expect(a).toMatch(/s3\.0: bucket evidence \*\*not listed\*\*/);
    expect(a).toMatch(/\| unknown \(at least 0\) \|/);
    expect(a).toContain('aws s3api list-objects-v2 --bucket fb-index-reset > listing.json');
    const withListing = await diagnoseStore({
      storePath: path.join(fix, 'store-after-run2.tar.gz'),
      configPath: path.join(fix, 'fluent-bit.conf'),
      listing: [path.join(fix, 's3api-list-objects-v2-after-run2.json')],
    });
    const b = exportMarkdown({ ...withListing, evidence: withListing.evidence.get(0)!, version: 't' }).text;
    expect(b).toMatch(/s3\.0: bucket evidence full listing/);
    expect(b).toMatch(/\| 11 \| 12 \| 1 \|/);
    // a snapshot is read-only evidence: the repair command names the live store_dir, and the evidence it needs
    expect(b).toMatch(/^store-doctor repair-index <store_dir> --config \S+fluent-bit\.conf --listing '<listing.json>' --apply$/m);
  });
});
