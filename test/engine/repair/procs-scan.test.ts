/**
 * The process scan (procs.ts) on a /proc of many processes: it reads each process synchronously
 * (a few microseconds a call, where the thread pool costs tens), so it must hand the event loop
 * back every PROCS_PER_TURN processes — a guard's HTTP endpoint and its watchers keep running
 * during a scan of thousands. Built on a stand-in /proc (procsTestHooks.proc): pid folders with
 * fd links, comm, maps and cwd, as the kernel lays them out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { findFluentBitProcesses, findProcessesUsing, PROCS_PER_TURN, procsTestHooks } from '../../../electron/engine/repair/preconditions/procs';
import { tempDir } from './helpers';

let t: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  procsTestHooks.proc = null;
  t?.cleanup();
  t = null;
});

const PROCESSES = 800;

/** A store root with one chunk, a file outside it, and a /proc of PROCESSES processes: pid 4_304_242 (fluent-bit) holds the chunk, pid 4_300_777 (tail) — pids above any pid_max, never this process — has its cwd in the root. */
function fakeProc(): { root: string; chunk: string } {
  t = tempDir('sd-procs-scan-');
  const root = path.join(t.dir, 'store', 'bucket');
  const chunk = path.join(root, 'stream', '1-1.flb');
  mkdirSync(path.dirname(chunk), { recursive: true });
  writeFileSync(chunk, 'x');
  const outside = path.join(t.dir, 'elsewhere.log');
  writeFileSync(outside, 'y');
  const proc = path.join(t.dir, 'proc');
  for (let i = 0; i < PROCESSES; i++) {
    const pid = i === 0 ? 4_304_242 : i === 1 ? 4_300_777 : 5_000_000 + i;
    const dir = path.join(proc, String(pid));
    mkdirSync(path.join(dir, 'fd'), { recursive: true });
    writeFileSync(path.join(dir, 'comm'), pid === 4_304_242 ? 'fluent-bit\n' : pid === 4_300_777 ? 'tail\n' : 'worker\n');
    writeFileSync(path.join(dir, 'maps'), '');
    symlinkSync(pid === 4_304_242 ? chunk : outside, path.join(dir, 'fd', '3'));
    symlinkSync(pid === 4_300_777 ? path.dirname(chunk) : t.dir, path.join(dir, 'cwd'));
  }
  procsTestHooks.proc = proc;
  return { root, chunk };
}

/** Counts turns of the event loop until `p` settles. */
async function turnsDuring<T>(p: Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let done = false;
  const spin = () => {
    if (done) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const value = await p.finally(() => (done = true));
  return { value, turns };
}

describe.skipIf(process.platform !== 'linux')('the process scan on a /proc of many processes', () => {
  it('finds the processes using the root, and no other', async () => {
    const { root, chunk } = fakeProc();
    const scan = await findProcessesUsing(root);
    expect(scan.inspected).toBe(PROCESSES);
    expect(scan.uninspectable).toBe(0);
    expect([...scan.processes].sort((a, b) => a.pid - b.pid)).toEqual([
      { pid: 4_300_777, command: 'tail', kind: 'cwd', paths: [`${path.dirname(chunk)} (working directory)`] },
      { pid: 4_304_242, command: 'fluent-bit', kind: 'fluent-bit', paths: [chunk] },
    ]);
  });

  it('looks at the given pids alone when told (the guard learning which Fluent Bit to wait for)', async () => {
    const { root, chunk } = fakeProc();
    const scan = await findProcessesUsing(root, [4_304_242, 5_000_002]);
    expect(scan.inspected).toBe(2);
    expect(scan.processes).toEqual([{ pid: 4_304_242, command: 'fluent-bit', kind: 'fluent-bit', paths: [chunk] }]);
  });

  it('finds a chunk only mapped (its line in /proc/<pid>/maps, the device printed as the kernel does: %02x:%02x)', async () => {
    const { root, chunk } = fakeProc();
    const st = statSync(chunk);
    // glibc's dev_t: major in bits 8-19 (and 32+), minor in bits 0-7 and 20-31
    const major = (st.dev >>> 8) & 0xfff;
    const minor = (st.dev & 0xff) | ((st.dev >>> 12) & 0xfff00);
    const hex2 = (n: number) => n.toString(16).padStart(2, '0');
    const maps = [
      `7f0000000000-7f0000001000 r--p 00000000 ${hex2(major + 1)}:${hex2(minor)} ${st.ino} /elsewhere/lib.so`, // same inode, another device
      `7f0000001000-7f0000002000 rw-s 00000000 ${hex2(major)}:${hex2(minor)} ${st.ino}                    ${chunk}`,
      '7f0000002000-7f0000003000 rw-p 00000000 00:00 0 ',
    ].join('\n');
    writeFileSync(path.join(procsTestHooks.proc!, '5000005', 'maps'), maps + '\n');
    unlinkSync(path.join(procsTestHooks.proc!, '5000005', 'fd', '3'));
    const scan = await findProcessesUsing(root, [5_000_005]);
    expect(scan.processes).toEqual([{ pid: 5_000_005, command: 'worker', kind: 'open', paths: [`${chunk} (mapped)`] }]);
  });

  it('takes a file held through an alias of the root in this namespace (a bind mount, here a linked folder) for in the root: device and inode decide, not the path', async () => {
    const { root, chunk } = fakeProc();
    const alias = path.join(path.dirname(procsTestHooks.proc!), 'alias');
    symlinkSync(root, alias);
    const fd = path.join(procsTestHooks.proc!, '5000006', 'fd', '3');
    unlinkSync(fd);
    symlinkSync(path.join(alias, 'stream', '1-1.flb'), fd);
    const scan = await findProcessesUsing(root, [5_000_006]);
    expect(scan.processes).toEqual([{ pid: 5_000_006, command: 'worker', kind: 'open', paths: [chunk] }]);
  });

  it('does not take a file of the same device outside the root for in the root', async () => {
    const { root } = fakeProc();
    const scan = await findProcessesUsing(root, [5_000_007]);
    expect(scan.processes).toEqual([]);
  });

  it(`hands the event loop back at least every ${PROCS_PER_TURN} processes`, async () => {
    const { root } = fakeProc();
    const { value, turns } = await turnsDuring(findProcessesUsing(root));
    expect(value.inspected).toBe(PROCESSES);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(PROCESSES / PROCS_PER_TURN));
  });

  it(`looks for Fluent Bit by name in every process, handing the event loop back every ${PROCS_PER_TURN}`, async () => {
    fakeProc();
    const { value, turns } = await turnsDuring(findFluentBitProcesses());
    expect(value).toEqual([{ pid: 4_304_242, command: 'fluent-bit' }]);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(PROCESSES / PROCS_PER_TURN));
  });
});
