/**
 * The compiled entry (out/cli/store-doctor.cjs, built by the global setup): --version, --help and
 * completion answer from the shape baked in at build time — the same help as the real program,
 * without loading the engine, the host or any big package — and every other command line loads
 * only what its command needs (a scan never loads the AWS SDK or YAML; it loads zod, because every
 * command goes through the engine session, which validates each request like the other doors).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import pkg from '../../package.json';
import { buildProgram, commandOf } from '../../electron/cli/main';
import { answersWithoutEngine } from '../../electron/cli/entry';
import { describeProgram, programFromSpec } from '../../electron/cli/spec';
import { EXAMPLES } from '../../electron/cli/examples';
import { encodeChunk } from '../../electron/engine/chunk';
import { expectConforms, expectRejected } from '../support/json-schemas';

const ROOT = path.join(__dirname, '../..');
const ENTRY = path.join(ROOT, 'out/cli/store-doctor.cjs');
const FIX = path.join(ROOT, 'test/fixtures/fluent-bit-real/index-reset');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-entry-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Records every file the process loads through require (its basename, or the package name). */
const TRACE = path.join(tmp, 'trace.cjs');
fs.writeFileSync(
  TRACE,
  `const Module = require('node:module'); const path = require('node:path'); const seen = new Set();
const builtin = new Set(Module.builtinModules);
const load = Module._load;
Module._load = function (req, parent, isMain) {
  if (!isMain && !req.startsWith('node:') && !builtin.has(req))
    seen.add(req.startsWith('.') || req.startsWith('/') ? path.relative(${JSON.stringify(path.join(ROOT, 'out/cli'))}, path.resolve(path.dirname(parent.filename), req)) : req);
  return load.apply(this, arguments);
};
process.on('exit', () => require('node:fs').writeFileSync(process.env.TRACE_OUT, JSON.stringify([...seen].sort())));`,
);

function traced(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; loaded: string[] } {
  const out = path.join(tmp, `trace-${Math.random().toString(36).slice(2)}.json`);
  const r = spawnSync(process.execPath, ['-r', TRACE, ENTRY, ...args], { encoding: 'utf8', env: { ...process.env, ...env, TRACE_OUT: out }, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, loaded: JSON.parse(fs.readFileSync(out, 'utf8')) as string[] };
}

function helpOf(cmd: Command): string {
  let text = '';
  cmd.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s), getOutHelpWidth: () => 100, getErrHelpWidth: () => 100 });
  cmd.outputHelp();
  return text;
}

describe('the command line shape baked into the compiled entry', () => {
  it('rebuilds a program whose help is the real program’s, for the program and every command', async () => {
    const real = await buildProgram();
    const copy = programFromSpec(describeProgram(real), () => {});
    expect(copy.commands.map((c) => c.name())).toEqual(real.commands.map((c) => c.name()));
    expect(helpOf(copy)).toBe(helpOf(real));
    for (const c of real.commands) expect(helpOf(copy.commands.find((x) => x.name() === c.name())!), c.name()).toBe(helpOf(c));
  });

  it('every command has one example, shown at the end of its help', async () => {
    const real = await buildProgram();
    expect(Object.keys(EXAMPLES).sort()).toEqual(real.commands.map((c) => c.name()).sort());
    for (const c of real.commands) expect(helpOf(c)).toMatch(new RegExp(`\\nExample:\\n  # .+\\n  \\$ store-doctor ${c.name()} `));
  });

  it('only help, version, completion and a bare command line skip the real program', () => {
    for (const argv of [
      [],
      ['--version'],
      ['-V'],
      ['--help'],
      ['-h'],
      ['help'],
      ['help', 'scan'],
      ['scan', '--help'],
      ['completion', 'bash'],
      ['diagnose', 'x', '-h'],
      ['version'],
      ['version', '--json'],
    ])
      expect(answersWithoutEngine(argv), argv.join(' ')).toBe(true);
    for (const argv of [
      ['scan', 'x'],
      ['--version', 'scan'],
      ['scan', '--', '--help'],
      ['serve', 'demo'],
      ['--quiet', 'scan', 'x'],
    ])
      expect(answersWithoutEngine(argv), argv.join(' ')).toBe(false);
  });

  it('a command line loads only its command: the first word that is not an option, if it is a command', () => {
    expect(commandOf(['scan', 'x'])).toBe('scan');
    expect(commandOf(['--quiet', '--no-color', 'undo', 'x'])).toBe('undo');
    expect(commandOf(['protect-index', 'x', '--method', 'marker'])).toBe('protect-index');
    expect(commandOf(['scna', 'x'])).toBeUndefined();
    expect(commandOf(['--', 'scan'])).toBeUndefined();
    expect(commandOf([])).toBeUndefined();
  });
});

