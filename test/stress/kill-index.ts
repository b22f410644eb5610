/**
 * Kill trials for the atomic index write: a child repairs `seq_index_0` over and over and is
 * SIGKILLed at a random moment; afterwards the file must hold exactly the last value the child
 * reported done, or the one after it — never empty, torn, or anything else. Shared by the CI
 * test (50 trials) and `npm run stress` (1,000).
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync, readdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface KillTrialsResult {
  trials: number;
  failures: string[];
  /** How often the file held the newer value (the kill landed after the rename). */
  newer: number;
  leftoverTemps: number;
}

/** Bundle the child once with esbuild (node starts in ~50 ms instead of ~250 ms with tsx). */
export function buildKillChild(outDir: string): string {
  const entry = path.resolve(__dirname, '../engine/repair/kill-child.ts');
  const out = path.join(outDir, 'kill-child.js');
  const esbuild = path.resolve(__dirname, '../../node_modules/.bin/esbuild');
  execFileSync(esbuild, [entry, '--bundle', '--platform=node', '--format=cjs', `--outfile=${out}`, '--log-level=warning']);
  return out;
}

function runOne(child: string, root: string, first: number, killAfterMs: number): Promise<{ lastDone: number | null }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, root, String(first)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let timer: NodeJS.Timeout | null = null;
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!timer && out.includes('ready\n')) timer = setTimeout(() => p.kill('SIGKILL'), killAfterMs);
    });
    p.on('error', reject);
    p.on('close', () => {
      if (timer) clearTimeout(timer);
      const done = [...out.matchAll(/^done (\d+)$/gm)].map((m) => Number(m[1]));
      resolve({ lastDone: done.length ? done[done.length - 1] : null });
    });
  });
}

export async function runKillTrials(trials: number, opts: { maxKillMs?: number; log?: (s: string) => void } = {}): Promise<KillTrialsResult> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'sd-kill-'));
  const res: KillTrialsResult = { trials, failures: [], newer: 0, leftoverTemps: 0 };
  try {
    const child = buildKillChild(work);
    const root = path.join(work, 'bucket');
    mkdirSync(path.join(root, 'sequence', 'index_metadata'), { recursive: true });
    const file = path.join(root, 'sequence', 'index_metadata', 'seq_index_0');
    let value = 100;
    writeFileSync(file, String(value));
    for (let i = 0; i < trials; i++) {
      const killAfter = Math.floor(Math.random() * (opts.maxKillMs ?? 40));
      const { lastDone } = await runOne(child, root, value + 1, killAfter);
      const expectedOld = lastDone ?? value;
      const text = existsSync(file) ? readFileSync(file, 'latin1') : '<missing>';
      if (!/^\d+$/.test(text) || (Number(text) !== expectedOld && Number(text) !== expectedOld + 1)) {
        res.failures.push(`trial ${i}: file holds ${JSON.stringify(text)}, expected ${expectedOld} or ${expectedOld + 1}`);
      } else if (Number(text) === expectedOld + 1) res.newer++;
      value = /^\d+$/.test(text) ? Number(text) : value;
      res.leftoverTemps = readdirSync(path.dirname(file)).filter((n) => n.startsWith('.')).length;
      if (opts.log && (i + 1) % 100 === 0) opts.log(`kill-index: ${i + 1}/${trials} trials, ${res.failures.length} failures`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return res;
}
