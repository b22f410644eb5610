/**
 * The version facts module (electron/engine/fluentbit/versions.ts): version parsing, which measured
 * versions apply to a given one, `fluent-bit --version` output, the retry rule per version, and the
 * inference from a store — on the real snapshots of every version, where it must never exclude the
 * version that really wrote the store.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanStore } from '../../../electron/engine/store';
import {
  describeFact,
  factsFor,
  inferFromStore,
  MEASURED,
  parseVersion,
  parseVersionOutput,
  resolveVersion,
  triesText,
} from '../../../electron/engine/fluentbit/versions';

const REAL = path.join(__dirname, '../../fixtures/fluent-bit-real');
const ids = (fs: readonly { version: string }[]) => fs.map((f) => f.version);
const only = (...v: string[]) => MEASURED.filter((f) => v.includes(f.version));

describe('versions: parsing', () => {
  it('reads x.y.z, vx.y.z and x.y; nothing else', () => {
    expect(parseVersion('1.9.10')).toEqual([1, 9, 10]);
    expect(parseVersion('v5.0.9')).toEqual([5, 0, 9]);
    expect(parseVersion('4.2')).toEqual([4, 2, 0]);
    for (const bad of ['', '5', '5.x', '1.9.10-rc1', '1.9.10; rm -rf /', 'latest']) expect(parseVersion(bad), bad).toBeNull();
  });

  it('reads the version line `fluent-bit --version` prints', () => {
    expect(parseVersionOutput('Fluent Bit v5.0.9\nGit commit: \n')).toBe('5.0.9');
    expect(parseVersionOutput('Fluent Bit v1.9.10\n')).toBe('1.9.10');
    expect(parseVersionOutput('fluent-bit 5.0.9\n')).toBeNull();
    expect(parseVersionOutput('Fluent Bit vX\n')).toBeNull();
  });
});

describe('versions: which measured facts apply', () => {
  it.each([
    ['1.9.10', ['1.9.10'], null],
    ['5.1.1', ['5.1.1'], null],
    ['1.9.3', ['1.9.10'], /same minor/],
    ['5.0.1', ['5.0.9'], /same minor/],
    ['2.2.0', ['1.9.10', '3.2.10'], /between 1\.9\.10 and 3\.2\.10/],
    ['4.0.3', ['3.2.10', '4.2.8'], /between 3\.2\.10 and 4\.2\.8/],
    ['4.9.0', ['4.2.8', '5.0.9'], /between/],
    ['1.8.15', ['1.9.10'], /older than every measured version/],
    ['6.0.0', ['5.1.1'], /newer than every measured version/],
  ])('%s → %j', (v, want, note) => {
    const r = factsFor(v);
    expect(ids(r.facts)).toEqual(want);
    if (note) expect(r.note).toMatch(note);
    else expect(r.note).toBeNull();
  });

  it('retry_limit: five tries before 4.x, at the limit in 4.2.8, above it in 5.x (docs/fluent-bit-versions.md §4)', () => {
    expect(triesText(only('1.9.10'), '1')).toBe('retry_limit 1: 1.9.10 ignore it: 5 tries (measured with retry_limit 1) (docs/fluent-bit-versions.md §4)');
    expect(triesText(only('4.2.8'), '1')).toBe('retry_limit 1: 4.2.8 give up at the limit: 1 try (measured) (docs/fluent-bit-versions.md §4)');
    expect(triesText(only('5.0.9', '5.1.1'), undefined)).toBe(
      'retry_limit not set (Fluent Bit default 1): 5.0.9 and 5.1.1 give up above the limit: 2 tries (measured) (docs/fluent-bit-versions.md §4)',
    );
    expect(triesText(only('4.2.8', '5.0.9'), '3')).toBe(
      'retry_limit 3: 4.2.8 give up at the limit: 3 tries (read from the rule measured with retry_limit 1); 5.0.9 give up above the limit: 4 tries (read from the rule measured with retry_limit 1) (docs/fluent-bit-versions.md §4)',
    );
    expect(triesText(MEASURED, 'no_limits')).toContain('4.2.8 give up at the limit (not measured with no_limits)');
    expect(triesText(MEASURED, '1')).toMatch(
      /^retry_limit 1: 1\.9\.10 and 3\.2\.10 ignore it: 5 tries .*; 4\.2\.8 give up at the limit: 1 try .*; 5\.0\.9 and 5\.1\.1 give up above the limit: 2 tries/,
    );
  });

  it('describeFact says one thing when the versions agree, and what differs when they do not', () => {
    const say = (q: boolean, v: string) => `${v}: ${q ? 'quarantine' : 'no quarantine'}`;
    expect(describeFact(only('5.0.9', '5.1.1'), (f) => f.quarantine, say)).toBe('5.0.9 and 5.1.1: quarantine');
    expect(describeFact(MEASURED, (f) => f.quarantine, say)).toBe('1.9.10, 3.2.10 and 4.2.8: no quarantine; 5.0.9 and 5.1.1: quarantine');
  });

  it('a given version wins over the store; no version and no telling file is unknown', async () => {
    const store = await scanStore(path.join(REAL, 'v5.0.9/buffered-backlog/store-after-run1.tar.gz'));
    const given = resolveVersion({ source: 'given', version: '4.2.8', evidence: ['given: Fluent Bit 4.2.8'] }, store);
    expect(given.info).toEqual({
      source: 'given',
      version: '4.2.8',
      assumes: ['4.2.8'],
      text: 'Fluent Bit 4.2.8, given',
      evidence: ['given: Fluent Bit 4.2.8'],
    });
    const inferred = resolveVersion(null, store);
    expect(inferred.info.source).toBe('inferred');
    expect(inferred.info.assumes).toEqual(['5.0.9', '5.1.1']);
    expect(inferred.info.evidence[0]).toMatch(/quarantine\/ exists: only 5\.0\.9 and 5\.1\.1 create it/);
    const empty = await scanStore(path.join(REAL, 'v5.0.9/index-reset/store-after-run1.tar.gz'));
    const unknown = resolveVersion(null, empty);
    expect(unknown.info).toMatchObject({ source: 'unknown', version: null, assumes: ids(MEASURED) });
  });
});

describe('versions: inferred from the real snapshot of every version', () => {
  const cases: [string, string, string][] = [];
  for (const v of fs.readdirSync(REAL).filter((d) => /^v\d/.test(d)))
    for (const scenario of fs.readdirSync(path.join(REAL, v))) {
      const exp = JSON.parse(fs.readFileSync(path.join(REAL, v, scenario, 'expected.json'), 'utf8')) as { stages: Record<string, { storeTar?: string }> };
      for (const [stage, s] of Object.entries(exp.stages))
        if (s.storeTar) cases.push([`${v} ${scenario} ${stage}`, path.join(REAL, v, scenario, s.storeTar), v.slice(1)]);
    }

  it.each(cases)('%s: the version that wrote it is among those inferred; the range is what the files show', async (_n, tar, version) => {
    const report = await scanStore(tar);
    const r = inferFromStore(report);
    const streams = report.roots.flatMap((x) => x.streams);
    const chunks = streams.filter((s) => s.kind !== 'sequence').flatMap((s) => s.chunks);
    // the downgrade fixtures hold a store that 5.x wrote (4.2.8 ran it afterwards)
    const writer = /downgrade-quarantine-from-(\d+\.\d+\.\d+)/.exec(tar)?.[1] ?? version;
    expect(ids(r.facts)).toContain(writer);
    let want: string[];
    if (streams.some((s) => s.kind === 'quarantine')) want = ['5.0.9', '5.1.1'];
    else if (chunks.some((c) => c.contentLengthField === 0 && (c.contentLength ?? 0) > 0)) want = ['1.9.10'];
    else if (chunks.length) want = ['3.2.10', '4.2.8', '5.0.9', '5.1.1'];
    else want = ids(MEASURED);
    expect(ids(r.facts)).toEqual(want);
  });
});
