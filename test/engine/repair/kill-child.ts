/**
 * Child process for the kill test: repeatedly repairs `seq_index_0` of a root through the real
 * write path (writeSeqIndex → atomicWriteFile), with small random delays between the phases so a
 * SIGKILL lands anywhere (before the temp write, between fsync and rename, after rename...).
 * Prints `done <value>` (synchronously) after each completed write.
 * Usage: node kill-child.js <root> <firstValue>
 */
import { writeSync } from 'node:fs';
import { writeSeqIndex } from '../../../electron/engine/repair/index-actions/index-file';

const [root, first] = [process.argv[2], Number(process.argv[3])];
const jitter = () => new Promise<void>((r) => (Math.random() < 0.5 ? setImmediate(r) : setTimeout(r, Math.floor(Math.random() * 3))));

async function main(): Promise<void> {
  writeSync(1, 'ready\n');
  for (let v = first; ; v++) {
    await jitter();
    await writeSeqIndex(root, 0, v, { beforeRename: jitter, afterRename: jitter });
    writeSync(1, `done ${v}\n`);
  }
}
void main();
