import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractFixture, FIXTURES, type Extracted } from '../engine/repair/helpers';
import { newBucket, testClient, allVersions } from '../engine/repair/s3env';
import { s3Enabled } from '../support/s3';

const ROOT = path.resolve(__dirname, '../..');
const f = (scenario: string, file: string) => path.join(FIXTURES, scenario, file);

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'bin/store-doctor.cjs'), ...args],
      { cwd: ROOT, timeout: 90_000, env: { ...process.env, ...env } },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
      },
    );
  });
}

let fx: Extracted | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});
const seq = (root: string) => path.join(root, 'sequence/index_metadata/seq_index_0');
const IR = ['--config', f('index-reset', 'fluent-bit.conf'), '--listing', f('index-reset', 's3-objects-after-run2.json')];

describe('store-doctor repair-index / undo', { timeout: 120_000 }, () => {
  it('index-reset after run 2: dry run changes nothing, apply → 12, undo → absent again', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const dry = await cli(['repair-index', fx.storeDir, ...IR]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/after: "12"/);
    expect(dry.stdout).toMatch(/Dry run: nothing was changed/);
    expect(existsSync(path.join(fx.root, 'sequence'))).toBe(false);

    const app = await cli(['repair-index', fx.storeDir, ...IR, '--apply', '--json']);
    expect(app.code).toBe(0);
    const j = JSON.parse(app.stdout);
    expect(j.result.verified).toBe(true);
    expect(j.plan.steps.at(-1)).toMatchObject({ kind: 'write-file', target: seq(fx.root), after: '12' });
    expect(readFileSync(seq(fx.root), 'latin1')).toBe('12');

    // undoing brings the reset back below the listed index 11 (issue 18): refused (exit 5) unless --force
    const undoDry = await cli(['undo', fx.storeDir]);
    expect(undoDry.code).toBe(5);
    expect(undoDry.stdout).toMatch(/delete-file/);
    expect(undoDry.stdout).toMatch(/undo REFUSED: Undoing repair-index \S+ leaves seq_index_0 missing again .*\$INDEX 11 is already used/);
    expect((await cli(['undo', fx.storeDir, '--apply'])).code).toBe(5);
    expect(existsSync(seq(fx.root))).toBe(true);
    const undo = await cli(['undo', fx.storeDir, '--apply', '--force']);
    expect(undo.code).toBe(0);
    expect(existsSync(path.join(fx.root, 'sequence'))).toBe(false);
  });

  it('refuses below the safe index (exit 5) unless --force (loud warning); bad --value is exit 2', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const low = await cli(['repair-index', fx.storeDir, ...IR, '--value', '5', '--apply']);
    expect(low.code).toBe(5);
    expect(low.stderr).toMatch(/lower than the safe next index 12/);
    expect(existsSync(seq(fx.root))).toBe(false);
    const forced = await cli(['repair-index', fx.storeDir, ...IR, '--value', '5', '--apply', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(/WARNING: --force/);
    expect(readFileSync(seq(fx.root), 'latin1')).toBe('5');
    expect((await cli(['repair-index', fx.storeDir, ...IR, '--value', 'abc'])).code).toBe(2);
  });

  it('--json: a refused --apply still prints one JSON document (with the error and exit code) on stdout', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const r = await cli(['repair-index', fx.storeDir, ...IR, '--value', '5', '--apply', '--json']);
    expect(r.code).toBe(5);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ dryRun: false, error: { exitCode: 5, message: expect.stringMatching(/lower than the safe next index 12/) } });
    expect(doc.plan.refusals.length).toBeGreaterThan(0);
    expect(existsSync(seq(fx.root))).toBe(false);
  });

  it('without bucket evidence the plan is refused (exit 5); crash-during-run with evidence needs no change', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const none = await cli(['repair-index', fx.storeDir, '--config', f('crash-during-run', 'fluent-bit.conf')]);
    expect(none.code).toBe(5);
    expect(none.stdout).toMatch(/No bucket evidence/);
    const ok = await cli([
      'repair-index',
      fx.storeDir,
      '--config',
      f('crash-during-run', 'fluent-bit.conf'),
      '--listing',
      f('crash-during-run', 's3-objects-after-crash.json'),
      '--apply',
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/No change needed: seq_index_0 already holds 6/);
    expect(readFileSync(seq(fx.root), 'latin1')).toBe('6');
  });

  it('refuses an archive (exit 5, not forceable) and a store another process uses (exit 5, --force overrides)', async () => {
    const arch = await cli(['repair-index', f('index-reset', 'store-after-run2.tar.gz'), ...IR, '--apply', '--force']);
    expect(arch.code).toBe(5);
    expect(arch.stderr + arch.stdout).toMatch(/archive/);

    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const stream = path.join(fx.root, '2026-11-29T18:36:36');
    const holder = spawn('tail', ['-f', path.join(stream, readdirSync(stream)[0])], { stdio: 'ignore' });
    try {
      await waitUntilOpen(holder.pid!, stream);
      const args = [
        'repair-index',
        fx.storeDir,
        '--config',
        f('crash-during-run', 'fluent-bit.conf'),
        '--listing',
        f('crash-during-run', 's3-objects-after-crash.json'),
        '--value',
        '40',
        '--apply',
      ];
      const refused = await cli(args);
      expect(refused.code).toBe(5);
      expect(refused.stderr).toMatch(new RegExp(`Process ${holder.pid} \\(tail\\) has files of the store open or mapped`));
      expect(readFileSync(seq(fx.root), 'latin1')).toBe('6');
      const forced = await cli([...args, '--force']);
      expect(forced.code).toBe(0);
      expect(readFileSync(seq(fx.root), 'latin1')).toBe('40');
    } finally {
      holder.kill('SIGKILL');
    }
  });
});

