/**
 * The anchored-write primitive (repair/write/anchor.ts), deterministically: a folder swapped for a
 * symlink after it was opened receives the write in the folder that was checked (the link's
 * target stays untouched); a root that is not the planned folder is refused; a link on the way is
 * refused; no descriptor is left open, also by refused writes.
 */
import { fdsUnder } from '../../support/wait';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Anchor, anchorMode } from '../../../electron/engine/repair/write/anchor';
import { atomicWriteFile, durableUnlink, mkdirExact } from '../../../electron/engine/repair/write/atomic';
import { RefusedError } from '../../../electron/engine/repair/outcome/errors';
import { tempDir } from './helpers';

let t: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  t?.cleanup();
  t = null;
});

describe.skipIf(anchorMode() !== 'fd')('anchored writes', () => {
  it('a folder swapped for a link after its check: the write lands in the checked folder, never in the target', async () => {
    t = tempDir();
    const root = path.join(t.dir, 'root');
    const seq = path.join(root, 'sequence');
    const outside = path.join(t.dir, 'outside');
    mkdirSync(seq, { recursive: true });
    mkdirSync(outside);
    const w = await atomicWriteFile(root, path.join(seq, 'seq_index_0'), '12', {
      hooks: {
        beforeRename: () => {
          renameSync(seq, `${seq}.moved`);
          symlinkSync(outside, seq);
        },
      },
    });
    expect(w.written.toString()).toBe('12');
    expect(readdirSync(outside)).toEqual([]);
    expect(readFileSync(path.join(`${seq}.moved`, 'seq_index_0'), 'utf8')).toBe('12');
    expect(readdirSync(`${seq}.moved`)).toEqual(['seq_index_0']); // no temp file left either
    // the next write walks again from the root: the link is refused, the target stays empty
    await expect(atomicWriteFile(root, path.join(seq, 'seq_index_0'), '13')).rejects.toBeInstanceOf(RefusedError);
    await expect(mkdirExact(root, path.join(seq, 'index_metadata'), 0o700)).rejects.toThrow(/symlink|not a directory/);
    await expect(durableUnlink(root, path.join(seq, 'x'))).rejects.toBeInstanceOf(RefusedError);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses a root that is not the folder the plan resolved (device and inode)', async () => {
    t = tempDir();
    const root = path.join(t.dir, 'root');
    mkdirSync(root);
    const st = statSync(root);
    await expect(Anchor.open(root, { dev: st.dev, ino: st.ino + 1 })).rejects.toThrow(/no longer the folder that was checked/);
    const a = await Anchor.open(root, { dev: st.dev, ino: st.ino });
    await a.close();
  });

  it('refuses a path outside the root and a symlinked root handed in as a real path', async () => {
    t = tempDir();
    const root = path.join(t.dir, 'root');
    mkdirSync(root);
    await expect(atomicWriteFile(root, path.join(t.dir, 'x'), '1')).rejects.toThrow(/outside the root/);
    await expect(atomicWriteFile(root, path.join(root, '..', 'x'), '1')).rejects.toThrow(/outside the root/);
    expect(readdirSync(t.dir)).toEqual(['root']);
  });

  it('leaves no descriptor open, after writes and after refused writes', async () => {
    t = tempDir();
    const root = path.join(t.dir, 'root');
    mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    symlinkSync(t.dir, path.join(root, 'a', 'link'));
    writeFileSync(path.join(root, 'a', 'b', 'f'), 'x');
    for (let i = 0; i < 50; i++) {
      await atomicWriteFile(root, path.join(root, 'a', 'b', 'f'), String(i));
      await expect(atomicWriteFile(root, path.join(root, 'a', 'link', 'f'), 'x')).rejects.toBeInstanceOf(RefusedError);
    }
    expect(fdsUnder(t.dir)).toEqual([]);
  });
});
