/**
 * Kill trials for undo: a child repairs `seq_index_0` and undoes it, over and over, and is
 * SIGKILLed at a random moment — in the repair, in the undo, while it holds the write lock. Then
 * `undo` is run (in this process, through applyPlan, never forced) until nothing is left to undo:
 * it must never be refused, and the root must end exactly as it began (the index's bytes, mode
 * and owner; sequence/ and index_metadata/ present or absent as before; no temp file left), and
 * a lock the child held is taken over by the next writer. Half
 * the trials start with an index file, half without sequence/ at all (the undo removes folders).
 * Shared by the CI test (a few dozen trials) and `npm run stress` (STRESS_UNDO_TRIALS, 300).
 */
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { planUndo } from '../../electron/engine/repair/undo/undo';
import { applyPlan } from '../../electron/engine/repair/apply';
import { takeWriteLock } from '../../electron/engine/repair/preconditions/write-lock';

export interface UndoKillResult {
  trials: number;
  failures: string[];
  /** Trials killed while an undo was running (after `repaired`, before `undone`). */
  inUndo: number;
  /** Undo runs the recovery needed in all (each completes one interrupted or applied action). */
  recoveries: number;
}

function build(outDir: string): string {
  const out = path.join(outDir, 'undo-child.js');
  const esbuild = path.resolve(__dirname, '../../node_modules/.bin/esbuild');
  execFileSync(esbuild, [path.resolve(__dirname, 'undo-child.ts'), '--bundle', '--platform=node', '--format=cjs', `--outfile=${out}`, '--log-level=warning']);
  return out;
}

/** Everything in the root but the tool's own folder: type, bytes, mode, owner. */
function state(root: string): string {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (!rel && name === '.store-doctor') continue;
      const p = path.join(dir, name);
      const st = lstatSync(p);
      const body = st.isDirectory() ? 'dir' : createHash('sha256').update(readFileSync(p)).digest('hex').slice(0, 16);
      out.push(`${rel}${name} ${body} ${(st.mode & 0o7777).toString(8)} ${st.uid}:${st.gid}`);
      if (st.isDirectory()) walk(p, `${rel}${name}/`);
    }
  };
  walk(root, '');
  return out.join('\n');
}

function runOne(child: string, store: string, root: string, first: number, killAfterMs: number): Promise<{ out: string; error: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, store, root, String(first)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let error = '';
    let timer: NodeJS.Timeout | null = null;
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!timer && out.includes('ready\n')) timer = setTimeout(() => p.kill('SIGKILL'), killAfterMs);
    });
    p.stderr.on('data', (d: Buffer) => (error += d.toString()));
    p.on('error', reject);
    p.on('close', () => {
      if (timer) clearTimeout(timer);
      resolve({ out, error });
    });
  });
}

export async function runUndoKillTrials(trials: number, opts: { maxKillMs?: number; log?: (s: string) => void } = {}): Promise<UndoKillResult> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'sd-kill-undo-'));
  const res: UndoKillResult = { trials, failures: [], inUndo: 0, recoveries: 0 };
  try {
    const child = build(work);
    const stores = [0, 1].map((n) => {
      const store = path.join(work, `store-${n}`);
      const root = path.join(store, 'bucket');
      mkdirSync(path.join(root, '2026-01-01T00:00:00'), { recursive: true });
      if (n === 0) {
        mkdirSync(path.join(root, 'sequence', 'index_metadata'), { recursive: true });
        writeFileSync(path.join(root, 'sequence', 'index_metadata', 'seq_index_0'), '100', { mode: 0o644 });
      }
      return { store, root, initial: state(root) };
    });
    let value = 101;
    for (let i = 0; i < trials; i++) {
      const s = stores[i % 2];
      const { out, error } = await runOne(child, s.store, s.root, value, Math.floor(Math.random() * (opts.maxKillMs ?? 150)));
      const said = [...out.matchAll(/^(repaired|undone) (\d+)$/gm)];
      value += said.length + 1;
      if (error.trim()) res.failures.push(`trial ${i}: the child failed: ${error.trim().split('\n')[0]}`);
      if (said.at(-1)?.[1] === 'repaired') res.inUndo++;
      try {
        for (let n = 0; ; n++) {
          if (n > 5) throw new Error('undo never reached "Nothing to undo"');
          const plan = await planUndo(s.store, { skipProcessCheck: true });
          if (!plan.details) break;
          if (plan.refusals.length) throw new Error(`undo refused: ${plan.refusals.map((r) => r.reason).join(' ')}`);
          const r = await applyPlan(plan, { skipProcessCheck: true });
          if (!r.verified) throw new Error(`undo not verified: ${JSON.stringify(r.steps)}`);
          res.recoveries++;
        }
        const now = state(s.root);
        if (now !== s.initial) throw new Error(`the root is not as it began:\n${now}\n--- expected ---\n${s.initial}`);
        // A lock the killed child held is stale: the next writer takes it over.
        await (
          await takeWriteLock(s.root, { action: 'stress check' })
        )();
      } catch (err) {
        res.failures.push(`trial ${i} (after ${said.at(-1)?.[0] ?? 'nothing'}): ${(err as Error).message}`);
      }
      if (opts.log && (i + 1) % 100 === 0) opts.log(`kill-undo: ${i + 1}/${trials} trials, ${res.failures.length} failures`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return res;
}
