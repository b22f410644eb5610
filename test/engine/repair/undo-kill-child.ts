/**
 * Child process for the interrupted-undo tests: plans the undo of a store's last action, then
 * applies it through applyPlan (as every door does) and SIGKILLs itself right before its k-th
 * durable file-system step — every unlink, rmdir, rename and fsync (of a file handle or of a held
 * folder descriptor; journal lines, temp files and folders all end with one). k past the last step: the undo completes and `done` is printed.
 * Prints `step <n> <what>` for each step it passes, synchronously, so the parent knows them all.
 * Usage: node undo-kill-child.js <store> <k> [force]
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { planUndo } from '../../../electron/engine/repair/undo/undo';
import { applyPlan } from '../../../electron/engine/repair/apply';

const [store, k, force] = [process.argv[2], Number(process.argv[3]), process.argv[4] === 'force'];
let armed = false;
let n = 0;

function point(what: string): void {
  if (!armed) return;
  if (n === k) {
    fs.writeSync(1, `killed ${n} ${what}\n`);
    process.kill(process.pid, 'SIGKILL');
  }
  fs.writeSync(1, `step ${n++} ${what}\n`);
}

const p = fs.promises as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
for (const name of ['unlink', 'rmdir', 'rename']) {
  const orig = p[name];
  p[name] = (...a: unknown[]) => {
    point(`${name} ${name === 'rename' ? `${String(a[0])} -> ${String(a[1])}` : String(a[0])}`);
    return orig.apply(fs.promises, a);
  };
}

// A folder held by descriptor (repair/write/anchor.ts) is fsynced with fs.fsync(fd): a kill point too.
const rawFs = createRequire(__filename)('node:fs') as { fsync: (fd: number, cb: (e: Error | null) => void) => void };
const fsync = rawFs.fsync;
rawFs.fsync = (fd, cb) => {
  point('fsync');
  fsync(fd, cb);
};

async function main(): Promise<void> {
  const probe = await fs.promises.open('/dev/null', 'r');
  const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
  await probe.close();
  const sync = proto.sync;
  proto.sync = function (this: unknown) {
    point('fsync');
    return sync.call(this);
  };
  const plan = await planUndo(store, { skipProcessCheck: true, force });
  if (plan.refusals.some((r) => !force || !r.forceable)) throw new Error(`refused: ${plan.refusals.map((r) => r.reason).join(' ')}`);
  armed = true;
  const r = await applyPlan(plan, { skipProcessCheck: true, force });
  armed = false;
  fs.writeSync(1, `done ${JSON.stringify({ verified: r.verified })}\n`);
}
main().catch((err) => {
  fs.writeSync(2, `${(err as Error).stack}\n`);
  process.exit(1);
});
