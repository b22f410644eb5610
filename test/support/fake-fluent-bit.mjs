// A stand-in for Fluent Bit's index handling, for unit tests of the guard (the real one runs in
// test/fluent-bit/). Like out_s3: at start it reads seq_index_<id> ("Continuing at index"), keeps a
// chunk file open in its active stream, before each "upload" rewrites the file in place
// (fopen "w+": same inode, truncated, then written); on SIGTERM it runs an exit flush of
// `flush` more uploads, then deletes every stream folder without a chunk — sequence/ included —
// within a millisecond of the last write, and exits 0.
//   node fake-fluent-bit.mjs <root> <id> <uploadEveryMs> <flush>
import * as fs from 'node:fs';
import * as path from 'node:path';

const [root, idText, everyText, flushText] = process.argv.slice(2);
const id = Number(idText);
const dir = path.join(root, 'sequence', 'index_metadata');
const file = path.join(dir, `seq_index_${id}`);
fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
let next = 0;
try {
  next = Number.parseInt(fs.readFileSync(file, 'latin1'), 10) || 0;
  console.log(`Continuing at index=${next}`);
} catch {
  console.log('no index file: starting at 0');
}
const stream = path.join(root, `fake-${process.pid}`);
fs.mkdirSync(stream, { recursive: true });
const chunk = fs.openSync(path.join(stream, 'chunk'), 'w');
function upload() {
  const used = next++;
  const fd = fs.openSync(file, 'w+');
  fs.writeSync(fd, String(next));
  fs.closeSync(fd);
  console.log(`used index ${used}`);
}
const timer = setInterval(upload, Number(everyText));
process.on('SIGTERM', () => {
  clearInterval(timer);
  for (let i = 0; i < Number(flushText); i++) upload();
  fs.closeSync(chunk);
  fs.rmSync(stream, { recursive: true, force: true });
  fs.rmSync(path.join(root, 'sequence'), { recursive: true, force: true });
  console.log('exit');
  process.exit(0);
});
console.log('ready');
