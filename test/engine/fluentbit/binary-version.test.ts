/**
 * `fluent-bit --version` of a binary the operator names (--fluent-bit-bin): the path is untrusted
 * input — only an absolute, regular, executable file others cannot write, never a file inside an
 * opened store — run with execFile (no shell), a timeout and a minimal environment. Through the
 * session: only the command line may name a binary; the version then applies to every diagnosis.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionFromBinary } from '../../../electron/engine/fluentbit/binary-version';
import { createEngine, dispatchRequest } from '../../../electron/engine';
import { encodeChunk } from '../../../electron/engine/chunk';

let dir: string;
const script = (name: string, body: string, mode = 0o755) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, `#!/bin/sh\n${body}\n`);
  fs.chmodSync(p, mode);
  return p;
};
const REAL = process.env.FLUENT_BIT_DIR ?? '/work/shared/fluent-bit';
const real509 = path.join(REAL, '5.0.9', 'bin', 'fluent-bit');

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-fbbin-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('versionFromBinary', () => {
  it.skipIf(!fs.existsSync(real509))('reads a real Fluent Bit 5.0.9', async () => {
    const v = await versionFromBinary(real509);
    // A path through a symlink (../shared may be one) is shown with the file it runs.
    const real = fs.realpathSync(real509);
    const shown = real === real509 ? real509 : `${real509} (${real})`;
    expect(v).toEqual({ source: 'binary', version: '5.0.9', evidence: [`${shown} --version printed "Fluent Bit v5.0.9"`] });
  });

  it('reads what a binary prints, through a symlink too (naming the real file)', async () => {
    const p = script('fb', 'echo "Fluent Bit v4.2.8"; echo "Git commit: "');
    expect((await versionFromBinary(p)).version).toBe('4.2.8');
    const link = path.join(dir, 'fb-link');
    fs.symlinkSync(p, link);
    const v = await versionFromBinary(link);
    expect(v.evidence[0]).toBe(`${link} (${p}) --version printed "Fluent Bit v4.2.8"`);
  });

  it('runs the file itself, never through a shell (a ; in the name is a name)', async () => {
    const p = script('fb; touch sd-pwned-by-shell', 'echo "Fluent Bit v5.1.1"');
    expect((await versionFromBinary(p)).version).toBe('5.1.1');
    for (const where of [process.cwd(), dir, '/']) expect(fs.existsSync(path.join(where, 'sd-pwned-by-shell'))).toBe(false);
  });

  it('gives the binary no credentials from the environment', async () => {
    process.env.AWS_SECRET_ACCESS_KEY_SD_TEST = 'secret';
    try {
      const p = script('fb-env', 'echo "Fluent Bit v5.0.9 $AWS_SECRET_ACCESS_KEY_SD_TEST"');
      const v = await versionFromBinary(p);
      expect(v.evidence[0]).not.toContain('secret');
    } finally {
      delete process.env.AWS_SECRET_ACCESS_KEY_SD_TEST;
    }
  });

  it.each([
    ['a relative path', () => 'bin/fluent-bit', /give the absolute path/],
    ['a missing file', () => path.join(dir, 'nope'), /no such file/],
    ['a folder', () => dir, /not a regular file/],
    ['a file without x bits', () => script('noexec', 'echo "Fluent Bit v5.0.9"', 0o644), /not executable/],
    ['a world-writable file', () => script('ww', 'echo "Fluent Bit v5.0.9"', 0o777), /writable by every user \(mode 777\)/],
  ])('refuses %s before running anything', async (_n, p, why) => {
    await expect(versionFromBinary(p())).rejects.toMatchObject({ kind: 'invalid', message: expect.stringMatching(why) });
  });

  it('refuses a file inside an opened store', async () => {
    const p = script('in-store', 'echo "Fluent Bit v5.0.9"');
    await expect(versionFromBinary(p, { insideStore: (x) => x.startsWith(dir) })).rejects.toMatchObject({
      kind: 'invalid',
      message: expect.stringMatching(/inside an opened store: Store Doctor never runs a file found in a store/),
    });
  });

  it.each([
    ['prints something else', 'echo "fluentd 1.16"', /--version printed "fluentd 1\.16", not "Fluent Bit v<x\.y\.z>"/],
    ['prints nothing and fails', 'exit 3', /--version exited with 3/],
  ])('fails when it %s', async (_n, body, why) => {
    await expect(versionFromBinary(script(`bad-${body.length}`, body))).rejects.toMatchObject({ kind: 'failed', message: expect.stringMatching(why) });
  });

  it('kills a binary that does not answer', async () => {
    // the script records its pid; after the refusal that process is gone (killed, not waited for)
    const pidFile = path.join(os.tmpdir(), `sd-hang-${process.pid}.pid`);
    await expect(versionFromBinary(script('hang', `echo $$ > ${pidFile}; exec sleep 30`), { timeoutMs: 300 })).rejects.toMatchObject({
      kind: 'failed',
      message: expect.stringMatching(/did not answer within 300 ms \(killed\)/),
    });
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    fs.rmSync(pidFile);
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });
});

describe('store.fluentBitVersion through the session', () => {
  const call = async (engine: ReturnType<typeof createEngine>, name: string, input: unknown) => dispatchRequest(engine, name, input);

  it('the command line may name a binary; the app and the host may not; never one inside the store', async () => {
    const store = path.join(dir, 'store', 'bucket');
    fs.mkdirSync(path.join(store, '2026-01-01T00:00:00'), { recursive: true });
    fs.writeFileSync(path.join(store, '2026-01-01T00:00:00', '1-1'), encodeChunk({ meta: 'app', content: '{"a":1}\n' }));
    const inStore = path.join(store, 'fluent-bit');
    fs.writeFileSync(inStore, '#!/bin/sh\necho "Fluent Bit v1.9.10"\n', { mode: 0o755 });
    const outside = script('fb-ok', 'echo "Fluent Bit v1.9.10"');
    for (const door of ['host', 'electron'] as const) {
      const engine = createEngine({ door, watch: false });
      try {
        const opened = await call(engine, 'store.open', { path: store });
        const storeId = (opened as { ok: true; value: { storeId: string } }).value.storeId;
        expect(await call(engine, 'store.fluentBitVersion', { storeId, binary: outside })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
        expect(await call(engine, 'store.fluentBitVersion', { storeId, version: '1.9.10' })).toMatchObject({ ok: true, value: { source: 'given' } });
      } finally {
        await engine.dispose();
      }
    }
    const engine = createEngine({ door: 'cli', watch: false });
    try {
      const opened = await call(engine, 'store.open', { path: store });
      const storeId = (opened as { ok: true; value: { storeId: string } }).value.storeId;
      expect(await call(engine, 'store.fluentBitVersion', { storeId, binary: inStore })).toMatchObject({
        ok: false,
        error: { code: 'invalid-input', message: expect.stringMatching(/inside an opened store/) },
      });
      const r = await call(engine, 'store.fluentBitVersion', { storeId, binary: outside });
      expect(r).toMatchObject({
        ok: true,
        value: { source: 'binary', version: '1.9.10', assumes: ['1.9.10'], text: 'Fluent Bit 1.9.10, read from the Fluent Bit binary' },
      });
      const d = await call(engine, 'diagnose.run', { storeId });
      expect(d).toMatchObject({ ok: true, value: { fluentBit: { source: 'binary', version: '1.9.10' } } });
      // forgetting it: the store is read for the version again (a chunk with its length: 3.x or later)
      expect(await call(engine, 'store.fluentBitVersion', { storeId, version: null })).toMatchObject({ ok: true, value: { source: 'inferred' } });
      expect(await call(engine, 'store.fluentBitVersion', { storeId, version: '1.9.10; rm' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
      expect(await call(engine, 'store.fluentBitVersion', { storeId })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    } finally {
      await engine.dispose();
    }
  });
});
