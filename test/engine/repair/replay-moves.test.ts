import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ReplayMover } from '../../../electron/engine/repair/bucket/replay-moves';

let base: string | null = null;
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true });
  base = null;
});

function store(): { root: string; outside: string; replayed: string } {
  base = mkdtempSync(path.join(os.tmpdir(), 'sd-replay-moves-'));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'stream'), { recursive: true });
  mkdirSync(outside);
  return { root, outside, replayed: path.join(root, '.store-doctor', 'replayed', 'stream') };
}

describe('ReplayMover (each move anchored at the root; the destination folder made once per run)', () => {
  it('moves chunks into replayed/<stream>/, a second chunk of the same name beside the first, and makes the folder again when it was removed', async () => {
    const { root, replayed } = store();
    for (const n of ['a.flb', 'b.flb']) writeFileSync(path.join(root, 'stream', n), n);
    const mover = new ReplayMover(root);
    expect(await mover.move({ file: path.join(root, 'stream', 'a.flb'), destDir: replayed })).toBe(path.join(replayed, 'a.flb'));
    rmSync(path.join(root, '.store-doctor', 'replayed'), { recursive: true });
    expect(await mover.move({ file: path.join(root, 'stream', 'b.flb'), destDir: replayed })).toBe(path.join(replayed, 'b.flb'));
    writeFileSync(path.join(root, 'stream', 'b.flb'), 'again');
    expect(await mover.move({ file: path.join(root, 'stream', 'b.flb'), destDir: replayed })).toBe(path.join(replayed, 'b.flb.1'));
    expect((await mover.flush()).map((m) => path.basename(m.to))).toEqual(['a.flb', 'b.flb', 'b.flb.1']);
    expect(readdirSync(replayed).sort()).toEqual(['b.flb', 'b.flb.1']);
    expect(readdirSync(path.join(root, 'stream'))).toEqual([]);
  });

  it('never moves a chunk that is a link, nor one through a stream folder that is a link', async () => {
    const { root, outside, replayed } = store();
    writeFileSync(path.join(outside, 'x.flb'), 'outside');
    symlinkSync(path.join(outside, 'x.flb'), path.join(root, 'stream', 'link.flb'));
    symlinkSync(outside, path.join(root, 'linked'));
    const mover = new ReplayMover(root);
    await expect(mover.move({ file: path.join(root, 'stream', 'link.flb'), destDir: replayed })).rejects.toThrow(/symlink/);
    await expect(mover.move({ file: path.join(root, 'linked', 'x.flb'), destDir: replayed })).rejects.toThrow(/symlink|not a directory/);
    expect(readdirSync(outside)).toEqual(['x.flb']);
    expect(existsSync(path.join(root, 'stream', 'link.flb'))).toBe(true);
    expect(existsSync(replayed) ? readdirSync(replayed) : []).toEqual([]);
  });
});
