/**
 * The guard door against a fake Fluent Bit (test/support/fake-fluent-bit.mjs) that handles its
 * index like out_s3 does: in-place writes, an exit flush, and the graceful-stop deletion of
 * sequence/ right after the last write. The real Fluent Bit runs the same scenario in
 * test/fluent-bit/guard.fb.test.ts.
 */
import { crashFixtureConfig, until as waitUntil } from '../../support/wait';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildNodeReport, Guard, type GuardOptions } from '../../../electron/engine/guard';
import { CliSession } from '../../../electron/cli/session';
import { nodeReportSchema } from '../../../shared/fleet';
import { markerBytes, MARKER_NAME } from '../../../electron/engine/repair/index-actions/protect';
import { extractFixture, tempDir, type Extracted } from '../repair/helpers';

/** The guard daemon hosted on its own CLI session, as `store-doctor guard` hosts it. */
function hosted(opts: GuardOptions): Guard {
  const session = new CliSession();
  return new Guard(opts, { call: (name, input) => session.call(name, input), dispose: () => session.dispose() });
}

const FAKE = path.resolve(__dirname, '../../support/fake-fluent-bit.mjs');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let fx: Extracted | null = null;
let sd: ReturnType<typeof tempDir> | null = null;
const guards: Guard[] = [];
const fakes: ChildProcess[] = [];
afterEach(async () => {
  for (const p of fakes.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const g of guards.splice(0)) await g.stop();
  fx?.cleanup();
  sd?.cleanup();
  fx = sd = null;
});

const config = crashFixtureConfig;

const until = <T>(what: string, fn: Parameters<typeof waitUntil<T>>[1], timeoutMs = 10_000) => waitUntil<T>(what, fn, timeoutMs);

