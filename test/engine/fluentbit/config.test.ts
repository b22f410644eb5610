import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfigTree } from './temp-tree';
import { ConfigError, findOutput, loadFluentBitConfig, parseFluentBitConfig, sizeToBytes } from '../../../electron/engine/fluentbit';

const FIX = path.resolve(__dirname, '../../fixtures/fluent-bit-real');

describe('real fixture configs', () => {
  it.each([
    ['index-reset', 'fb-index-reset', '/data/index-reset/store', true, 1_000_000],
    ['crash-during-run', 'fb-crash', '/data/crash-during-run/store', true, 1_000_000],
    ['buffered-backlog-no-ordering', 'fb-backlog2', '/data/buffered-backlog-no-ordering/store', true, 1_000_000],
    ['multipart-inflight', 'fb-multipart', '/data/multipart-inflight/store', false, 50_000_000],
    ['crc-reference', 'fb-smoke', '/data/crc-reference/store', true, 1_000_000],
  ])('%s', async (scenario, bucket, storeDir, putObjectEffective, totalFileSize) => {
    const cfg = await loadFluentBitConfig(path.join(FIX, scenario, 'fluent-bit.conf'), { env: {} });
    expect(cfg.format).toBe('classic');
    expect(cfg.outputs).toHaveLength(1);
    const o = cfg.outputs[0];
    expect(o).toMatchObject({ id: 0, plugin: 's3', displayName: 's3.0', match: '*' });
    expect(o.s3).toMatchObject({
      bucket,
      storeDir,
      rootPath: `${storeDir}/${bucket}`,
      region: 'us-east-1',
      hasIndex: true,
      usePutObjectEffective: putObjectEffective,
      totalFileSize,
      keyFormatIsDefault: false,
      tagDelimiters: '.',
    });
    expect(o.s3!.s3KeyFormat).toMatch(/\$INDEX$/);
    expect(cfg.warnings).toEqual([]);
  });

  it('multipart-inflight: use_put_object Off and upload_chunk_size 5242880 as written', async () => {
    const cfg = await loadFluentBitConfig(path.join(FIX, 'multipart-inflight/fluent-bit.conf'));
    expect(cfg.outputs[0].s3).toMatchObject({ usePutObject: false, uploadChunkSize: 5_242_880, endpoint: 'http://127.0.0.1:19000', retryLimit: 2 });
  });

  it('crc-reference: retry_limit no_limits → unlimited (null)', async () => {
    const cfg = await loadFluentBitConfig(path.join(FIX, 'crc-reference/fluent-bit.conf'));
    expect(cfg.outputs[0].s3!.retryLimit).toBeNull();
  });
});

