/**
 * One planning request looks at a root's processes once (procs.ts planningScope); every look
 * outside a planning scope — apply's check right before it writes — is fresh.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fsp, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { findProcessesUsing, planningScope } from '../../../electron/engine/repair/preconditions/procs';
import { checkWriteAllowed } from '../../../electron/engine/repair/preconditions/write-check';
import { tempDir } from './helpers';

let t: ReturnType<typeof tempDir> | null = null;
let child: ChildProcess | null = null;
afterEach(() => {
  if (child?.pid) process.kill(child.pid, 'SIGKILL');
  child = null;
  t?.cleanup();
  t = null;
});

/** A process that holds `file` open until killed; resolves once it has it open. */
async function holder(file: string): Promise<ChildProcess> {
  const c = spawn(process.execPath, ['-e', `require('fs').openSync(${JSON.stringify(file)}, 'r'); console.log('open'); setInterval(() => {}, 1000);`], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve) => c.stdout!.once('data', () => resolve()));
  return c;
}

describe.skipIf(process.platform !== 'linux')('process checks while planning and before writing', () => {
  it('inside a planning scope the first look at a root is reused; outside, every look is fresh', async () => {
    t = tempDir('sd-procs-plan-');
    const file = path.join(t.dir, 'chunk');
    writeFileSync(file, 'x');
    await planningScope(async () => {
      const first = await findProcessesUsing(t!.dir);
      expect(first.processes).toEqual([]);
      child = await holder(file);
      // the same request sees what it saw first (it only reads; nothing is written on it)
      expect(await findProcessesUsing(t!.dir)).toBe(first);
      expect((await checkWriteAllowed(t!.dir)).refusals).toEqual([]);
    });
    // outside the scope (as apply checks right before it writes): the holder is seen
    const fresh = await findProcessesUsing(t.dir);
    expect(fresh.processes.map((p) => [p.pid, p.kind])).toEqual([[child!.pid, 'open']]);
    const refused = await checkWriteAllowed(t.dir);
    expect(refused.refusals.map((r) => r.reason)).toEqual([expect.stringMatching(new RegExp(`^Process ${child!.pid} \\(node\\) has files of the store open`))]);
  });

  it('a scope that ends while another runs leaves the other its look; after both, a scope works again', async () => {
    t = tempDir('sd-procs-plan-');
    const file = path.join(t.dir, 'chunk');
    writeFileSync(file, 'x');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let firstLook: unknown = null;
    const long = planningScope(async () => {
      firstLook = await findProcessesUsing(t!.dir);
      await held;
      return findProcessesUsing(t!.dir);
    });
    await planningScope(() => findProcessesUsing(t!.dir)); // starts and ends inside the long one
    release();
    expect(await long).toBe(firstLook);
    child = await holder(file);
    const again = await planningScope(async () => [await findProcessesUsing(t!.dir), await findProcessesUsing(t!.dir)]);
    expect(again[1]).toBe(again[0]);
    expect(again[0].processes.map((p) => p.pid)).toEqual([child.pid]);
  });

  it('a write check walks /proc twice: once for the files held, once for the Fluent Bit processes and their configs', async () => {
    t = tempDir('sd-procs-plan-');
    const walks = vi.spyOn(fsp, 'readdir');
    try {
      expect((await checkWriteAllowed(t.dir)).refusals).toEqual([]);
      expect(walks.mock.calls.filter((c) => c[0] === '/proc')).toHaveLength(2);
    } finally {
      walks.mockRestore();
    }
  });

  it('two planning scopes do not share a look', async () => {
    t = tempDir('sd-procs-plan-');
    const file = path.join(t.dir, 'chunk');
    writeFileSync(file, 'x');
    const a = await planningScope(() => findProcessesUsing(t!.dir));
    child = await holder(file);
    const b = await planningScope(() => findProcessesUsing(t!.dir));
    expect(a.processes).toEqual([]);
    expect(b.processes.map((p) => p.pid)).toEqual([child.pid]);
  });
});
