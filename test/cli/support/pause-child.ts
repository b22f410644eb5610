/**
 * A CLI run that pauses right before it renames a new seq_index file into place — after its plan
 * was checked, in the middle of its write — until `<gate>.go` exists. Writes `<gate>.paused`
 * (holding its pid) when it pauses. The second writer of the write-lock test runs meanwhile.
 * Usage: tsx pause-child.ts <gate> <store-doctor arguments…>
 */
import * as fs from 'node:fs';
import { runCli } from '../../../electron/cli/main';

const [gate, ...argv] = process.argv.slice(2);
const rename = fs.promises.rename;
let paused = false;
fs.promises.rename = (async (from: fs.PathLike, to: fs.PathLike) => {
  if (!paused && /seq_index_\d+$/.test(String(to))) {
    paused = true;
    fs.writeFileSync(`${gate}.paused`, String(process.pid));
    while (!fs.existsSync(`${gate}.go`)) await new Promise((r) => setTimeout(r, 20));
  }
  return rename(from, to);
}) as typeof fs.promises.rename;

runCli(argv).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  },
);
