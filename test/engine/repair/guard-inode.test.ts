/**
 * Issue 9 item 6: "is Fluent Bit running?" must not compare path strings. A Fluent Bit in a
 * container reaches the store through a bind mount in its own mount namespace: its
 * /proc/<pid>/fd links and maps name paths that mean nothing here. The check compares device
 * and inode numbers instead, and reports separately: a Fluent Bit process (refuse), another
 * process with a chunk open or mapped (refuse), a process whose working directory is in the
 * root (a shell, grep, tee: a warning only). Forcing names the check it overrides.
 *
 * The bind mount is made in a private mount namespace (`unshare -m`, root only): it exists only
 * for the child, as in a container, and disappears with it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkWriteAllowed, findProcessesUsing } from '../../../electron/engine/repair/preconditions/write-check';
import { applyIndexPlan, planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { generateStore, jsonLines } from '../../fixtures/store-gen';
import { tempDir } from './helpers';

const PY = '/usr/bin/python3';
/** A real Fluent Bit (the shared build, see /work/shared/fluent-bit/README.md). */
const FLUENT_BIT = process.env.STORE_DOCTOR_FLUENT_BIT ?? '/work/shared/fluent-bit/5.0.9/bin/fluent-bit';
let canBind = false;
/**
 * As root, every store of this file lives on its own small tmpfs: the processes the tests start
 * then hold files on a device no other test's store is on, so a check other tests run at the
 * same time never meets them.
 */
let device: { dir: string; cleanup(): void } | null = null;
beforeAll(() => {
  canBind = process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'sh', '-c', 'mount --bind / /mnt && umount /mnt'], { stdio: 'ignore' }).status === 0;
  if (!canBind) return;
  const d = tempDir('sd-guard-dev-');
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=32m,mode=0700', 'sd-guard', d.dir], { stdio: 'ignore' }).status !== 0) return d.cleanup();
  device = {
    dir: d.dir,
    cleanup: () => {
      spawnSync('umount', ['-l', d.dir], { stdio: 'ignore' });
      d.cleanup();
    },
  };
});
afterAll(() => device?.cleanup());

/** A fresh folder for one test: on the test device when there is one. */
function scratch(prefix: string): { dir: string; cleanup(): void } {
  if (!device) return tempDir(prefix);
  const dir = mkdtempSync(path.join(device.dir, prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Holds `file` (opened, or mapped with the descriptor closed) under the name `comm`, until killed. */
const HOLDER = `
import mmap, subprocess, sys, time
open('/proc/self/comm', 'w').write(sys.argv[1])
f = open(sys.argv[2], 'r+b')
if sys.argv[3] == 'mmap':
    m = mmap.mmap(f.fileno(), 0)
    f.close()
if sys.argv[3] == 'cover':
    subprocess.run(['mount', '-t', 'tmpfs', 'none', sys.argv[4]], check=True)
print('ready', flush=True)
time.sleep(120)
`;

const kids: ChildProcess[] = [];
let t: { dir: string; cleanup(): void } | null = null;
afterEach(async () => {
  for (const k of kids.splice(0)) {
    k.kill('SIGKILL');
    if (k.exitCode === null && k.signalCode === null) await new Promise((r) => k.on('exit', r));
  }
  t?.cleanup();
  t = null;
});

interface World {
  root: string;
  store: string;
  /** An empty folder: the bind mount point (only the child's namespace mounts the root there). */
  alias: string;
  chunkRel: string;
}

async function world(): Promise<World> {
  t = scratch('sd-guard-');
  const g = await generateStore(path.join(t.dir, 'store'), {
    roots: [
      { bucket: 'b', streams: [{ name: '2026-01-01T00:00:00', chunks: [{ name: '1-1.flb', meta: 'app', content: jsonLines(3) }] }], seqIndex: { '0': '7' } },
    ],
  });
  const alias = path.join(t.dir, 'alias');
  mkdirSync(alias);
  return { root: g.roots.b, store: g.storeDir, alias, chunkRel: '2026-01-01T00:00:00/1-1.flb' };
}

/** Start `argv` in its own mount namespace where the root is also mounted at `alias`; resolves once it prints `ready`. */
function inNamespace(w: World, argv: string[]): Promise<ChildProcess> {
  const script = `mount --bind "$1" "$2" && shift 2 && exec "$@"`;
  const k = spawn('unshare', ['-m', 'sh', '-c', script, 'sh', w.root, w.alias, ...argv], { stdio: ['pipe', 'pipe', 'pipe'] });
  kids.push(k);
  return ready(k);
}

function ready(k: ChildProcess): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    let out = '';
    k.stdout!.on('data', (d: Buffer) => {
      out += String(d);
      if (out.includes('ready')) resolve(k);
    });
    k.stderr!.on('data', (d: Buffer) => (out += String(d)));
    k.on('exit', (c) => reject(new Error(`child exited (${c}) before it was ready: ${out}`)));
  });
}

