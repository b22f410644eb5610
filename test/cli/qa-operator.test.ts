/**
 * Operator QA of the CLI: what an on-call engineer sees on real fixtures and on broken input.
 * `--json` prints exactly one JSON document on stdout even on errors; errors are one line on
 * stderr; exit codes follow the README; the first line of human output is the most important fact;
 * a dry run never tells the operator to run something that will be refused or cannot work.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractFixture, FIXTURES, type Extracted } from '../engine/repair/helpers';

const ROOT = path.resolve(__dirname, '../..');
const f = (scenario: string, file: string) => path.join(FIXTURES, scenario, file);
const tmp = mkdtempSync(path.join(tmpdir(), 'sd-qa-'));
const extracted: Extracted[] = [];
afterAll(() => {
  for (const x of extracted) x.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/store-doctor.cjs'), ...args], { cwd: ROOT, timeout: 90_000 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

/** stdout is exactly one JSON document carrying `error.exitCode` = the process exit code. */
function jsonError(r: { code: number; stdout: string }): { exitCode: number; message: string } {
  const doc = JSON.parse(r.stdout) as { error?: { exitCode: number; message: string } };
  expect(doc.error).toBeDefined();
  expect(doc.error!.exitCode).toBe(r.code);
  expect(doc.error!.message).not.toMatch(/undefined|NaN|\[object Object\]/);
  return doc.error!;
}

function oneLineError(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(stderr).not.toMatch(/undefined|NaN|\[object Object\]/);
}

describe('--json prints one JSON document on stdout, also on errors', { timeout: 180_000 }, () => {
  it('scan of a missing path', async () => {
    const missing = path.join(tmp, 'no-such-store');
    const r = await cli(['scan', missing, '--json']);
    expect(r.code).toBe(2);
    expect(jsonError(r).message).toContain(missing);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    oneLineError(r.stderr);
  });

  it('an unknown option and a missing argument (commander errors) are exit 2 with JSON', async () => {
    const bogus = await cli(['scan', f('crash-during-run', 'store-after-crash.tar.gz'), '--bogus', '--json']);
    expect(bogus.code).toBe(2);
    expect(jsonError(bogus).message).toMatch(/unknown option '--bogus'/);
    const noArg = await cli(['diagnose', '--json']);
    expect(noArg.code).toBe(2);
    expect(jsonError(noArg).message).toMatch(/missing required argument 'store'/);
  });

  it('option validation before the command runs (repair-index --value abc, replay --time x)', async () => {
    const x = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    extracted.push(x);
    const conf = f('crash-during-run', 'fluent-bit.conf');
    const v = await cli(['repair-index', x.storeDir, '--config', conf, '--value', 'abc', '--json']);
    expect(v.code).toBe(2);
    expect(jsonError(v).message).toMatch(/--value abc/);
    const t = await cli(['replay', x.storeDir, '--config', conf, '--time', 'yesterday', '--json']);
    expect(t.code).toBe(2);
    expect(jsonError(t).message).toMatch(/--time yesterday/);
  });

  it('a missing config names the file and says it does not exist; a listing that is not JSON is one document', async () => {
    const store = f('crash-during-run', 'store-after-crash.tar.gz');
    const missing = path.join(tmp, 'fluent-bit.conf');
    const c = await cli(['diagnose', store, '--config', missing, '--json']);
    expect(c.code).toBe(2);
    expect(jsonError(c).message).toBe(`${missing}: cannot read the Fluent Bit config: no such file (ENOENT)`);

    const bad = path.join(tmp, 'listing.json');
    writeFileSync(bad, '{not json');
    const d = await cli(['diagnose', store, '--config', f('crash-during-run', 'fluent-bit.conf'), '--listing', bad, '--json']);
    expect(d.code).toBe(2);
    expect(jsonError(d).message).toMatch(/listing\.json: not valid JSON/);
    // repair commands already print their own error document: still exactly one
    const x = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    extracted.push(x);
    const rep = await cli(['repair-index', x.storeDir, '--config', f('crash-during-run', 'fluent-bit.conf'), '--listing', bad, '--json']);
    expect(rep.code).toBe(2);
    expect(jsonError(rep).message).toMatch(/not valid JSON/);
  });

  it('undo of a missing path is unreadable input (exit 2), like every other command', async () => {
    const missing = path.join(tmp, 'no-such-store');
    const r = await cli(['undo', missing, '--json']);
    expect(r.code).toBe(2);
    expect(jsonError(r).message).toBe(`${missing}: no such file or directory`);
    expect(r.stderr).toBe(`store-doctor: ${missing}: no such file or directory\n`);
  });

  it('report --format json on a missing store prints a JSON error', async () => {
    const r = await cli(['report', path.join(tmp, 'gone.tar.gz'), '--format', 'json']);
    expect(r.code).toBe(2);
    expect(jsonError(r).message).toMatch(/gone\.tar\.gz/);
  });
});

