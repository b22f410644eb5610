/**
 * Review gaps of issue 3 (config reader), checked against Fluent Bit v5.0.9:
 * `@INCLUDE`/`includes` globs (GLOB_NOSORT, fatal GLOB_NOMATCH) and unknown output plugins
 * (flb_output_new returns NULL before an id is taken; configure_plugins_type fails the start).
 */
import { describe, expect, it } from 'vitest';
import { tempConfigTree } from './temp-tree';
import { ConfigError, loadFluentBitConfig, parseFluentBitConfig } from '../../../electron/engine/fluentbit';

const tree = tempConfigTree('fb-conf-gaps-');
const write = tree.write;

describe('include globs: Fluent Bit does not sort the matches (GLOB_NOSORT)', () => {
  it('classic: ids from several matched files keep a sorted order and carry a warning naming the include', async () => {
    const main = await write('g1/fluent-bit.conf', '[OUTPUT]\n    name stdout\n@INCLUDE out.d/*.conf\n');
    await write('g1/out.d/b.conf', '[OUTPUT]\n    name s3\n    bucket b\n    s3_key_format /b/$INDEX\n');
    await write('g1/out.d/a.conf', '[OUTPUT]\n    name s3\n    bucket a\n    s3_key_format /a/$INDEX\n');
    const cfg = await loadFluentBitConfig(main, { env: {} });
    expect(cfg.outputs.map((o) => [o.id, o.s3?.bucket ?? null])).toEqual([
      [0, null],
      [1, 'a'],
      [2, 'b'],
    ]);
    const w = cfg.warnings.filter((x) => /directory order/.test(x.message));
    expect(w).toHaveLength(1);
    expect(w[0]).toMatchObject({ file: main, line: 3 });
    expect(w[0].message).toContain('@INCLUDE out.d/*.conf');
    expect(w[0].message).toMatch(/ids 1–2 .*may differ on the host/);
  });

  it('classic: no warning when only one matched file holds outputs (ids do not depend on the order)', async () => {
    const main = await write('g2/fluent-bit.conf', '@INCLUDE conf.d/*.conf\n');
    await write('g2/conf.d/filters.conf', '[FILTER]\n    name grep\n');
    await write('g2/conf.d/outputs.conf', '[OUTPUT]\n    name s3\n    bucket a\n');
    const cfg = await loadFluentBitConfig(main, { env: {} });
    expect(cfg.outputs).toHaveLength(1);
    expect(cfg.warnings).toEqual([]);
  });

  it('YAML includes: the same warning', async () => {
    const main = await write('g3/fluent-bit.yaml', 'includes:\n  - outs/*.yaml\n');
    await write('g3/outs/1.yaml', 'pipeline:\n  outputs:\n    - name: s3\n      bucket: one\n');
    await write('g3/outs/2.yaml', 'pipeline:\n  outputs:\n    - name: s3\n      bucket: two\n');
    const cfg = await loadFluentBitConfig(main, { env: {} });
    expect(cfg.outputs.map((o) => o.s3?.bucket)).toEqual(['one', 'two']);
    expect(cfg.warnings).toEqual([
      expect.objectContaining({ file: main, line: 2, message: expect.stringMatching(/includes outs\/\*\.yaml.*ids 0–1 .*may differ on the host/) }),
    ]);
  });

  it('a glob matching nothing stops Fluent Bit (read_glob returns -1 → the config fails): ConfigError with file and line', async () => {
    const classic = await write('g4/fluent-bit.conf', '[SERVICE]\n    flush 1\n@INCLUDE nothing/*.conf\n');
    const e1 = await loadFluentBitConfig(classic, { env: {} }).catch((e) => e);
    expect(e1).toBeInstanceOf(ConfigError);
    expect(e1).toMatchObject({ file: classic, line: 3 });
    expect(e1.message).toMatch(/nothing\/\*\.conf.*no file matches/);
    const yaml = await write('g4/fluent-bit.yaml', 'service:\n  flush: 1\nincludes:\n  - nothing/*.yaml\n');
    const e2 = await loadFluentBitConfig(yaml, { env: {} }).catch((e) => e);
    expect(e2).toBeInstanceOf(ConfigError);
    expect(e2).toMatchObject({ file: yaml, line: 4 });
  });
});

describe('an output plugin Fluent Bit does not have', () => {
  it('is a fatal warning with file and line; later ids assume an external plugin provides it', async () => {
    const cfg = await parseFluentBitConfig('[OUTPUT]\n    name s4\n[OUTPUT]\n    name s3\n    bucket b\n    s3_key_format /a/$INDEX\n', {
      fileName: '/etc/fb/x.conf',
      env: {},
    });
    expect(cfg.outputs.map((o) => [o.id, o.plugin])).toEqual([
      [0, 's4'],
      [1, 's3'],
    ]);
    expect(cfg.warnings).toEqual([
      expect.objectContaining({ file: '/etc/fb/x.conf', line: 1, fatal: true, message: expect.stringMatching(/"s4".*refuses to start.*external plugin/) }),
    ]);
  });

  it('known names are matched like check_protocol: case-insensitive, up to "://"', async () => {
    const cfg = await parseFluentBitConfig('[OUTPUT]\n    name Stdout\n[OUTPUT]\n    name es://host\n[OUTPUT]\n    name kafka-rest\n', {
      fileName: 'x.conf',
      env: {},
    });
    expect(cfg.outputs.map((o) => [o.plugin, o.displayName])).toEqual([
      ['stdout', 'stdout.0'],
      ['es', 'es.1'],
      ['kafka-rest', 'kafka-rest.2'],
    ]);
    expect(cfg.warnings).toEqual([]);
  });

  it('the private calyptia output cannot be named in a config (public_only)', async () => {
    const cfg = await parseFluentBitConfig('pipeline:\n  outputs:\n    - name: calyptia\n', { fileName: 'x.yaml', env: {} });
    expect(cfg.warnings).toEqual([expect.objectContaining({ line: 3, fatal: true, message: expect.stringMatching(/calyptia.*refuses to start/) })]);
  });
});
