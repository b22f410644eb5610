/** Review of issue 3: classic @INCLUDE paths and sections, ${VAR:-default}, as Fluent Bit v5.0.9 reads them. */
import { describe, expect, it } from 'vitest';
import { tempConfigTree } from './temp-tree';
import { loadFluentBitConfig, parseFluentBitConfig } from '../../../electron/engine/fluentbit';

const tree = tempConfigTree('fb-conf-review-');
const write = tree.write;

describe('classic @INCLUDE (flb_cf_fluentbit.c)', () => {
  it('resolves relative paths of nested includes against the MAIN file directory, not the including file', async () => {
    const main = await write('n/fluent-bit.conf', '[OUTPUT]\n    name stdout\n@INCLUDE conf.d/outputs.conf\n');
    // conf.d/outputs.conf names its sibling the way Fluent Bit reads it: relative to n/
    await write('n/conf.d/outputs.conf', '@INCLUDE conf.d/s3.conf\n');
    await write('n/conf.d/s3.conf', '[OUTPUT]\n    name s3\n    bucket nested\n    s3_key_format /x/$INDEX\n');
    const cfg = await loadFluentBitConfig(main, { env: {} });
    expect(cfg.outputs.map((o) => [o.id, o.plugin, o.s3?.bucket ?? null])).toEqual([
      [0, 'stdout', null],
      [1, 's3', 'nested'],
    ]);
  });

  it('entries after an @INCLUDE line still belong to the section the including file had open', async () => {
    const main = await write('s/fluent-bit.conf', '[OUTPUT]\n    name s3\n    bucket a\n@INCLUDE extra.conf\n    s3_key_format /a/$INDEX\n');
    await write('s/extra.conf', '[OUTPUT]\n    name stdout\n');
    const cfg = await loadFluentBitConfig(main, { env: {} });
    expect(cfg.outputs.map((o) => o.plugin)).toEqual(['s3', 'stdout']);
    expect(cfg.outputs[0].s3).toMatchObject({ s3KeyFormat: '/a/$INDEX', hasIndex: true });
    expect(cfg.outputs[1].properties['s3_key_format']).toBeUndefined();
  });

  it('an included file starts outside any section', async () => {
    const main = await write('o/fluent-bit.conf', '[OUTPUT]\n    name s3\n    bucket a\n@INCLUDE loose.conf\n');
    await write('o/loose.conf', '    s3_key_format /a/$INDEX\n');
    await expect(loadFluentBitConfig(main, { env: {} })).rejects.toThrow(/loose\.conf:1: entry outside of any section/);
  });
});

describe('${VAR} (flb_env_var_translate)', () => {
  it('supports the ${VAR:-default} fallback, also for an empty variable', async () => {
    const text = '[OUTPUT]\n    name s3\n    bucket ${BUCKET:-fallback-bucket}\n    store_dir ${STORE:-/var/fb/s3}\n    region ${REGION:-eu-west-1}\n';
    const cfg = await parseFluentBitConfig(text, { fileName: '/etc/fb/fluent-bit.conf', env: { REGION: 'ap-south-1', STORE: '' } });
    expect(cfg.outputs[0].s3).toMatchObject({
      bucket: 'fallback-bucket',
      storeDir: '/var/fb/s3',
      rootPath: '/var/fb/s3/fallback-bucket',
      region: 'ap-south-1',
    });
    expect(cfg.warnings).toEqual([]);
  });

  it('an empty environment variable counts as unset (warning, empty value)', async () => {
    const cfg = await parseFluentBitConfig('[OUTPUT]\n    name s3\n    bucket b\n    store_dir ${EMPTY}\n', {
      fileName: '/etc/fb/fluent-bit.conf',
      env: { EMPTY: '' },
    });
    expect(cfg.outputs[0].s3!.storeDir).toBe('/tmp/fluent-bit/s3');
    expect(cfg.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/\$\{EMPTY\} is not set/)]);
  });
});
