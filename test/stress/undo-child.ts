/**
 * Child process for the undo kill trials: on one root, over and over, repairs `seq_index_0` to the
 * next value and undoes it again — both through applyPlan, as every door applies a plan (write
 * lock, journal, backup) — with small random delays, so a SIGKILL lands anywhere in either.
 * Prints `ready` once, then `repaired <v>` / `undone <v>` (synchronously) after each.
 * Usage: node undo-child.js <store> <root> <firstValue>
 */
import { writeSync } from 'node:fs';
import { planIndexRepair } from '../../electron/engine/repair/index-actions/index-repair';
import { planUndo } from '../../electron/engine/repair/undo/undo';
import { applyPlan } from '../../electron/engine/repair/apply';

const [store, root, first] = [process.argv[2], process.argv[3], Number(process.argv[4])];
const jitter = () => new Promise<void>((r) => (Math.random() < 0.5 ? setImmediate(r) : setTimeout(r, Math.floor(Math.random() * 3))));

async function main(): Promise<void> {
  writeSync(1, 'ready\n');
  for (let v = first; ; v++) {
    const plan = await planIndexRepair({ storePath: store, rootPath: root, outputId: 0, safeNextIndex: v, skipProcessCheck: true });
    await jitter();
    await applyPlan(plan, { skipProcessCheck: true });
    writeSync(1, `repaired ${v}\n`);
    await jitter();
    const undo = await planUndo(store, { skipProcessCheck: true });
    if (undo.refusals.length) throw new Error(`undo refused: ${undo.refusals.map((r) => r.reason).join(' ')}`);
    await applyPlan(undo, { skipProcessCheck: true });
    writeSync(1, `undone ${v}\n`);
  }
}
main().catch((err) => {
  writeSync(2, `${(err as Error).stack}\n`);
  process.exit(1);
});
