/**
 * Child process for the write-lock race test: waits until every racer has seen the (stale) lock,
 * then — staggered by its rank — tries to take it over. Prints `WON` or `REFUSED <message>` and,
 * when it won, holds the lock until its stdin closes.
 * Usage: node lock-child.js <root> <barrierDir> <racers> <rank>
 */
import { existsSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { takeWriteLock } from '../../../electron/engine/repair/preconditions/write-lock';
import { RefusedError } from '../../../electron/engine/repair/outcome/errors';

const [root, barrier, racers, rank] = [process.argv[2], process.argv[3], Number(process.argv[4]), Number(process.argv[5])];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  while (!existsSync(path.join(barrier, 'go'))) await sleep(5);
  try {
    const release = await takeWriteLock(root, {
      staleSeen: async () => {
        writeFileSync(path.join(barrier, `seen-${rank}`), '');
        while (readdirSync(barrier).filter((n) => n.startsWith('seen-')).length < racers) await sleep(5);
        await sleep(rank * 150);
      },
    });
    writeSync(1, 'WON\n');
    process.stdin.resume();
    process.stdin.on('end', () => void release().then(() => process.exit(0)));
  } catch (err) {
    writeSync(1, `${err instanceof RefusedError ? 'REFUSED' : 'ERROR'} ${(err as Error).message}\n`);
    process.exit(0);
  }
}
void main();