describe('processes using the store are found by device and inode (through a bind mount in another mount namespace)', () => {
  it('a Fluent Bit holding a chunk open through its own mount of the store is refused (named as Fluent Bit)', async (ctx) => {
    if (!canBind) ctx.skip();
    const w = await world();
    const k = await inNamespace(w, [PY, '-c', HOLDER, 'fluent-bit', path.join(w.alias, w.chunkRel), 'open']);
    // seen from here, its descriptor names the alias, not the root: a path compare cannot see it
    const links = readdirSync(`/proc/${k.pid}/fd`).map((fd) => readlinkSync(`/proc/${k.pid}/fd/${fd}`));
    expect(links).toContain(path.join(w.alias, w.chunkRel));
    expect(links.some((l) => l.startsWith(w.root))).toBe(false);
    const use = await findProcessesUsing(w.root);
    expect(use.processes.find((p) => p.pid === k.pid)).toMatchObject({ pid: k.pid, command: 'fluent-bit', kind: 'fluent-bit' });
    const g = await checkWriteAllowed(w.root);
    const r = g.refusals.find((x) => x.reason.includes(`${k.pid}`));
    expect(r?.reason).toMatch(/Fluent Bit/);
    expect(r?.forceable).toBe(true);
  });

  it('another process with a chunk open through the alias is refused — found without walking the store', async (ctx) => {
    if (!canBind) ctx.skip();
    const w = await world();
    const k = await inNamespace(w, [PY, '-c', HOLDER, 'reader', path.join(w.alias, w.chunkRel), 'open']);
    const readdir = vi.spyOn(fs.promises, 'readdir');
    let g: Awaited<ReturnType<typeof checkWriteAllowed>>;
    try {
      g = await checkWriteAllowed(w.root);
      // the alias is resolved through /proc/<pid>/root up to the root folder: no walk of the store
      expect(readdir.mock.calls.map((c) => String(c[0])).filter((p) => p.startsWith(w.root))).toEqual([]);
    } finally {
      readdir.mockRestore();
    }
    const r = g.refusals.find((x) => x.reason.includes(`${k.pid}`));
    expect(r?.reason).toMatch(/reader.*open/);
    expect(r?.reason).toContain(path.join(w.root, w.chunkRel));
  });

  it('a chunk whose path no longer resolves anywhere (its folder covered by another mount) is found by its inode', async (ctx) => {
    if (!canBind) ctx.skip();
    const w = await world();
    const k = await inNamespace(w, [PY, '-c', HOLDER, 'covered', path.join(w.alias, w.chunkRel), 'cover', w.alias]);
    const g = await checkWriteAllowed(w.root);
    const r = g.refusals.find((x) => x.reason.includes(`${k.pid}`));
    expect(r?.reason).toMatch(/covered.*open/);
    expect(r?.reason).toContain(path.join(w.root, w.chunkRel));
  });

  it('a chunk mapped through the alias (descriptor closed, only in /proc/<pid>/maps) is refused', async (ctx) => {
    if (!canBind) ctx.skip();
    const w = await world();
    const k = await inNamespace(w, [PY, '-c', HOLDER, 'mapper', path.join(w.alias, w.chunkRel), 'mmap']);
    const g = await checkWriteAllowed(w.root);
    const r = g.refusals.find((x) => x.reason.includes(`${k.pid}`));
    expect(r?.reason).toMatch(/mapper.*mapped/);
  });

  it('a shell whose working directory is in the root (through the alias) is a warning only', async (ctx) => {
    if (!canBind) ctx.skip();
    const w = await world();
    const k = spawn('unshare', ['-m', 'sh', '-c', `mount --bind "$1" "$2" && cd "$2/2026-01-01T00:00:00" && echo ready && read x`, 'sh', w.root, w.alias], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    kids.push(k);
    await ready(k);
    const g = await checkWriteAllowed(w.root);
    expect(g.refusals.filter((x) => x.reason.includes(`${k.pid}`))).toEqual([]);
    expect(g.warnings.join('\n')).toMatch(new RegExp(`${k.pid}.*working directory`));
  });
});

describe('a real Fluent Bit in its own mount namespace, buffering into the store through a bind mount', () => {
  it('is found by the inode of the chunk it holds open and mapped, and the repair is refused', async (ctx) => {
    if (!canBind || !existsSync(FLUENT_BIT)) ctx.skip();
    t = scratch('sd-guard-fb-');
    const store = path.join(t.dir, 'store');
    const alias = path.join(t.dir, 'alias');
    mkdirSync(store);
    mkdirSync(alias);
    const conf = path.join(t.dir, 'fluent-bit.conf');
    writeFileSync(
      conf,
      [
        '[SERVICE]',
        '    Flush 1',
        '    Log_Level error',
        '[INPUT]',
        '    Name dummy',
        '    Tag app',
        '    Rate 20',
        '[OUTPUT]',
        '    Name s3',
        '    Match *',
        '    bucket fb-guard',
        '    region us-east-1',
        '    endpoint http://127.0.0.1:9', // nothing listens: every chunk stays buffered
        `    store_dir ${alias}`,
        '    total_file_size 10M',
        '    upload_timeout 10m',
        '    s3_key_format /$TAG/$INDEX',
        '    use_put_object On',
        '',
      ].join('\n'),
    );
    const k = spawn('unshare', ['-m', 'sh', '-c', 'mount --bind "$1" "$2" && exec "$3" -c "$4"', 'sh', store, alias, FLUENT_BIT, conf], {
      stdio: 'ignore',
      env: { ...process.env, AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'y' },
    });
    kids.push(k);
    const root = path.join(store, 'fb-guard');
    let chunk: string | null = null;
    for (let i = 0; i < 100 && !chunk; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const streams = existsSync(root) ? readdirSync(root).filter((n) => /^\d{4}-/.test(n)) : [];
      const files = streams.flatMap((st) => readdirSync(path.join(root, st)).map((n) => path.join(root, st, n)));
      chunk = files[0] ?? null;
    }
    expect(chunk, 'Fluent Bit wrote a chunk').not.toBeNull();
    const use = await findProcessesUsing(root);
    const fb = use.processes.find((p) => p.pid === k.pid);
    expect(fb).toMatchObject({ command: 'fluent-bit', kind: 'fluent-bit' });
    expect(fb!.paths.join(' ')).toContain(chunk!);
    const plan = await planIndexRepair({ storePath: store, rootPath: root, outputId: 0, safeNextIndex: 50 });
    expect(plan.refusals.some((r) => r.forceable && r.reason.startsWith(`Process ${k.pid} (fluent-bit) is Fluent Bit`))).toBe(true);
    await expect(applyIndexPlan(plan)).rejects.toThrow(/is Fluent Bit/);
  }, 30_000);
});

describe('what the check reports, and what the repair then does', () => {
  it("an operator's shell in the root does not stop the repair: it applies, with a warning naming it", async () => {
    const w = await world();
    const k = spawn('sh', ['-c', 'echo ready && read x'], { cwd: path.join(w.root, '2026-01-01T00:00:00'), stdio: ['pipe', 'pipe', 'pipe'] });
    kids.push(k);
    await ready(k);
    const plan = await planIndexRepair({ storePath: w.store, rootPath: w.root, outputId: 0, safeNextIndex: 20 });
    expect(plan.refusals).toEqual([]);
    expect(plan.warnings.join('\n')).toMatch(new RegExp(`${k.pid} \\(sh\\).*working directory`));
    const r = await applyIndexPlan(plan);
    expect(r.verified).toBe(true);
    expect(readFileSync(path.join(w.root, 'sequence', 'index_metadata', 'seq_index_0'), 'latin1')).toBe('20');
  });

  it('a process holding a chunk open refuses the repair; forcing it names that check in the warning', async () => {
    const w = await world();
    const k = spawn(PY, ['-c', HOLDER, 'holder', path.join(w.root, w.chunkRel), 'open'], { stdio: ['pipe', 'pipe', 'pipe'] });
    kids.push(k);
    await ready(k);
    const plan = await planIndexRepair({ storePath: w.store, rootPath: w.root, outputId: 0, safeNextIndex: 20 });
    expect(plan.refusals.map((r) => r.reason).join('\n')).toMatch(new RegExp(`${k.pid} \\(holder\\).*open`));
    await expect(applyIndexPlan(plan)).rejects.toThrow(/holder/);
    const forced = await planIndexRepair({ storePath: w.store, rootPath: w.root, outputId: 0, safeNextIndex: 20, force: true });
    expect(forced.warnings[0]).toMatch(/^Forced: overriding this check: \(1\) Process \d+ \(holder\)/);
    expect((await applyIndexPlan(forced, { force: true })).verified).toBe(true);
    writeFileSync(path.join(w.root, 'x'), ''); // the store stays usable
  });
});
