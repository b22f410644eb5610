/**
 * Issue 9 item 2: special files where the tool expects small regular files. A FIFO, a symlink to a
 * secret or to /dev/zero, or a 100 MB garbage file as `seq_index_*`, a FIFO as a chunk, a config
 * include or a listing: nothing hangs, nothing is followed, nothing beyond 64 bytes is shown in a
 * plan, and the scan reports each one as a problem with its own status.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanStore, readChunk, readRecords } from '../../../electron/engine/store';
import { safeReadFile, SafeReadError } from '../../../electron/engine/store/safe-read';
import { readSeqIndexState } from '../../../electron/engine/repair/index-actions/index-file';
import { planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { planProtectIndex } from '../../../electron/engine/repair/index-actions/protect';
import { planRestoreIndex } from '../../../electron/engine/repair/index-actions/restore';
import { loadFluentBitConfig, ConfigError } from '../../../electron/engine/fluentbit';
import { loadOfflineEvidence } from '../../../electron/engine/s3';
import { diagnoseStore as runDiagnosis } from '../../support/diagnose';
import { generateStore, jsonLines } from '../../fixtures/generate';

const SECRET = 'root:$6$SECRETSECRETHASH:19000:0:99999:7:::';
let tmp: string;
let root: string;
let idx: string;
let secret: string;

function mkfifo(p: string): void {
  execFileSync('mkfifo', [p]);
}

beforeEach(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-special-'));
  secret = path.join(tmp, 'shadow');
  fs.writeFileSync(secret, `${SECRET}\n`, { mode: 0o600 });
  const g = await generateStore(path.join(tmp, 'store'), {
    roots: [{ bucket: 'b', streams: [{ name: '2026-01-01T00:00:00', chunks: [{ name: '1-1', meta: 'app', content: jsonLines(2) }] }], seqIndex: { '9': '5' } }],
  });
  root = g.roots.b;
  idx = path.join(root, 'sequence', 'index_metadata');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('safeReadFile', () => {
  it('refuses a FIFO, a symlink and a file above the limit with a typed error naming the file', async () => {
    mkfifo(path.join(tmp, 'fifo'));
    fs.symlinkSync(secret, path.join(tmp, 'link'));
    fs.writeFileSync(path.join(tmp, 'big'), Buffer.alloc(70 * 1024, 0x41));
    const err = async (p: string) =>
      safeReadFile(p, { maxBytes: 64 * 1024 }).then(
        () => null,
        (e: unknown) => e as SafeReadError,
      );
    const fifo = await err(path.join(tmp, 'fifo'));
    expect(fifo).toBeInstanceOf(SafeReadError);
    expect(fifo!.kind).toBe('fifo');
    expect(fifo!.message).toBe(`${path.join(tmp, 'fifo')}: is a FIFO (named pipe), not a regular file`);
    expect((await err(path.join(tmp, 'link')))!.message).toMatch(/link: is a symlink \(not followed\)$/);
    expect((await err(path.join(tmp, 'big')))!.message).toMatch(/big: is larger than 64 KiB \(71680 bytes\); not read$/);
    expect((await err('/dev/zero'))!.kind).toBe('char-device');
    const head = await safeReadFile(path.join(tmp, 'big'), { maxBytes: 1024, head: true });
    expect(head).toMatchObject({ size: 71680, truncated: true });
    expect(head.bytes.length).toBe(1024);
  });
});

describe('special files as seq_index_*', () => {
  beforeEach(() => {
    mkfifo(path.join(idx, 'seq_index_0'));
    fs.symlinkSync(secret, path.join(idx, 'seq_index_1'));
    fs.symlinkSync('/dev/zero', path.join(idx, 'seq_index_2'));
    // 100 MB of garbage (sparse: the test must not need 100 MB of disk)
    const fd = fs.openSync(path.join(idx, 'seq_index_3'), 'w');
    fs.writeSync(fd, Buffer.from('\x1b]0;pwned\x07garbage'));
    fs.ftruncateSync(fd, 100 * 1024 * 1024);
    fs.closeSync(fd);
  });

  it('scan reports each one with its own status and a problem, reads none of them through, never hangs', async () => {
    const report = await scanStore(root);
    const by = new Map(report.roots[0].seqIndex.map((s) => [s.fileName, s]));
    expect(by.get('seq_index_0')).toMatchObject({ status: 'not-regular', value: null, outputId: 0 });
    expect(by.get('seq_index_0')!.message).toContain('is a FIFO');
    expect(by.get('seq_index_1')).toMatchObject({ status: 'not-regular', value: null });
    expect(by.get('seq_index_1')!.message).toContain('is a symlink');
    expect(by.get('seq_index_2')).toMatchObject({ status: 'not-regular', value: null });
    expect(by.get('seq_index_3')).toMatchObject({ status: 'too-large', value: null, fileSize: 100 * 1024 * 1024 });
    expect(by.get('seq_index_3')!.message).toContain('larger than 64 KiB');
    expect(by.get('seq_index_3')!.raw.length).toBeLessThanOrEqual(64 * 4 + 1);
    expect(by.get('seq_index_9')).toMatchObject({ status: 'ok', value: 5 });
    const text = JSON.stringify(report);
    expect(text).not.toContain('SECRETSECRET');
    for (const n of ['seq_index_0', 'seq_index_1', 'seq_index_2', 'seq_index_3']) {
      expect(
        report.problems.some((p) => p.path.endsWith(`/sequence/index_metadata/${n}`) && p.severity === 'error'),
        n,
      ).toBe(true);
    }
  }, 20_000);

  it('the same in a .tar.gz snapshot (symlinks and FIFOs as tar entries)', async () => {
    fs.rmSync(path.join(idx, 'seq_index_3'));
    fs.writeFileSync(path.join(idx, 'seq_index_3'), Buffer.alloc(70 * 1024, 0x20));
    const tar = path.join(tmp, 'snap.tar.gz');
    execFileSync('tar', ['--format=posix', '-C', path.dirname(root), '-czf', tar, 'b']);
    const report = await scanStore(tar);
    const by = new Map(report.roots[0].seqIndex.map((s) => [s.fileName, s]));
    expect(by.get('seq_index_0')?.status).toBe('not-regular');
    expect(by.get('seq_index_1')?.status).toBe('not-regular');
    expect(by.get('seq_index_3')).toMatchObject({ status: 'too-large', fileSize: 70 * 1024 });
  }, 20_000);

  it('readSeqIndexState returns at once for each, with at most 64 KiB read and the reason', async () => {
    const problem = (s: unknown) => (s as { problem?: string }).problem;
    const fifo = await readSeqIndexState(path.join(idx, 'seq_index_0'));
    expect(fifo.state).toBe('unreadable');
    expect(problem(fifo)).toContain('is a FIFO');
    const link = await readSeqIndexState(path.join(idx, 'seq_index_1'));
    expect(link.state).toBe('unreadable');
    expect(link.bytes?.toString('latin1') ?? '').not.toContain('SECRET');
    const zero = await readSeqIndexState(path.join(idx, 'seq_index_2'));
    expect(problem(zero)).toContain('symlink');
    const big = await readSeqIndexState(path.join(idx, 'seq_index_3'));
    expect(big.state).toBe('unreadable');
    expect(big.bytes!.length).toBeLessThanOrEqual(64 * 1024);
    expect(problem(big)).toContain('larger than 64 KiB');
  }, 20_000);

  it('repair-index: a 100 MB garbage index is repairable, the plan shows at most 64 bytes of it', async () => {
    const plan = await planIndexRepair({ storePath: root, rootPath: root, outputId: 3, safeNextIndex: 7, skipProcessCheck: true });
    expect(plan.refusals).toEqual([]);
    const write = plan.steps.find((s) => s.kind === 'write-file')!;
    expect(write.after).toBe('7');
    // 64 bytes at most, each at most 4 characters escaped
    expect(String(write.before)).toMatch(/^"\\x1b\]0;pwned\\x07garbage(\\x00){47}" … \(104857600 bytes, first 64 shown\)$/);
    const shown = JSON.stringify([plan.summary, plan.why, plan.steps, plan.warnings, plan.refusals]);
    expect(shown.length).toBeLessThan(4_000);
    expect(plan.why.join('\n')).toContain('larger than 64 KiB');
    expect(shown).not.toContain('\\u001b');
    expect(shown).toContain('\\\\x1b]0;pwned');
  }, 20_000);

  it('repair-index refuses to write over a FIFO or a symlink (and does not print the target)', async () => {
    for (const id of [0, 1, 2]) {
      const plan = await planIndexRepair({ storePath: root, rootPath: root, outputId: id, safeNextIndex: 7, skipProcessCheck: true });
      expect(
        plan.refusals.some((r) => !r.forceable && /not a regular file|is a FIFO|is a symlink/.test(r.reason)),
        String(id),
      ).toBe(true);
      expect(JSON.stringify(plan)).not.toContain('SECRETSECRET');
    }
  }, 20_000);

  it('protect-index and restore-index plans do not hang on a FIFO index or marker', async () => {
    mkfifo(path.join(root, 'sequence', 'store-doctor-marker'));
    const marker = await planProtectIndex({ storePath: root, rootPath: root, method: 'marker', outputsOnRoot: [], skipProcessCheck: true });
    expect(marker.summary).not.toMatch(/Already protected/);
    const shadow = await planProtectIndex({
      storePath: root,
      rootPath: root,
      method: 'shadow',
      outputsOnRoot: [],
      shadowDir: path.join(tmp, 'shadow-dir'),
      skipProcessCheck: true,
    });
    expect(shadow.warnings.join('\n')).toContain('seq_index_0 is unreadable');
    const restore = await planRestoreIndex({
      storePath: root,
      rootPath: root,
      outputIds: [0, 1, 3],
      shadowDir: path.join(tmp, 'shadow-dir'),
      skipProcessCheck: true,
    });
    expect(restore.why.join('\n')).toContain('seq_index_0');
  }, 20_000);

  it('diagnose does not hang and reports the FIFO index as unreadable', async () => {
    const run = await runDiagnosis({ storePath: root });
    const f = run.diagnosis.outputs.find((o) => o.id === 0)!.findings.find((x) => x.code === 'INDEX_FILE_UNREADABLE');
    expect(f).toBeDefined();
    expect(f!.summary).toContain('FIFO');
  }, 20_000);
});

describe('special files as chunks, config includes and listings', () => {
  it('a FIFO or symlink swapped in for a chunk is never opened for reading or followed', async () => {
    const stream = path.join(root, '2026-01-01T00:00:00');
    fs.rmSync(path.join(stream, '1-1'));
    mkfifo(path.join(stream, '1-1'));
    fs.symlinkSync(secret, path.join(stream, '1-2'));
    const report = await scanStore(root);
    const s = report.roots[0].streams.find((x) => x.name === '2026-01-01T00:00:00')!;
    expect(s.ignored.map((i) => [i.path, i.type])).toEqual([
      ['2026-01-01T00:00:00/1-1', 'other'],
      ['2026-01-01T00:00:00/1-2', 'symlink'],
    ]);
    await expect(readChunk(root, root, '2026-01-01T00:00:00/1-1')).rejects.toThrow(/is a FIFO/);
    await expect(readRecords(root, root, '2026-01-01T00:00:00/1-1', 0, 10)).rejects.toThrow(/is a FIFO/);
    await expect(readChunk(root, root, '2026-01-01T00:00:00/1-2')).rejects.toThrow(/is a symlink/);
  }, 20_000);

  it('a FIFO as the config or as an @INCLUDE is a ConfigError naming it, not a hang', async () => {
    const dir = path.join(tmp, 'etc');
    fs.mkdirSync(dir);
    mkfifo(path.join(dir, 'outputs.conf'));
    fs.writeFileSync(path.join(dir, 'fluent-bit.conf'), '@INCLUDE outputs.conf\n');
    const e = await loadFluentBitConfig(path.join(dir, 'fluent-bit.conf')).then(
      () => new Error('loaded'),
      (x: unknown) => x as Error,
    );
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toContain('outputs.conf');
    expect(e.message).toContain('is a FIFO');
    mkfifo(path.join(dir, 'main.conf'));
    await expect(loadFluentBitConfig(path.join(dir, 'main.conf'))).rejects.toThrow(/main\.conf.*is a FIFO/);
  }, 20_000);

  it('a FIFO as an offline listing is an error naming the file', async () => {
    mkfifo(path.join(tmp, 'listing.json'));
    await expect(loadOfflineEvidence({ listing: [path.join(tmp, 'listing.json')] })).rejects.toThrow(/listing\.json: .*is a FIFO/);
  }, 20_000);
});
