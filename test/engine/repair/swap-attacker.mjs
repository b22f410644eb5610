// The attacker of anchor-race.test.ts: run as the (non-root) store owner, it keeps swapping the
// folder `dir` for a symlink to `target` (and back) until SIGTERM or `maxMs`. Bounded: it stops
// by itself after `maxMs`, and always leaves the real folder back in place.
import * as fs from 'node:fs';

const [dir, target, maxMs] = process.argv.slice(2);
const real = `${dir}.real-folder`;
const end = Date.now() + Number(maxMs);
let stop = false;
let swaps = 0;
process.on('SIGTERM', () => (stop = true));

function restore() {
  try {
    if (fs.lstatSync(dir).isSymbolicLink()) fs.unlinkSync(dir);
  } catch {
    // lost a race with the writer: try again
  }
  try {
    fs.renameSync(real, dir);
  } catch {
    // lost a race with the writer: try again
  }
}

/** Busy-wait up to `us` microseconds: the link (or the folder) stays in place a random while. */
function hold(us) {
  const until = process.hrtime.bigint() + BigInt(Math.floor(Math.random() * us * 1000));
  while (process.hrtime.bigint() < until);
}

function burst() {
  for (let i = 0; i < 50; i++) {
    try {
      fs.renameSync(dir, real);
      fs.symlinkSync(target, dir);
      swaps++;
      hold(400);
    } catch {
      // lost a race with the writer: try again
    }
    restore();
    hold(200);
  }
  if (stop || Date.now() > end) {
    restore();
    process.stdout.write(`swaps ${swaps}\n`);
    process.exit(0);
  }
  setImmediate(burst);
}
process.stdout.write('ready\n');
burst();
