/**
 * `store-doctor report` and the engine buffer (`[SERVICE] storage.path`), on a real buffer left by
 * SIGKILL of Fluent Bit 5.1.1 with storage.checksum on (test/fixtures/storage-path): on the folder
 * itself, and inside a store's report when its config sets the storage.path. What Fluent Bit did
 * with each chunk comes from measurements.json (the real binary's next start), not from this test.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { reportDocumentSchema, storagePathReportDocumentSchema, storeReportDocumentSchema } from '../../shared/json-schemas/report';
import { FIXTURES, tempDir } from '../host/helpers';
import { measuredRun, STORAGE_PATH_FIXTURES } from '../support/storage-path-measured';

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'store-doctor.cjs');
const SP = STORAGE_PATH_FIXTURES;
const KIND = path.join(SP, 'v5.1.1', 'kill-checksum-on');
const run = promisify(execFile);

const measured = measuredRun('5.1.1', 'kill-checksum-on');

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [BIN, ...args], { maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** The buffer extracted, and its generate.conf with `<store>` replaced by the folder. */
function buffer(): { store: string; conf: string } {
  const dir = tempDir('sd-report-sp-');
  execFileSync('tar', ['-xzf', path.join(KIND, 'store.tar.gz'), '-C', dir]);
  const store = path.join(dir, 'store');
  const conf = path.join(dir, 'fluent-bit.conf');
  fs.writeFileSync(conf, fs.readFileSync(path.join(KIND, 'generate.conf'), 'utf8').replace('<store>', store));
  return { store, conf };
}

const recordsOf = (stream: string) => measured.chunks.filter((c) => c.chunk.startsWith(`${stream}/`)).reduce((s, c) => s + c.records, 0);

describe('store-doctor report on a storage.path', () => {
  it('Markdown: backlog per input, the chunks Fluent Bit rejected with their records, the limits', async () => {
    const { store, conf } = buffer();
    const r = await cli(['report', store, '--config', conf]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^# Store Doctor report: store \(storage\.path\)/);
    expect(r.stdout).toContain('storage.checksum: on');
    for (const s of ['dummy.0', 'dummy.1']) expect(r.stdout).toMatch(new RegExp(`\\| ${s.replace('.', '\\.')} \\| 1 \\| ${recordsOf(s)} \\| \\d+ \\| 20`));
    expect(measured['checksum-on'].formatCheckFailed.length).toBeGreaterThan(0);
    for (const name of measured['checksum-on'].formatCheckFailed) {
      const c = measured.chunks.find((x) => x.chunk === name)!;
      expect(r.stdout).toContain(`| \`${name}\` | ${c.tag} | ${c.records} | invalid |`);
    }
    expect(r.stdout).toContain('### What the storage limits do');
    expect(r.stdout).toContain('storage.max_chunks_up 128: the 2 chunk(s) (after salvage) fit');
    // Without a config: the limits are said to be unknown, not guessed.
    const bare = await cli(['report', store]);
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stdout).toContain('No config given (--config)');
  });

  it('JSON conforms to the report schema and carries the same counts', async () => {
    const { store, conf } = buffer();
    const r = await cli(['report', store, '--config', conf, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(reportDocumentSchema.safeParse(doc).success).toBe(true);
    expect(storagePathReportDocumentSchema.safeParse(doc).success).toBe(true);
    expect(doc.storagePath.totals).toMatchObject({
      rejected: measured['checksum-on'].formatCheckFailed.length,
      records: measured.chunks.reduce((s, c) => s + c.records, 0),
    });
  });

  it("a store's report carries the section when its config sets [SERVICE] storage.path", async () => {
    const { store } = buffer();
    const scen = path.join(FIXTURES, 'index-reset');
    const conf = path.join(tempDir('sd-report-conf-'), 'fluent-bit.conf');
    fs.writeFileSync(
      conf,
      fs.readFileSync(path.join(scen, 'fluent-bit.conf'), 'utf8').replace('[SERVICE]', `[SERVICE]\n    storage.path ${store}\n    storage.checksum on`),
    );
    const tar = path.join(scen, 'store-during-run2.tar.gz');
    const md = await cli(['report', tar, '--config', conf]);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('## Engine buffer (storage.path)');
    expect(md.stdout).toContain(`| dummy.0 | 1 | ${recordsOf('dummy.0')} |`);
    const json = await cli(['report', tar, '--config', conf, '--format', 'json']);
    const doc = JSON.parse(json.stdout);
    expect(storeReportDocumentSchema.safeParse(doc).success).toBe(true);
    expect(doc.storagePath.totals.rejected).toBe(measured['checksum-on'].formatCheckFailed.length);
    expect(doc.storagePathError).toBeNull();
    // A storage.path that is not one is said, and the store's report is still made.
    fs.writeFileSync(conf, fs.readFileSync(conf, 'utf8').replace(store, path.join(store, 'nowhere')));
    const missing = await cli(['report', tar, '--config', conf]);
    expect(missing.code, missing.stderr).toBe(0);
    expect(missing.stdout).toMatch(/## Engine buffer \(storage\.path\)\n\nNot read: .*nowhere/);
  });
});