describe('generated configs', () => {
  const tree = tempConfigTree('sd-fbconf-');
  const write = tree.write;

  it('numbers outputs among ALL outputs, fills S3 defaults, expands @SET then env', async () => {
    const main = await write(
      'a/main.conf',
      [
        '# comment',
        '@SET BUCKET=logs-bucket',
        '[SERVICE]',
        '    Flush 1',
        '[OUTPUT]',
        '    Name  stdout',
        '    Match *',
        '[OUTPUT]',
        '    NAME  S3',
        '    Bucket ${BUCKET}',
        '    Region ${REGION}',
        '    store_dir ${MISSING}/x/',
        '    Alias  archive',
        '@INCLUDE conf.d/*.conf',
        '[OUTPUT]',
        '    name forward',
      ].join('\n'),
    );
    await write(
      'a/conf.d/20-second.conf',
      '[OUTPUT]\n    name s3\n    bucket two\n    total_file_size 50M\n    s3_key_format /x/$TAG[1]/%Y/$INDEX\n    s3_key_format_tag_delimiters .-\n',
    );
    await write('a/conf.d/10-first.conf', '[FILTER]\n    name grep\n[OUTPUT]\n    name null\n');
    await write('a/conf.d/ignored.txt', '[OUTPUT]\n    name s3\n');
    const cfg = await loadFluentBitConfig(main, { env: { REGION: 'eu-west-1' } });
    expect(cfg.files.map((f) => path.relative(tree.dir(), f))).toEqual(['a/main.conf', 'a/conf.d/10-first.conf', 'a/conf.d/20-second.conf']);
    expect(cfg.outputs.map((o) => [o.id, o.plugin, o.displayName])).toEqual([
      [0, 'stdout', 'stdout.0'],
      [1, 's3', 'archive'],
      [2, 'null', 'null.2'],
      [3, 's3', 's3.3'],
      [4, 'forward', 'forward.4'],
    ]);
    expect(cfg.outputs[1].s3).toMatchObject({
      bucket: 'logs-bucket',
      region: 'eu-west-1',
      storeDir: '/x/',
      rootPath: '/x//logs-bucket',
      s3KeyFormat: '/fluent-bit-logs/$TAG/%Y/%m/%d/%H/%M/%S',
      keyFormatIsDefault: true,
      hasIndex: false,
      totalFileSize: 100_000_000,
      uploadChunkSize: 5_242_880,
      usePutObject: false,
      usePutObjectEffective: false,
      compression: 'none',
    });
    expect(cfg.outputs[3].s3).toMatchObject({
      bucket: 'two',
      storeDir: '/tmp/fluent-bit/s3',
      rootPath: '/tmp/fluent-bit/s3/two',
      totalFileSize: 50_000_000,
      usePutObjectEffective: false,
      hasIndex: true,
      tagDelimiters: '.-',
    });
    expect(cfg.outputs[3].source).toEqual({ file: path.join(tree.dir(), 'a/conf.d/20-second.conf'), line: 1 });
    // conf.d/*.conf gives outputs 2 and 3 from two files: Fluent Bit reads them unsorted (GLOB_NOSORT), so ids may differ on the host
    expect(cfg.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/^@INCLUDE conf\.d\/\*\.conf: .*directory order.*ids 2–3/),
      expect.stringMatching(/\$\{MISSING\} is not set/),
    ]);
    expect(findOutput(cfg, 'archive')?.id).toBe(1);
    expect(findOutput(cfg, 's3.3')?.id).toBe(3);
    expect(findOutput(cfg, '2')?.plugin).toBe('null');
    expect(findOutput(cfg, 'nope')).toBeNull();
  });

  it('forces use_put_object below 10 MiB total_file_size', async () => {
    const cfg = await parseFluentBitConfig('[OUTPUT]\n  name s3\n  bucket b\n  total_file_size 10M\n  use_put_object off\n', { fileName: 'x.conf' });
    expect(cfg.outputs[0].s3).toMatchObject({ totalFileSize: 10_000_000, usePutObjectEffective: true });
  });

  it('reads YAML with env, includes and pipeline.outputs, with line numbers', async () => {
    await write('y/inc/out.yaml', 'pipeline:\n  outputs:\n    - name: s3\n      bucket: inc-bucket\n      s3_key_format: /logs/segment_$INDEX\n');
    const main = await write(
      'y/fluent-bit.yaml',
      [
        'env:',
        '  DIR: /var/fb',
        'service:',
        '  flush: 1',
        'pipeline:',
        '  inputs:',
        '    - name: dummy',
        '  outputs:',
        '    - name: stdout',
        '      match: "*"',
        '    - name: s3',
        '      Bucket: main-bucket',
        '      store_dir: ${DIR}/s3',
        '      use_put_object: On',
        '      total_file_size: 50M',
        '      processors:',
        '        logs:',
        '          - name: content_modifier',
        'includes:',
        '  - inc/*.yaml',
      ].join('\n'),
    );
    const cfg = await loadFluentBitConfig(main, { env: {} });
    expect(cfg.format).toBe('yaml');
    expect(cfg.outputs.map((o) => [o.id, o.plugin, o.source.line])).toEqual([
      [0, 'stdout', 9],
      [1, 's3', 11],
      [2, 's3', 3],
    ]);
    expect(cfg.outputs[1].s3).toMatchObject({ bucket: 'main-bucket', storeDir: '/var/fb/s3', usePutObject: true, totalFileSize: 50_000_000 });
    expect(cfg.outputs[1].properties).not.toHaveProperty('processors');
    expect(cfg.outputs[2].s3).toMatchObject({ bucket: 'inc-bucket', hasIndex: true, s3KeyFormat: '/logs/segment_$INDEX' });
  });

  it.each([
    ['entry outside a section', 'Name s3\n', 1, /outside of any section/],
    ['unindented entry', '[OUTPUT]\nname s3\n', 2, /indentation/],
    ['key without value', '[OUTPUT]\n    name s3\n    bucket\n', 3, /undefined value/],
    ['broken header', '[OUTPUT\n', 1, /invalid section header/],
    ['unknown directive', '@FOO bar\n', 1, /unknown directive/],
    ['bad @SET', '@SET nothing\n', 1, /KEY=VALUE/],
  ])('rejects a %s with file and line', async (_name, text, line, msg) => {
    const err = await parseFluentBitConfig(text, { fileName: '/etc/fb/bad.conf' }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.line).toBe(line);
    expect(err.file).toBe('/etc/fb/bad.conf');
    expect(err.message).toMatch(msg);
    expect(err.message).toContain(`/etc/fb/bad.conf:${line}`);
  });

  it('rejects include cycles and unreadable files', async () => {
    const a = await write('cyc/a.conf', '@INCLUDE b.conf\n');
    await write('cyc/b.conf', '@INCLUDE a.conf\n');
    await expect(loadFluentBitConfig(a)).rejects.toThrow(/cycle/);
    await expect(loadFluentBitConfig(path.join(tree.dir(), 'nope.conf'))).rejects.toThrow(/ENOENT/);
    const c = await write('cyc/c.conf', '@INCLUDE missing.conf\n');
    await expect(loadFluentBitConfig(c)).rejects.toMatchObject({ line: 1 });
  });

  it('rejects invalid YAML with a line', async () => {
    const err = await parseFluentBitConfig('pipeline:\n  outputs:\n    - name: s3\n   bad: [\n', { fileName: 'x.yaml' }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.line).toBeGreaterThan(0);
  });

  it('warns about S3 outputs without a bucket and formats without a leading slash', async () => {
    const cfg = await parseFluentBitConfig('[OUTPUT]\n  name s3\n[OUTPUT]\n  name s3\n  bucket b\n  s3_key_format x/$INDEX\n', { fileName: 'x.conf' });
    expect(cfg.outputs[0].s3).toBeUndefined();
    expect(cfg.warnings.map((w) => w.message).join('\n')).toMatch(/no bucket[\s\S]*must start with '\/'/);
  });
});

describe('sizeToBytes (flb_utils_size_to_bytes)', () => {
  it.each([
    ['5242880', 5_242_880],
    ['1M', 1_000_000],
    ['50M', 50_000_000],
    ['1mb', 1_000_000],
    ['2.5G', 2_500_000_000],
    ['10K', 10_000],
    ['false', 0],
    ['1X', null],
    ['1MX', null],
    ['', null],
  ])('%s', (t, n) => expect(sizeToBytes(t)).toBe(n));
});
