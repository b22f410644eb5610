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
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkWriteAllowed, findProcessesUsing } from '../../../electron/engine/repair/guard';
import { applyIndexPlan, planIndexRepair } from '../../../electron/engine/repair/index-repair';
import { generateStore, jsonLines } from '../../fixtures/store-gen';
import { tempDir } from './helpers';

const PY = '/usr/bin/python3';
/** A real Fluent Bit (the shared build, see /work/shared/fluent-bit/README.md). */
const FLUENT_BIT = process.env.STORE_DOCTOR_FLUENT_BIT ?? '/work/shared/fluent-bit/5.0.9/bin/fluent-bit';
let canBind = false;
beforeAll(() => {
  canBind = process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'sh', '-c', 'mount --bind / /mnt && umount /mnt'], { stdio: 'ignore' }).status === 0;
});

/** Holds `file` (opened, or mapped with the descriptor closed) under the name `comm`, until killed. */
const HOLDER = `
import mmap, sys, time
open('/proc/self/comm', 'w').write(sys.argv[1])
f = open(sys.argv[2], 'r+b')
if sys.argv[3] == 'mmap':
    m = mmap.mmap(f.fileno(), 0)
    f.close()
print('ready', flush=True)
time.sleep(120)
`;

const kids: ChildProcess[] = [];
let t: ReturnType<typeof tempDir> | null = null;
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
  t = tempDir('sd-guard-');
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

  it('another process with a chunk open through the alias is refused', async (ctx) => {
    if (!canBind) ctx.skip();
    const w = await world();
    const k = await inNamespace(w, [PY, '-c', HOLDER, 'reader', path.join(w.alias, w.chunkRel), 'open']);
    const g = await checkWriteAllowed(w.root);
    const r = g.refusals.find((x) => x.reason.includes(`${k.pid}`));
    expect(r?.reason).toMatch(/reader.*open/);
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
    t = tempDir('sd-guard-fb-');
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