describe('store-doctor protect-index / restore-index', { timeout: 120_000 }, () => {
  it('marker with a single $INDEX output; refused with a second S3 output on the same root without $INDEX', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const conf = f('crash-during-run', 'fluent-bit.conf');
    const ok = await cli(['protect-index', fx.storeDir, '--config', conf, '--method', 'marker', '--apply']);
    expect(ok.code).toBe(0);
    expect(existsSync(path.join(fx.root, 'sequence/store-doctor-marker'))).toBe(true);
    await cli(['undo', fx.storeDir, '--apply']);
    expect(existsSync(path.join(fx.root, 'sequence/store-doctor-marker'))).toBe(false);

    const two = path.join(fx.dir, 'two.conf');
    writeFileSync(
      two,
      readFileSync(conf, 'utf8') +
        '\n[OUTPUT]\n    name  s3\n    alias appstatus\n    match app.*\n    bucket fb-crash\n    region us-east-1\n    store_dir /data/crash-during-run/store\n    s3_key_format /status/$TAG/%Y%m%d%H%M%S\n',
    );
    const refused = await cli(['protect-index', fx.storeDir, '--config', two, '--output', '0', '--method', 'marker', '--apply', '--force']);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/appstatus.*has no \$INDEX/);
    expect(existsSync(path.join(fx.root, 'sequence/store-doctor-marker'))).toBe(false);
  });

  it('shadow copy, graceful stop deletes sequence/, restore-index --apply puts it back', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const shadow = path.join(fx.dir, 'shadow');
    const conf = f('crash-during-run', 'fluent-bit.conf');
    expect((await cli(['protect-index', fx.storeDir, '--config', conf, '--method', 'shadow', '--shadow-dir', shadow, '--apply'])).code).toBe(0);
    expect(readFileSync(path.join(shadow, 'seq_index_0'), 'latin1')).toBe('6');
    const { rmSync } = await import('node:fs');
    rmSync(path.join(fx.root, 'sequence'), { recursive: true });
    // the shadow may be behind Fluent Bit's exit flush: without bucket evidence restore-index refuses
    const unsure = await cli(['restore-index', fx.storeDir, '--config', conf, '--shadow-dir', shadow, '--apply']);
    expect(unsure.code).toBe(5);
    expect(unsure.stderr).toMatch(/not known to be final/);
    expect(existsSync(seq(fx.root))).toBe(false);
    const listing = f('crash-during-run', 's3api-list-objects-v2-after-crash.json');
    const r = await cli(['restore-index', fx.storeDir, '--config', conf, '--listing', listing, '--shadow-dir', shadow, '--apply']);
    expect(r.code).toBe(0);
    expect(readFileSync(seq(fx.root), 'latin1')).toBe('6');
  });
});

describe.skipIf(!s3Enabled())('store-doctor replay --live (RGW)', { timeout: 180_000 }, () => {
  it('plans, then replays every backlog chunk create-only; a second run has nothing to do', async () => {
    fx = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const client = testClient();
    const bucket = await newBucket(client, 'sd-cli-replay', true);
    renameSync(fx.root, path.join(fx.storeDir, bucket));
    const root = path.join(fx.storeDir, bucket);
    const conf = path.join(fx.dir, 'fluent-bit.conf');
    writeFileSync(
      conf,
      readFileSync(f('buffered-backlog-no-ordering', 'fluent-bit.conf'), 'utf8')
        .replace(/bucket\s+fb-backlog2/, `bucket ${bucket}`)
        .replace(/store_dir\s+\S+/, `store_dir ${fx.storeDir}`),
    );
    const env = {
      AWS_ACCESS_KEY_ID: process.env.S3_TEST_ACCESS_KEY_ID!,
      AWS_SECRET_ACCESS_KEY: process.env.S3_TEST_SECRET_ACCESS_KEY!,
      AWS_REGION: 'us-east-1',
      // the operator's environment: nobody set the SDK's switch (an undefined value is not passed on)
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: undefined as unknown as string,
    };
    const live = ['--config', conf, '--live', '--endpoint', process.env.S3_TEST_ENDPOINT!];
    const dry = await cli(['replay', fx.storeDir, ...live, '--include-active', '--json'], env);
    expect(dry.code).toBe(0);
    const plan = JSON.parse(dry.stdout).plan;
    expect(plan.replayItems.filter((i: { state: string }) => i.state === 'planned')).toHaveLength(12);
    const app = await cli(['replay', fx.storeDir, ...live, '--include-active', '--apply', '--concurrency', '3'], env);
    expect(app.code).toBe(0);
    expect(app.stdout).toMatch(/Replayed 12 of 12/);
    expect(app.stderr).toBe(''); // no runtime warning (the SDK's NodeVersionSupportWarning on Node < 22)
    expect(new Set((await allVersions(client, bucket)).map((v) => v.key)).size).toBe(12);
    expect(readFileSync(seq(root), 'latin1')).toBe('12');
    const again = await cli(['replay', fx.storeDir, ...live, '--include-active', '--apply'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Nothing to replay/);
    const undo = await cli(['undo', fx.storeDir, '--apply']);
    expect(undo.code).toBe(5);
    expect(undo.stderr).toMatch(/cannot be undone/);
  });
});

/** Wait until the process has a file under `dir` open (tail may start slowly on a busy machine). */
async function waitUntilOpen(pid: number, dir: string): Promise<void> {
  const { readdirSync: rd, readlinkSync } = await import('node:fs');
  for (let i = 0; i < 100; i++) {
    try {
      if (rd(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(dir))) return;
    } catch {
      /* not started yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`process ${pid} never opened a file under ${dir}`);
}