describe('the compiled entry', () => {
  it('--version prints the version from package.json and loads nothing else', () => {
    const r = traced(['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
    expect(r.loaded).toEqual([]);
  });

  it('version --json prints {version, node, platform, commit} of this build, conforming to its schema, loading commander only', () => {
    const r = traced(['version', '--json']);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expectConforms('version', doc);
    const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
    expect(doc).toEqual({
      version: pkg.version,
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
      commit: expect.stringMatching(new RegExp(`^${head}(-dirty)?$`)),
    });
    expect(r.loaded).toEqual(['vendor/commander.cjs']);
    const text = traced(['version']);
    expect(text.stdout).toBe(
      `store-doctor ${pkg.version}\nnode ${process.versions.node}\nplatform ${process.platform}-${process.arch}\ncommit ${doc.commit as string}\n`,
    );
    expectRejected('version', { ...doc, commit: 7 });
  });

  it('--help, a command’s --help and completion load commander only', () => {
    for (const args of [['--help'], ['repair-index', '--help'], ['completion', 'bash'], ['help', 'scan']]) {
      const r = traced(args);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.loaded, args.join(' ')).toEqual(['vendor/commander.cjs']);
    }
    expect(traced(['scan', '--help']).stdout).toMatch(/Usage: store-doctor scan \[options\] <path>[\s\S]*\$ store-doctor scan store\.tar\.gz/);
  });

  it('a bare store-doctor prints the help as bad usage (exit 2), as the real program does', () => {
    const r = spawnSync(process.execPath, [ENTRY], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^Usage: store-doctor \[options\] \[command\]/);
  });

  it('scan loads the program but not the AWS SDK or YAML; an offline diagnose never loads the SDK', () => {
    const scan = traced(['scan', path.join(FIX, 'store-after-run2.tar.gz'), '--json']);
    expect(scan.status).toBe(0);
    // zod: the session validates the request, as for the app's doors
    expect([...scan.loaded].sort()).toEqual(['cli.cjs', 'vendor/commander.cjs', 'vendor/zod.cjs']);
    const diagnose = traced([
      'diagnose',
      path.join(FIX, 'store-after-run2.tar.gz'),
      '--config',
      path.join(FIX, 'fluent-bit.conf'),
      '--listing',
      path.join(FIX, 's3api-list-objects-v2-after-run2.json'),
    ]);
    expect(diagnose.status).toBe(4);
    expect(diagnose.loaded).not.toContain('vendor/aws-sdk.cjs');
    expect(diagnose.loaded).toContain('vendor/zod.cjs');
    // nothing from node_modules: the compiled CLI carries every package it uses
    for (const r of [scan, diagnose]) expect(r.loaded.filter((f) => !f.startsWith('vendor/') && f !== 'cli.cjs')).toEqual([]);
  });

  it('a live command loads the AWS SDK (from vendor/)', () => {
    // a closed loopback port; credentials from the environment, so the chain asks nothing else
    const env = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'example-secret', AWS_EC2_METADATA_DISABLED: 'true' };
    const r = traced(
      ['diagnose', path.join(FIX, 'store-after-run2.tar.gz'), '--config', path.join(FIX, 'fluent-bit.conf'), '--live', '--endpoint', 'http://127.0.0.1:9'],
      env,
    );
    expect(r.status).not.toBe(0);
    expect(r.loaded).toContain('vendor/aws-sdk.cjs');
  });

  it('a folder store big enough for worker threads runs them from out/cli/scan-worker.js, with the in-thread result', () => {
    const store = path.join(tmp, 'many');
    const stream = path.join(store, 'bucket', '2026-01-01T00:00:00');
    fs.mkdirSync(stream, { recursive: true });
    for (let i = 0; i < 4500; i++) fs.writeFileSync(path.join(stream, `${1000 + i}-${i}.flb`), encodeChunk({ meta: `app.${i % 5}`, content: `{"i":${i}}\n` }));
    // a copy of out/cli whose worker file leaves a mark before it runs the real one
    const copy = path.join(tmp, 'cli-copy');
    fs.cpSync(path.join(ROOT, 'out/cli'), copy, { recursive: true });
    fs.renameSync(path.join(copy, 'scan-worker.js'), path.join(copy, 'scan-worker.real.js'));
    const mark = path.join(tmp, 'worker-ran');
    fs.writeFileSync(path.join(copy, 'scan-worker.js'), `require('node:fs').appendFileSync(${JSON.stringify(mark)}, 'x'); require('./scan-worker.real.js');`);
    const scan = (workers: string) =>
      spawnSync(process.execPath, [path.join(copy, 'store-doctor.cjs'), 'scan', store, '--json'], {
        encoding: 'utf8',
        env: { ...process.env, STORE_DOCTOR_SCAN_WORKERS: workers },
        maxBuffer: 256 * 1024 * 1024,
      });
    const threads = scan('2');
    expect(threads.status).toBe(0);
    expect(fs.readFileSync(mark, 'utf8')).toBe('xx');
    const inThread = scan('0');
    const strip = (text: string) => ({ ...JSON.parse(text), scannedAt: null });
    expect(strip(threads.stdout)).toEqual(strip(inThread.stdout));
    expect(strip(threads.stdout).roots[0].totals.chunks).toBe(4500);
  });
});
