/**
 * The live watch of a store (store/watch.ts): one inotify watch per folder, never one per chunk
 * file, and still every change inside the folders: a chunk rewritten in place, a chunk removed, a
 * stream folder made with chunks in it, a stream folder removed and made again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchStore, type StoreWatcher } from '../../../electron/engine/store';
import { generateStore } from '../../fixtures/generate';

let tmp: string | null = null;
let w: StoreWatcher | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  tmp = null;
});

/** inotify watches this process holds (Linux: the `inotify wd:` lines of its fdinfo). */
function inotifyWatches(): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fdinfo')) {
    try {
      n += fs
        .readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('inotify wd:')).length;
    } catch {
      /* closed meanwhile */
    }
  }
  return n;
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not seen: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function store(chunks: number): Promise<string> {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-watch-'));
  const dir = path.join(tmp, 'store');
  const names = Array.from({ length: chunks }, (_, i) => ({ name: `c${i}`, meta: 't', content: 'x\n' }));
  await generateStore(dir, {
    roots: [
      {
        bucket: 'b',
        streams: [
          { name: 's1', chunks: names },
          { name: 's2', chunks: names.slice(0, 3) },
        ],
      },
    ],
  });
  return dir;
}

describe('watchStore', () => {
  it.skipIf(process.platform !== 'linux')('holds one inotify watch per folder, not one per chunk file', async () => {
    const dir = await store(200);
    fs.mkdirSync(path.join(dir, 'b', 's1', 'nested', 'deeper'), { recursive: true }); // folders inside a stream are watched too
    const folders: string[] = [];
    const walk = (d: string) => {
      folders.push(d);
      for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory() && !e.name.startsWith('.')) walk(path.join(d, e.name));
    };
    walk(dir);
    const before = inotifyWatches();
    w = watchStore(dir, () => {}, { debounceMs: 20 });
    await until(() => inotifyWatches() - before >= folders.length, `${folders.length} folder watches`);
    await new Promise((r) => setTimeout(r, 200));
    expect(inotifyWatches() - before).toBe(folders.length);
  });

  it('reports a chunk rewritten in place, a chunk removed, a new stream with its chunks, and a stream made again', async () => {
    const dir = await store(3);
    const seen = new Set<string>();
    w = watchStore(dir, (paths) => paths.forEach((p) => seen.add(p)), { debounceMs: 20 });
    const s1 = path.join(dir, 'b', 's1');
    const s2 = path.join(dir, 'b', 's2');
    await new Promise((r) => setTimeout(r, 200));
    fs.appendFileSync(path.join(s1, 'c0'), 'more\n');
    await until(() => seen.has(path.join(s1, 'c0')), 'c0 rewritten');
    fs.rmSync(path.join(s1, 'c1'));
    await until(() => seen.has(path.join(s1, 'c1')), 'c1 removed');
    // a new stream folder, its chunk written right after it is made
    const s3 = path.join(dir, 'b', 's3');
    fs.mkdirSync(s3);
    fs.writeFileSync(path.join(s3, 'n0'), 'x');
    await until(() => seen.has(s3) && seen.has(path.join(s3, 'n0')), 's3 and its chunk');
    fs.writeFileSync(path.join(s3, 'n1'), 'x');
    await until(() => seen.has(path.join(s3, 'n1')), 'a later chunk in s3');
    // a stream removed and made again is still watched
    fs.rmSync(s2, { recursive: true });
    await until(() => seen.has(s2), 's2 removed');
    await new Promise((r) => setTimeout(r, 100));
    fs.mkdirSync(s2);
    await new Promise((r) => setTimeout(r, 100));
    seen.clear();
    fs.writeFileSync(path.join(s2, 'again'), 'x');
    await until(() => seen.has(path.join(s2, 'again')), 'a chunk in s2 made again');
    // dot entries stay unreported
    fs.writeFileSync(path.join(s1, '.tmp'), 'x');
    fs.writeFileSync(path.join(s1, 'last'), 'x');
    await until(() => seen.has(path.join(s1, 'last')), 'last');
    expect([...seen].some((p) => p.includes(`${path.sep}.`))).toBe(false);
  });
});
