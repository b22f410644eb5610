import { afterEach, describe, expect, it } from 'vitest';
import { promises as fsp, statSync, writeFileSync, readdirSync, chmodSync } from 'node:fs';
import * as path from 'node:path';
import { atomicWriteFile, sweepStaleTemps } from '../../../electron/engine/repair/write/atomic';
import { tempDir } from './helpers';

let t: ReturnType<typeof tempDir>;
afterEach(() => t?.cleanup());

describe('atomicWriteFile', () => {
  it('creates a new file with the given mode and no temp left behind', async () => {
    t = tempDir();
    const f = path.join(t.dir, 'seq_index_0');
    const r = await atomicWriteFile(t.dir, f, '12', { mode: 0o640 });
    expect(r.previous).toBeNull();
    expect(await fsp.readFile(f, 'utf8')).toBe('12');
    expect(statSync(f).mode & 0o777).toBe(0o640);
    expect(readdirSync(t.dir)).toEqual(['seq_index_0']);
  });

  it('replaces an existing file keeping its mode and returns the previous bytes', async () => {
    t = tempDir();
    const f = path.join(t.dir, 'x');
    writeFileSync(f, 'old');
    chmodSync(f, 0o600);
    const r = await atomicWriteFile(t.dir, f, Buffer.from('new-bytes'), { readPrevious: true });
    expect(r.previous?.toString()).toBe('old');
    expect(r.written.toString()).toBe('new-bytes');
    expect(await fsp.readFile(f, 'utf8')).toBe('new-bytes');
    expect(statSync(f).mode & 0o777).toBe(0o600);
  });

  it('unlinks its temp file and leaves the target untouched when a step fails', async () => {
    t = tempDir();
    const f = path.join(t.dir, 'x');
    writeFileSync(f, 'old');
    await expect(
      atomicWriteFile(t.dir, f, 'new', {
        hooks: {
          beforeRename: () => {
            throw new Error('boom');
          },
        },
      }),
    ).rejects.toThrow('boom');
    expect(await fsp.readFile(f, 'utf8')).toBe('old');
    expect(readdirSync(t.dir)).toEqual(['x']);
  });

  it('refuses to replace a symlink or a directory', async () => {
    t = tempDir();
    writeFileSync(path.join(t.dir, 'real'), 'a');
    await fsp.symlink(path.join(t.dir, 'real'), path.join(t.dir, 'link'));
    await expect(atomicWriteFile(t.dir, path.join(t.dir, 'link'), 'b')).rejects.toThrow(/symlink/);
    await fsp.mkdir(path.join(t.dir, 'd'));
    await expect(atomicWriteFile(t.dir, path.join(t.dir, 'd'), 'b')).rejects.toThrow(/not a regular file/);
    expect(await fsp.readFile(path.join(t.dir, 'real'), 'utf8')).toBe('a');
  });

  it('sweeps temp files left by dead writers but not by live ones', async () => {
    t = tempDir();
    const f = path.join(t.dir, 'seq_index_0');
    writeFileSync(path.join(t.dir, '.seq_index_0.sd-tmp-999999999-abcd'), '');
    writeFileSync(path.join(t.dir, `.seq_index_0.sd-tmp-${process.pid}-abcd`), '');
    const removed = await sweepStaleTemps(t.dir, f);
    expect(removed).toEqual(['.seq_index_0.sd-tmp-999999999-abcd']);
    expect(readdirSync(t.dir)).toEqual([`.seq_index_0.sd-tmp-${process.pid}-abcd`]);
  });
});
