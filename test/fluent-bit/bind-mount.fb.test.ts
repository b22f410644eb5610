/**
 * A Fluent Bit whose store_dir is a bind mount of the store in this very mount namespace (issue 17
 * case 3): its /proc/<pid>/fd and maps name the alias path, never the store's. The process check
 * decides by device and inode, so `repair-index --apply` on the store refuses while it runs and
 * writes nothing. Needs `mount --bind` (root, or a user namespace that permits it): skipped with
 * the reason otherwise.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { expect, it } from 'vitest';
import { describeCli } from './support/cli';
import { scratchBase } from './support/lab';
import { runFluentBit } from './support/scenario';
import { forEachFluentBit, withLab } from './support/suite';

/** Null when a bind mount can be made here, else why not. */
function bindMountRefusal(): string | null {
  const dir = mkdtempSync(path.join(scratchBase(), 'sd-bind-probe-'));
  try {
    mkdirSync(path.join(dir, 'a'));
    mkdirSync(path.join(dir, 'b'));
    execFileSync('mount', ['--bind', path.join(dir, 'a'), path.join(dir, 'b')], { stdio: 'pipe' });
    execFileSync('umount', [path.join(dir, 'b')], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `mount --bind is not permitted here (${String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim()})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

const refusal = process.platform === 'linux' ? bindMountRefusal() : 'Linux only';

forEachFluentBit('bind mount', (fb) => {
  it.skipIf(refusal !== null)(
    `repair-index --apply refuses while a Fluent Bit runs on a same-namespace bind mount of the store${refusal ? ` — skipped: ${refusal}` : ''}`,
    () =>
      withLab(fb, 'bind-mount', async (lab) => {
        mkdirSync(lab.storeDir, { recursive: true });
        const alias = path.join(lab.dir, 'alias');
        mkdirSync(alias);
        execFileSync('mount', ['--bind', lab.storeDir, alias]);
        try {
          const conf = lab.writeConfig('run1', { output: { storeDir: alias } });
          const run = await runFluentBit(lab, conf, 'run1', { uploads: 2, stop: 'none' });
          const seqFile = path.join(lab.root, 'sequence', 'index_metadata', 'seq_index_0');
          expect(readOrNull(seqFile), 'Fluent Bit keeps its index (precondition)').toMatch(/^\d+$/);
          const fix = await lab.cli(['repair-index', lab.storeDir, '--config', conf, '--value', '999', '--apply']);
          expect(fix.code, describeCli(fix)).not.toBe(0);
          expect(fix.stdout + fix.stderr, describeCli(fix)).toMatch(new RegExp(`Process ${run.pid} \\(fluent-bit\\) is Fluent Bit, using this store`));
          expect(readOrNull(seqFile), "nothing written: the index is Fluent Bit's own, far below 999").toMatch(/^\d{1,2}$/);
          expect(existsSync(path.join(lab.root, '.store-doctor', 'journal.jsonl')), 'no journal: nothing applied').toBe(false);
          await run.stop('SIGTERM');
        } finally {
          execFileSync('umount', ['-l', alias]);
        }
      }),
  );
});