describe('exit codes and first lines an operator reads', { timeout: 180_000 }, () => {
  it('no command at all is bad usage (exit 2), `help` is not', async () => {
    const none = await cli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/Usage: store-doctor/);
    expect((await cli(['help'])).code).toBe(0);
  });

  it('diagnose: the first line is the verdict (index-reset after run 1: act before restarting)', async () => {
    const r = await cli([
      'diagnose',
      f('index-reset', 'store-after-run1.tar.gz'),
      '--config',
      f('index-reset', 'fluent-bit.conf'),
      '--listing',
      f('index-reset', 's3api-list-objects-v2-after-run1.json'),
    ]);
    expect(r.code).toBe(4);
    const first = r.stdout.split('\n')[0];
    expect(first).toMatch(/1 error/);
    expect(first).toMatch(/act before restarting Fluent Bit/);
    expect(r.stdout).toMatch(/ERROR INDEX_FILE_MISSING/);
  });

  it('diagnose with a config that has no S3 output does not ask for --config', async () => {
    const conf = path.join(tmp, 'no-s3.conf');
    writeFileSync(conf, '[INPUT]\n    name dummy\n[OUTPUT]\n    name stdout\n    match *\n');
    const r = await cli(['diagnose', f('crash-during-run', 'store-after-crash.tar.gz'), '--config', conf]);
    expect(r.stdout).toMatch(/no-s3\.conf has no S3 output/);
    expect(r.stdout).not.toMatch(/give --config/);
  });

  it('a typo in an S3 property is named with its line (Fluent Bit refuses unknown properties)', async () => {
    const conf = path.join(tmp, 'typo.conf');
    writeFileSync(conf, readFileSync(f('crash-during-run', 'fluent-bit.conf'), 'utf8').replace('s3_key_format    /', 's3_key_formt     /'));
    const line =
      readFileSync(conf, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('s3_key_formt')) + 1;
    const r = await cli(['diagnose', f('crash-during-run', 'store-after-crash.tar.gz'), '--config', conf]);
    expect(r.stderr).toContain(`config warning: ${conf}:${line}: s3.0: unknown property "s3_key_formt" (did you mean s3_key_format?)`);
    oneLineError(r.stderr);
  });

  it('a refused dry run says so first and does not tell the operator to run --apply', async () => {
    const x = extractFixture('index-reset', 'store-after-run1.tar.gz', 'fb-index-reset');
    extracted.push(x);
    const args = [
      'repair-index',
      x.storeDir,
      '--config',
      f('index-reset', 'fluent-bit.conf'),
      '--listing',
      f('index-reset', 's3api-list-objects-v2-after-run1.json'),
    ];
    const low = await cli([...args, '--value', '3']);
    expect(low.code).toBe(5);
    expect(low.stdout.split('\n')[0]).toMatch(/^repair-index REFUSED: 3 is lower than the safe next index 12/);
    expect(low.stdout).not.toMatch(/Run again with --apply/);
    const ok = await cli(args);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/Run again with --apply to do it/);
  });

  it('replay: a plan that uploads says --live is needed; an empty plan does not offer --apply', async () => {
    const x = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    extracted.push(x);
    const base = [
      'replay',
      x.storeDir,
      '--config',
      f('crash-during-run', 'fluent-bit.conf'),
      '--listing',
      f('crash-during-run', 's3api-list-objects-v2-after-crash.json'),
    ];
    // no Fluent Bit uses the extracted store: its newest stream is replayed without --include-active
    const withUploads = await cli(base);
    expect(withUploads.code).toBe(0);
    expect(withUploads.stdout).toMatch(/Run again with --apply --live/);
    expect(withUploads.stdout).toMatch(
      /No process uses .*: 2026-11-29T18:\d\d:\d\d, the newest stream, is a stopped Fluent Bit's and is replayed like the older ones/,
    );
    // after run 2 (a graceful stop that sent everything) there is nothing to replay
    const y = extractFixture('crash-during-run', 'store-after-run2.tar.gz', 'fb-crash');
    extracted.push(y);
    const nothing = await cli([
      'replay',
      y.storeDir,
      '--config',
      f('crash-during-run', 'fluent-bit.conf'),
      '--listing',
      f('crash-during-run', 's3api-list-objects-v2-after-run2.json'),
    ]);
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toMatch(/Dry run: nothing was changed/);
    expect(nothing.stdout).not.toMatch(/Run again with --apply/);
  });
});

describe('undo with nothing recorded', () => {
  it('says so once and exits 0', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sd-undo-none-'));
    try {
      mkdirSync(path.join(dir, 'b', '2026-11-29T18:00:00'), { recursive: true });
      const r = spawnSync(process.execPath, [path.join(__dirname, '../../bin/store-doctor.cjs'), 'undo', dir, '--apply'], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status).toBe(0);
      expect(r.stdout.match(/Nothing to undo/g)?.length).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('diagnose --json carries config warnings', () => {
  it('a misspelt S3 setting shows up in the JSON document, not only on stderr', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sd-cfgwarn-'));
    try {
      const conf = path.join(dir, 'fluent-bit.conf');
      writeFileSync(conf, readFileSync(path.join(FIXTURES, 'index-reset', 'fluent-bit.conf'), 'utf8').replace('s3_key_format', 's3_key_formt'));
      const r = spawnSync(
        process.execPath,
        [
          path.join(__dirname, '../../bin/store-doctor.cjs'),
          'diagnose',
          path.join(FIXTURES, 'index-reset', 'store-after-run2.tar.gz'),
          '--config',
          conf,
          '--json',
        ],
        { encoding: 'utf8', timeout: 60_000 },
      );
      const doc = JSON.parse(r.stdout);
      expect(doc.configWarnings.some((w: { message: string; line: number }) => /s3_key_format/.test(w.message) && w.line > 0)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
