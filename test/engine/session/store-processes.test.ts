/**
 * `store.processes`: who uses a root of an opened store — every process, or with `fluentBitOnly`
 * only the processes named like Fluent Bit (the guard's cheap look while Fluent Bit runs). Two real
 * processes hold a chunk of the root open: `node`, and node started through a link named
 * `fluent-bit` (the kernel names a process after the file it was started as).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, dispatchRequest } from '../../../electron/engine';
import type { Engine, RequestInput, RequestName, RequestResult } from '../../../shared/contract';
import { generateStore, jsonLines } from '../../fixtures/store-gen';
import { tempDir } from '../../support/fixtures';

let e: Engine | null = null;
let t: ReturnType<typeof tempDir> | null = null;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await e?.dispose();
  t?.cleanup();
  e = null;
  t = null;
});

/** `exe` holding `file` open until killed; resolves once it has it open. */
async function holder(exe: string, file: string): Promise<ChildProcess> {
  const c = spawn(exe, ['-e', `require('fs').openSync(${JSON.stringify(file)}, 'r'); console.log('open'); setInterval(() => {}, 1000);`], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(c);
  await new Promise<void>((resolve) => c.stdout!.once('data', () => resolve()));
  return c;
}

/** One request, its typed result (a contract error fails the test). */
async function call<N extends RequestName>(name: N, input: RequestInput<N>): Promise<RequestResult<N>> {
  const reply = await dispatchRequest(e!, name, input);
  if (!reply.ok) throw new Error(`${name}: ${reply.error.message}`);
  return reply.value as RequestResult<N>;
}

describe.skipIf(process.platform !== 'linux')('store.processes', () => {
  it('names every process using the root; with fluentBitOnly only the one named like Fluent Bit', async () => {
    t = tempDir('sd-store-procs-');
    const g = await generateStore(path.join(t.dir, 'store'), {
      roots: [{ bucket: 'logs', streams: [{ name: '2026-01-01T00:00:00', chunks: [{ name: '1-1.flb', meta: 'app', content: jsonLines(3) }] }] }],
    });
    const root = path.join(g.storeDir, 'logs');
    const chunk = path.join(root, '2026-01-01T00:00:00', '1-1.flb');
    const fbExe = path.join(t.dir, 'fluent-bit');
    symlinkSync(process.execPath, fbExe);
    const other = await holder(process.execPath, chunk);
    const fb = await holder(fbExe, chunk);
    e = createEngine({ door: 'cli', watch: false });
    const { storeId } = await call('store.open', { path: g.storeDir });

    const all = await call('store.processes', { storeId, rootPath: root });
    expect(all.processes.map((p) => [p.pid, p.command]).sort()).toEqual(
      [
        [other.pid, 'node'],
        [fb.pid, 'fluent-bit'],
      ].sort(),
    );

    const fbOnly = await call('store.processes', { storeId, rootPath: root, fluentBitOnly: true });
    expect(fbOnly.processes).toEqual([{ pid: fb.pid, command: 'fluent-bit', kind: 'fluent-bit', paths: [chunk] }]);

    // without a Fluent Bit running: nothing, and no scan of the others
    process.kill(fb.pid!, 'SIGKILL');
    await new Promise((r) => fb.once('exit', r));
    expect(await call('store.processes', { storeId, rootPath: root, fluentBitOnly: true })).toEqual({ processes: [], uninspectable: 0, supported: true });
  });
});
