/**
 * A Fluent Bit that holds no file of the store at this moment (between two uploads) but whose
 * config names it still uses it: the write check refuses (forceable), deciding by device and inode
 * — the config may name the store through another path (a bind mount, a link) — and only warns
 * about a Fluent Bit whose config names another store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkWriteAllowed } from '../../../electron/engine/repair/preconditions/write-check';
import { tempDir } from './helpers';

let t: ReturnType<typeof tempDir> | null = null;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  t?.cleanup();
  t = null;
});

/** node started through a link named fluent-bit, with `-c <conf>` on its command line and no file open. */
async function fluentBitWith(conf: string): Promise<ChildProcess> {
  const exe = path.join(t!.dir, 'bin', 'fluent-bit');
  mkdirSync(path.dirname(exe), { recursive: true });
  try {
    symlinkSync(process.execPath, exe);
  } catch {
    /* made by an earlier call */
  }
  const c = spawn(exe, ['-e', `console.log('up'); setInterval(() => {}, 1000);`, '--', '-c', conf], { stdio: ['ignore', 'pipe', 'ignore'], cwd: t!.dir });
  children.push(c);
  await new Promise<void>((resolve) => c.stdout!.once('data', () => resolve()));
  return c;
}

const s3Conf = (storeDir: string) =>
  `[OUTPUT]\n    name s3\n    match *\n    bucket logs\n    region us-east-1\n    store_dir ${storeDir}\n    s3_key_format /$TAG/$INDEX\n`;

describe.skipIf(process.platform !== 'linux')('a Fluent Bit whose config names the store', () => {
  it('is refused by device and inode though it holds no file; one naming another store is only a warning', async () => {
    t = tempDir('sd-configured-');
    const store = path.join(t.dir, 'store');
    const root = path.join(store, 'logs');
    mkdirSync(path.join(root, 'sequence', 'index_metadata'), { recursive: true });
    symlinkSync(store, path.join(t.dir, 'alias')); // the config names the store through another path
    writeFileSync(path.join(t.dir, 'fb.conf'), s3Conf('alias')); // relative: to Fluent Bit's working directory
    mkdirSync(path.join(t.dir, 'other', 'logs'), { recursive: true });
    writeFileSync(path.join(t.dir, 'other.conf'), s3Conf(path.join(t.dir, 'other')));

    const elsewhere = await fluentBitWith(path.join(t.dir, 'other.conf'));
    const before = await checkWriteAllowed(root);
    expect(before.refusals).toEqual([]);
    expect(before.warnings.filter((w) => w.includes(`process ${elsewhere.pid} `))).toEqual([
      expect.stringMatching(new RegExp(`^Fluent Bit process ${elsewhere.pid} \\(fluent-bit\\) is running, though with no file`)),
    ]);

    const fb = await fluentBitWith('fb.conf');
    const r = await checkWriteAllowed(root);
    expect(r.refusals).toEqual([
      {
        reason: expect.stringMatching(
          new RegExp(
            `^Process ${fb.pid} \\(fluent-bit\\) is Fluent Bit, using this store: its config ${path.join(t.dir, 'fb.conf')} names it \\(store_dir/bucket ${path.join(t.dir, 'alias', 'logs')}, the same folder by device and inode\\)`,
          ),
        ),
        forceable: true,
      },
    ]);
    expect(r.warnings.filter((w) => w.includes(`process ${fb.pid}`))).toEqual([]);
  });
});