interface Fake {
  proc: ChildProcess;
  out: () => string;
  stop: () => Promise<void>;
}
async function startFake(root: string, everyMs: number, flush: number): Promise<Fake> {
  const proc = spawn(process.execPath, [FAKE, root, '0', String(everyMs), String(flush)], { stdio: ['ignore', 'pipe', 'inherit'] });
  fakes.push(proc);
  let out = '';
  proc.stdout!.on('data', (d) => (out += String(d)));
  await until('the fake Fluent Bit', () => out.includes('ready'));
  return {
    proc,
    out: () => out,
    stop: async () => {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

const seqFile = (root: string) => path.join(root, 'sequence', 'index_metadata', 'seq_index_0');
const read = (f: string) => (existsSync(f) ? readFileSync(f, 'latin1') : null);
const logs: string[] = [];
function newGuard(
  storeDir: string,
  conf: string,
  stateDir: string,
  opts: { marker?: boolean; pollMs?: number; trace?: boolean; retryMs?: number } = {},
): Guard {
  const g = hosted({ store: storeDir, config: conf, stateDir, pollMs: 200, refreshDebounceMs: 50, log: (l) => logs.push(l), ...opts });
  guards.push(g);
  return g;
}

describe('store-doctor guard (door)', { timeout: 60_000 }, () => {
  it('keeps the exit flush values and restores the final one the moment the graceful stop deleted sequence/', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    sd = tempDir('sd-guard-');
    const conf = config(fx.storeDir, path.join(sd.dir, 'fb.conf'));
    const state = path.join(sd.dir, 'state');
    const g = newGuard(fx.storeDir, conf, state);
    await g.start();
    expect(g.state).toBe('watching');
    const fb = await startFake(fx.root, 40, 3);
    expect(fb.out()).toMatch(/Continuing at index=6/);
    await until('three uploads', () => /used index 8/.test(fb.out()));
    await fb.stop(); // exit flush: 3 more values, then sequence/ is deleted within a millisecond
    const used = [...fb.out().matchAll(/used index (\d+)/g)].map((m) => Number(m[1]));
    const last = Math.max(...used);
    await until('the restored index file', () => read(seqFile(fx!.root)) === String(last + 1));
    await until('the restore counted', () => g.restores === 1);
    expect(read(path.join(state, 'fb-crash', 'seq_index_0'))).toBe(String(last + 1));
    expect(JSON.parse(readFileSync(path.join(state, 'fb-crash', 'final.json'), 'utf8'))).toEqual({ 0: last + 1 });
    expect(g.restores).toBe(1);
    expect(g.latencies).toHaveLength(1);
    // the restore is a repair: in the store's journal; the shadow updates are not
    const journal = readFileSync(path.join(fx.root, '.store-doctor', 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(journal.filter((l) => l.type === 'action').map((l) => l.action)).toEqual(['restore-index']);
    // the next start continues after every used value
    const fb2 = await startFake(fx.root, 40, 0);
    expect(fb2.out()).toMatch(new RegExp(`Continuing at index=${last + 1}\\b`));
    await fb2.stop();
    await until('the second restore', () => g.restores === 2);
    const report = nodeReportSchema.parse(buildNodeReport(g, { version: 'test', node: 'n1' }));
    expect(report.outputs[0]).toMatchObject({ id: 0, bucket: 'fb-crash', guardedIndex: last + 1, guardedFinal: true, restores: 2 });
  });

  it('survives its own restart: the state folder holds the final value, restored when sequence/ is missing at start', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    sd = tempDir('sd-guard-');
    const conf = config(fx.storeDir, path.join(sd.dir, 'fb.conf'));
    const state = path.join(sd.dir, 'state');
    const g1 = newGuard(fx.storeDir, conf, state);
    await g1.start();
    const fb = await startFake(fx.root, 30, 2);
    await until('uploads', () => /used index 7/.test(fb.out()));
    await g1.stop(); // the guard goes down while Fluent Bit runs; its state stays
    await sleep(100);
    const kept = Number(read(path.join(state, 'fb-crash', 'seq_index_0')));
    expect(kept).toBeGreaterThanOrEqual(8);
    const g2 = newGuard(fx.storeDir, conf, state);
    await g2.start();
    await fb.stop();
    const final = Math.max(...[...fb.out().matchAll(/used index (\d+)/g)].map((m) => Number(m[1]))) + 1;
    await until('the restore', () => read(seqFile(fx!.root)) === String(final));
    await g2.stop();
    // now the guard is down while the store loses sequence/ again: a third guard restores from its state
    rmSync(path.join(fx.root, 'sequence'), { recursive: true });
    const g3 = newGuard(fx.storeDir, conf, state);
    await g3.start();
    await until('the restore at start', () => read(seqFile(fx!.root)) === String(final));
  });

  it('a value not known to be final is never restored without bucket evidence', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    sd = tempDir('sd-guard-');
    const conf = config(fx.storeDir, path.join(sd.dir, 'fb.conf'));
    const state = path.join(sd.dir, 'state');
    mkdirSync(path.join(state, 'fb-crash'), { recursive: true });
    writeFileSync(path.join(state, 'fb-crash', 'seq_index_0'), '40'); // a copy taken while Fluent Bit ran (no final.json)
    rmSync(path.join(fx.root, 'sequence'), { recursive: true });
    const g = newGuard(fx.storeDir, conf, state);
    await g.start();
    await until('the refusal', () => g.roots.get(fx!.root)?.problem);
    expect(g.roots.get(fx.root)!.problem).toMatch(/not known to be final/);
    expect(existsSync(seqFile(fx.root))).toBe(false);
    const report = buildNodeReport(g, { version: 'test' });
    expect(report.outputs[0].risks.join('\n')).toMatch(/missing or unreadable: the next start counts \$INDEX from 0 \(the guard keeps 40\)/);
    // the true state while it keeps retrying: refused, and why — never "restoring"
    expect(g.state).toBe('refused');
    expect(report.guard.state).toBe('refused');
    expect(report.guard.stateReason).toMatch(/^fb-crash: .*not known to be final/);
    const seen = new Set<string>();
    const tick = setInterval(() => seen.add(g.state), 1);
    await new Promise((r) => setTimeout(r, 300)); // retries every 25, 50, 100, … ms meanwhile
    clearInterval(tick);
    expect([...seen]).toEqual(['refused']);
  });

  it('waits for a missing store, then guards it', async () => {
    sd = tempDir('sd-guard-');
    const storeDir = path.join(sd.dir, 'later', 'store');
    const conf = config(storeDir, path.join(sd.dir, 'fb.conf'));
    const g = newGuard(storeDir, conf, path.join(sd.dir, 'state'));
    const started = g.start();
    await sleep(300);
    expect(g.state).toBe('waiting-for-store');
    mkdirSync(path.join(storeDir, 'fb-crash', 'sequence', 'index_metadata'), { recursive: true });
    writeFileSync(seqFile(path.join(storeDir, 'fb-crash')), '3');
    await started;
    expect(g.state).toBe('watching');
    await until('the value kept', () => read(path.join(sd!.dir, 'state', 'fb-crash', 'seq_index_0')) === '3');
  });

  it('--marker: keeps a marker chunk in sequence/ where it is safe, also after a restore; refused when an output without $INDEX shares the root', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    sd = tempDir('sd-guard-');
    const conf = config(fx.storeDir, path.join(sd.dir, 'fb.conf'));
    const marker = path.join(fx.root, 'sequence', MARKER_NAME);
    const g = newGuard(fx.storeDir, conf, path.join(sd.dir, 'state'), { marker: true });
    await g.start();
    expect(readFileSync(marker).equals(markerBytes())).toBe(true);
    rmSync(path.join(fx.root, 'sequence'), { recursive: true });
    await until('the restore and the marker', () => g.restores === 1 && existsSync(marker));
    expect(read(seqFile(fx.root))).toBe('6');
    await g.stop();
    // another output on the same root without $INDEX would upload the marker: refused, logged, nothing written
    const fx2 = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    try {
      const conf2 = path.join(sd.dir, 'two.conf');
      writeFileSync(
        conf2,
        readFileSync(config(fx2.storeDir, path.join(sd.dir, 'one.conf')), 'utf8') +
          `[OUTPUT]\n    name s3\n    match *\n    bucket fb-crash\n    region us-east-1\n    store_dir ${fx2.storeDir}\n    s3_key_format /$TAG/%Y/%m/%d/%H%M%S-$UUID\n`,
      );
      logs.length = 0;
      const g2 = newGuard(fx2.storeDir, conf2, path.join(sd.dir, 'state2'), { marker: true });
      await g2.start();
      expect(existsSync(path.join(fx2.root, 'sequence', MARKER_NAME))).toBe(false);
      expect(logs.join('\n')).toMatch(/marker not placed in fb-crash: .*has no \$INDEX/);
    } finally {
      fx2.cleanup();
    }
  });

  it('a process that still uses the root when sequence/ goes (not seen while it ran): the guard waits for its exit, then restores at once', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    sd = tempDir('sd-guard-');
    const conf = config(fx.storeDir, path.join(sd.dir, 'fb.conf'));
    // a retry after a refusal waits 10 minutes: a restore seen within the test came from the exit, not a backoff
    const g = newGuard(fx.storeDir, conf, path.join(sd.dir, 'state'), { retryMs: 600_000 });
    await g.start(); // no process uses the root: the value on disk (6) is final
    logs.length = 0;
    // a late process: a chunk of the root open, no index write (so the guard never looked it up)
    const chunk = path.join(fx.root, 'late-stream', 'chunk');
    mkdirSync(path.dirname(chunk), { recursive: true });
    writeFileSync(chunk, 'x');
    const holder = spawn(process.execPath, ['-e', `require('fs').openSync(${JSON.stringify(chunk)}, 'r'); console.log('open'); setInterval(() => {}, 1000);`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    fakes.push(holder);
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    const exited = new Promise<void>((resolve) => holder.once('exit', () => resolve()));
    rmSync(path.join(fx.root, 'sequence'), { recursive: true });
    // it holds the chunk until the guard has refused and waits for it: then it exits
    await until('the refusal while it holds the chunk', () => logs.some((l) => l.includes(`waiting for node (pid ${holder.pid}) to exit`)));
    expect(existsSync(seqFile(fx.root))).toBe(false); // never written while a process uses the root
    holder.kill('SIGTERM');
    await exited;
    // a backstop for a hang only (60 s on a busy machine); a restore through the backoff would take 10 minutes
    await until('the restore', () => g.restores === 1, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}; guard log:\n${logs.join('\n')}`);
    });
    expect(read(seqFile(fx.root))).toBe('6');
    // planned again the moment it exited, not after a backoff (the first retry would wait 10 minutes)
    expect(logs.filter((l) => /refused/.test(l))).toHaveLength(1);
  });

  it('a deletion right after its own restore is seen (not only at the next poll)', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    sd = tempDir('sd-guard-');
    const conf = config(fx.storeDir, path.join(sd.dir, 'fb.conf'));
    const g = newGuard(fx.storeDir, conf, path.join(sd.dir, 'state'), { pollMs: 30_000 }); // no poll to fall back on
    await g.start();
    for (let round = 1; round <= 3; round++) {
      rmSync(path.join(fx.root, 'sequence'), { recursive: true });
      await until(`restore ${round}`, () => g.restores === round && read(seqFile(fx!.root)) === '6', 5_000);
      await sleep(50);
    }
  });

  it('plans a restore once at start, without applying it (the first walk of a big store is not paid after a stop)', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    sd = tempDir('sd-guard-');
    const conf = config(fx.storeDir, path.join(sd.dir, 'fb.conf'));
    logs.length = 0;
    const g = newGuard(fx.storeDir, conf, path.join(sd.dir, 'state'), { trace: true });
    await g.start();
    await until('the warm-up plan', () => logs.some((l) => /^trace: repair\.plan \d+ ms$/.test(l)));
    await g.stop();
    expect(logs.filter((l) => l.startsWith('trace: repair.apply'))).toEqual([]);
    expect(existsSync(path.join(fx.root, '.store-doctor', 'journal.jsonl'))).toBe(false);
    expect(read(seqFile(fx.root))).toBe('6');
  });
});
