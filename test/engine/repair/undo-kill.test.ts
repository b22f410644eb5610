/**
 * Issue 9 item 8: an undo killed (SIGKILL) at any point must be re-runnable without force, and the
 * re-run must leave the store exactly as it was before the action — its own partial changes are
 * recognised as its own, never blamed on "something else". A child applies the undo and kills
 * itself right before its k-th durable step (undo-kill-child.ts), for every k the undo has.
 *
 * The undo of repair-index on the index-reset store (it created sequence/, index_metadata/ and
 * seq_index_0) has these ten points: the lock file's temp removed, `undo-started` fsynced, the index
 * unlinked, its folder fsynced, index_metadata/ removed, sequence/ fsynced, sequence/ removed, the
 * root fsynced, `undone` fsynced, the lock released. The undo of a repair over an existing index
 * restores bytes instead: temp fsynced, renamed, folder fsynced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { planUndo } from '../../../electron/engine/repair/undo/undo';
import { applyPlan } from '../../../electron/engine/repair/apply';
import { extractFixture, tempDir } from './helpers';

const work = tempDir('sd-undo-kill-');
let child = '';
beforeAll(() => {
  child = path.join(work.dir, 'undo-kill-child.js');
  const esbuild = path.resolve(__dirname, '../../../node_modules/.bin/esbuild');
  execFileSync(esbuild, [
    path.join(__dirname, 'undo-kill-child.ts'),
    '--bundle',
    '--platform=node',
    '--format=cjs',
    `--outfile=${child}`,
    '--log-level=warning',
  ]);
});
afterAll(() => work.cleanup());

/** Content, type, mode and owner of everything in the root except the tool's own folder. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (!rel && name === '.store-doctor') continue;
      const p = path.join(dir, name);
      const st = lstatSync(p);
      const r = rel ? `${rel}/${name}` : name;
      out[r] = `${st.isDirectory() ? 'dir' : createHash('sha256').update(readFileSync(p)).digest('hex')} ${(st.mode & 0o7777).toString(8)} ${st.uid}:${st.gid}`;
      if (st.isDirectory()) walk(p, r);
    }
  };
  walk(root, '');
  return out;
}

function runChild(store: string, k: number, force: boolean): Promise<{ out: string; killed: boolean; done: boolean }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, store, String(k), ...(force ? ['force'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += String(d)));
    p.stderr.on('data', (d: Buffer) => (out += String(d)));
    p.on('error', reject);
    p.on('close', (_code, signal) => resolve({ out, killed: signal === 'SIGKILL', done: /^done /m.test(out) }));
  });
}

interface Trial {
  /** Before the repair (what the undo must restore). */
  prepare?: (root: string) => void;
  /** After the repair, before the undo (e.g. another writer). */
  meanwhile?: (root: string) => void;
  /** The killed undo was forced (past a file that changed). */
  force?: boolean;
}

async function trials({ prepare, meanwhile, force = false }: Trial, value = 12): Promise<{ points: string[] }> {
  let points: string[] = [];
  for (let k = 0; k < 40; k++) {
    const fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    try {
      prepare?.(fx.root);
      const before = snapshot(fx.root);
      const repair = await planIndexRepair({ storePath: fx.storeDir, rootPath: fx.root, outputId: 0, safeNextIndex: value, skipProcessCheck: true });
      expect((await applyPlan(repair, { skipProcessCheck: true })).verified).toBe(true);
      meanwhile?.(fx.root);
      const r = await runChild(fx.storeDir, k, force);
      if (r.done) {
        expect(r.out).toMatch(/"verified":true/);
        expect(snapshot(fx.root)).toEqual(before);
        points = [...r.out.matchAll(/^step \d+ (.*)$/gm)].map((m) => m[1]);
        expect(points.length, 'a kill point for every durable step').toBe(k);
        return { points };
      }
      expect(r.killed, r.out).toBe(true);
      const where = /^killed \d+ (.*)$/m.exec(r.out)?.[1] ?? '?';
      // the next undo, without force, completes the interrupted one
      // A forced undo killed before it recorded `undo-started` changed nothing: the other writer's
      // change still stands against it, and only force gets past it again. Once started, never.
      const started = readFileSync(path.join(fx.root, '.store-doctor', 'journal.jsonl'), 'utf8').includes('"undo-started"');
      const again = await planUndo(fx.storeDir, { skipProcessCheck: true });
      const refusals = again.refusals.map((x) => x.reason);
      if (force && !started) expect(refusals, `killed before ${where}`).toEqual([expect.stringMatching(/seq_index_0 changed after the action/)]);
      else expect(refusals, `killed before ${where}`).toEqual([]);
      if (again.details) {
        const res = await applyPlan(again, { skipProcessCheck: true, force: force && !started });
        expect(res.verified, `killed before ${where}: ${JSON.stringify(res.steps)}`).toBe(true);
      } else expect(again.summary, `killed before ${where}`).toMatch(/Nothing to undo/); // killed after `undone` was written
      expect(snapshot(fx.root), `killed before ${where}`).toEqual(before);
      expect((await planUndo(fx.storeDir, { skipProcessCheck: true })).summary).toMatch(/Nothing to undo/);
    } finally {
      fx.cleanup();
    }
  }
  throw new Error('the undo never completed');
}

function existingIndex(root: string): void {
  mkdirSync(path.join(root, 'sequence', 'index_metadata'), { recursive: true });
  writeFileSync(path.join(root, 'sequence', 'index_metadata', 'seq_index_0'), '5', { mode: 0o644 });
}

describe('an undo killed at any point is completed by the next undo, without force', () => {
  it('undo of a repair that created sequence/, index_metadata/ and seq_index_0: every kill point', async () => {
    const { points } = await trials({});
    expect(points.length).toBeGreaterThanOrEqual(9);
    expect(points.filter((p) => /^unlink .*seq_index_0$/.test(p))).toHaveLength(1);
    expect(points.filter((p) => p.startsWith('rmdir '))).toHaveLength(2);
  }, 180_000);

  it('undo of a repair over an existing index (bytes restored): every kill point', async () => {
    const { points } = await trials({ prepare: existingIndex });
    expect(points.some((p) => /^rename .* -> .*seq_index_0$/.test(p))).toBe(true);
  }, 180_000);

  it('a forced undo (the index changed after the repair) killed at any point is completed by an undo without force', async () => {
    const { points } = await trials({
      prepare: existingIndex,
      meanwhile: (root) => writeFileSync(path.join(root, 'sequence', 'index_metadata', 'seq_index_0'), '13'),
      force: true,
    });
    expect(points.some((p) => /^rename .* -> .*seq_index_0$/.test(p))).toBe(true);
  }, 180_000);
});
