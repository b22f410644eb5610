/**
 * Issue 17, cases 1 and 2: a root process writes into a store while the store's (non-root) owner
 * keeps swapping a folder of it for a symlink to a root-only folder, in a bounded loop, from a
 * second process. Whatever the interleaving, nothing is ever written outside the store: the write
 * fails cleanly or lands in the folder that was checked (anchor.ts). Run as root only (the
 * attacker is `nobody`); `SD_ANCHOR=path` (the unanchored checks) makes these fail.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { planUndo } from '../../../electron/engine/repair/undo/undo';
import { applyPlan } from '../../../electron/engine/repair/apply';
import { durableUnlink } from '../../../electron/engine/repair/write/atomic';
import { durableMove } from '../../../electron/engine/repair/write/move';
import { extractFixture, type Extracted } from './helpers';

const NOBODY = 65534;
const ATTACKER = path.join(__dirname, 'swap-attacker.mjs');
let fx: Extracted | null = null;
let attacker: ChildProcess | null = null;
afterEach(async () => {
  await stopAttacker();
  fx?.cleanup();
  fx = null;
});

function chownTree(p: string): void {
  chownSync(p, NOBODY, NOBODY);
  for (const n of readdirSync(p, { withFileTypes: true })) {
    const c = path.join(p, n.name);
    if (n.isDirectory()) chownTree(c);
    else chownSync(c, NOBODY, NOBODY);
  }
}

/** A store owned by `nobody`, and a root-only folder beside it (the attacker's target). */
function hostileStore(): { root: string; secret: string } {
  fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
  chmodSync(fx.dir, 0o755);
  chownTree(fx.storeDir);
  const secret = path.join(fx.dir, 'root-only');
  mkdirSync(secret, { mode: 0o700 });
  return { root: fx.root, secret };
}

async function startAttacker(dir: string, target: string): Promise<void> {
  // A copy nobody can read wherever the checkout lies (the temp folder is 0755).
  const script = path.join(fx!.dir, 'swap-attacker.mjs');
  copyFileSync(ATTACKER, script);
  chmodSync(script, 0o644);
  attacker = spawn(process.execPath, [script, dir, target, '60000'], { uid: NOBODY, gid: NOBODY, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((res, rej) => {
    attacker!.stdout!.once('data', () => res());
    attacker!.once('exit', (code) => rej(new Error(`attacker exited ${code}`)));
  });
}

async function stopAttacker(): Promise<void> {
  const a = attacker;
  attacker = null;
  if (!a || a.exitCode !== null) return;
  await new Promise<void>((res) => {
    a.once('exit', () => res());
    a.kill('SIGTERM');
  });
}

/** Run `fn`, which may fail cleanly (refused, ELOOP); any other outcome is checked by the caller. */
async function attempt(fn: () => Promise<unknown>): Promise<'ok' | 'failed'> {
  try {
    await fn();
    return 'ok';
  } catch {
    return 'failed';
  }
}

const seqDir = (root: string) => path.join(root, 'sequence', 'index_metadata');

describe.skipIf(process.getuid?.() !== 0)('a folder swapped for a link while root writes (issue 17)', () => {
  it('case 1: undo --apply and repair-index --apply never write into the root-only folder', async () => {
    const outcomes: string[] = [];
    for (let trial = 0; trial < 8; trial++) {
      const { root, secret } = hostileStore();
      // The store owner's own index, which the undo puts back: the attacker's bytes.
      mkdirSync(seqDir(root), { recursive: true, mode: 0o700 });
      writeFileSync(path.join(seqDir(root), 'seq_index_0'), '5');
      chownTree(path.join(root, 'sequence'));
      const plan = await planIndexRepair({ storePath: fx!.storeDir, rootPath: root, outputId: 0, safeNextIndex: 12, skipProcessCheck: true });
      const undo = async () => applyPlan(await planUndo(fx!.storeDir, { skipProcessCheck: true }), { skipProcessCheck: true });
      await startAttacker(seqDir(root), secret);
      outcomes.push(await attempt(() => applyPlan(plan, { skipProcessCheck: true })));
      outcomes.push(await attempt(undo));
      await stopAttacker();
      if (process.env.SD_RACE_LOG) console.log(trial, outcomes.slice(-2), readdirSync(secret));
      expect(readdirSync(secret)).toEqual([]);
      // Whatever was written landed in the folder that was checked.
      if (existsSync(path.join(seqDir(root), 'seq_index_0'))) expect(['5', '12']).toContain(readFileSync(path.join(seqDir(root), 'seq_index_0'), 'latin1'));
      fx!.cleanup();
      fx = null;
    }
    expect(outcomes).toHaveLength(16);
  }, 120_000);

  it("case 2: replay's chunk moves into .store-doctor/replayed/<stream>/ never land in the root-only folder", async () => {
    const { root, secret } = hostileStore();
    const dest = path.join(root, '.store-doctor', 'replayed', 'stream');
    mkdirSync(dest, { recursive: true, mode: 0o700 });
    chownTree(path.join(root, '.store-doctor'));
    const src = path.join(root, 'stream');
    mkdirSync(src, { mode: 0o755 });
    const names = Array.from({ length: 60 }, (_, i) => `chunk-${i}.flb`);
    for (const n of names) writeFileSync(path.join(src, n), n);
    chownTree(src);
    await startAttacker(dest, secret);
    let moved = 0;
    for (const n of names) if ((await attempt(() => durableMove(root, path.join(src, n), path.join(dest, n)))) === 'ok') moved++;
    await stopAttacker();
    expect(readdirSync(secret)).toEqual([]);
    // every chunk is either still in its stream or in a replayed folder the move checked, never lost:
    // a move that held the real folder while the attacker had renamed it aside lands there (the
    // attacker's `.real-folder` name), and one into a folder made while the real one was aside in that
    const aside = `${dest}.real-folder`;
    const movedTo = [...readdirSync(dest), ...(existsSync(aside) ? readdirSync(aside) : [])];
    const here = new Set([...readdirSync(src), ...movedTo]);
    expect(names.filter((n) => !here.has(n))).toEqual([]);
    expect(movedTo.length).toBe(moved);
  }, 120_000);

  it('multipart record removal: a record folder swapped for a link never makes root delete a root-only file', async () => {
    const { root, secret } = hostileStore();
    const records = path.join(root, 'multipart-records');
    mkdirSync(records, { mode: 0o755 });
    const names = Array.from({ length: 60 }, (_, i) => `record-${i}`);
    for (const n of names) {
      writeFileSync(path.join(records, n), 'upload id');
      writeFileSync(path.join(secret, n), 'root only');
    }
    chownTree(records);
    await startAttacker(records, secret);
    for (const n of names) await attempt(() => durableUnlink(root, path.join(records, n)));
    await stopAttacker();
    expect(readdirSync(secret).sort()).toEqual([...names].sort());
  }, 120_000);
});
