/**
 * Issue 17, item 11: a full disk must not leave `write.lock.tmp-*` (or any other temp file of
 * ours) behind. A real full file system: a 64 KiB tmpfs filled to the last byte (root with
 * CAP_SYS_ADMIN only; skipped elsewhere), where creating a file works and writing to it fails
 * with ENOSPC.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fdsUnder } from '../../support/wait';
import { takeWriteLock } from '../../../electron/engine/repair/preconditions/write-lock';
import { atomicWriteFile } from '../../../electron/engine/repair/write/atomic';

function canMount(): boolean {
  if (process.getuid?.() !== 0 || process.platform !== 'linux') return false;
  const d = mkdtempSync(path.join(os.tmpdir(), 'sd-mnt-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', d], { stdio: 'ignore' });
    execFileSync('umount', [d], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
}

let mnt: string | null = null;
afterEach(() => {
  if (mnt) {
    execFileSync('umount', [mnt], { stdio: 'ignore' });
    rmSync(mnt, { recursive: true, force: true });
  }
  mnt = null;
});

/** A root on a full 64 KiB tmpfs, with its `.store-doctor/` made before the disk filled. */
function fullRoot(): string {
  mnt = mkdtempSync(path.join(os.tmpdir(), 'sd-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0755', 'tmpfs', mnt]);
  const root = path.join(mnt, 'root');
  mkdirSync(path.join(root, '.store-doctor'), { recursive: true, mode: 0o700 });
  mkdirSync(path.join(root, 'sequence', 'index_metadata'), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path.join(mnt, 'filler'), Buffer.alloc(128 * 1024));
  } catch (err) {
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
  }
  return root;
}

describe.skipIf(!canMount())('a full disk (issue 17 item 11)', () => {
  it('the write lock fails with ENOSPC and leaves no write.lock.tmp-* behind', async () => {
    const root = fullRoot();
    await expect(takeWriteLock(root)).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(readdirSync(path.join(root, '.store-doctor'))).toEqual([]);
    expect(fdsUnder(mnt!)).toEqual([]);
  });

  it('an index write fails with ENOSPC and leaves no temp file behind', async () => {
    const root = fullRoot();
    await expect(atomicWriteFile(root, path.join(root, 'sequence', 'index_metadata', 'seq_index_0'), '12')).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(readdirSync(path.join(root, 'sequence', 'index_metadata'))).toEqual([]);
    expect(fdsUnder(mnt!)).toEqual([]);
  });
});
