/**
 * A Fluent Bit whose config names a folder uses it even with no file of it open at this moment
 * (measured: a start that rejected every chunk holds nothing of its storage.path; between two
 * uploads an S3 output may hold nothing of its store_dir). For each running Fluent Bit: its
 * `-c`/`--config` file (relative to its working directory), read with the config loader, and the
 * folder it names — `[SERVICE] storage.path`, or each S3 output's `<store_dir>/<bucket>` —
 * compared with the target by device and inode (a bind mount of the folder is the folder), seen
 * through the process's own root (`/proc/<pid>/root`, its mount namespace). Linux /proc only;
 * unreadable processes are skipped (the /proc open-file check still applies).
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { loadFluentBitConfig } from '../../fluentbit';
import type { FluentBitConfig } from '../../../../shared/model';
import { findFluentBitProcesses, procsTestHooks } from './procs';

export interface ConfiguredUser {
  pid: number;
  command: string;
  config: string;
  /** The folder as the config names it. */
  named: string;
}

type Named = (cfg: FluentBitConfig, configDir: string, cwd: string) => string[];

/** `[SERVICE] storage.path`, relative to the config file's folder. */
const storagePathOf: Named = (cfg, configDir) => {
  const sp = cfg.service?.['storage.path']?.trim();
  return sp ? [path.resolve(configDir, sp)] : [];
};

/** Each S3 output's `<store_dir>/<bucket>` (store_dir relative to Fluent Bit's working directory). */
const s3RootsOf: Named = (cfg, _configDir, cwd) => cfg.outputs.flatMap((o) => (o.s3 ? [path.join(path.resolve(cwd, o.s3.storeDir), o.s3.bucket)] : []));

async function identity(p: string): Promise<string | null> {
  const st = await fsp.stat(p).catch(() => null);
  return st ? `${st.dev}:${st.ino}` : null;
}

/** `running`: the Fluent Bit processes when the caller has just looked them up (one walk of /proc, not two). */
async function configuredFor(target: string, named: Named, running?: { pid: number; command: string }[]): Promise<ConfiguredUser[]> {
  const want = await identity(target);
  if (!want) return [];
  const proc = procsTestHooks.proc ?? '/proc';
  const out: ConfiguredUser[] = [];
  for (const p of running ?? (await findFluentBitProcesses())) {
    try {
      const args = (await fsp.readFile(`${proc}/${p.pid}/cmdline`, 'utf8')).split('\0');
      const i = args.findIndex((a) => a === '-c' || a === '--config' || a.startsWith('--config='));
      if (i === -1) continue;
      const file = args[i].startsWith('--config=') ? args[i].slice(9) : args[i + 1];
      if (!file) continue;
      const cwd = await fsp.readlink(`${proc}/${p.pid}/cwd`);
      const abs = path.resolve(cwd, file);
      // paths as the process sees them: through its root (another mount namespace, a chroot) where we may look
      const base = await fsp.access(`${proc}/${p.pid}/root`).then(
        () => `${proc}/${p.pid}/root`,
        () => '',
      );
      const seen = (q: string) => (base ? path.join(base, q) : q);
      const cfg = await loadFluentBitConfig(seen(abs));
      for (const dir of named(cfg, path.dirname(abs), cwd)) {
        if ((await identity(seen(dir))) === want) {
          out.push({ ...p, config: abs, named: dir });
          break;
        }
      }
    } catch {
      // not readable (another user, exited meanwhile, unreadable config): the /proc open-file check still applies
    }
  }
  return out;
}

/** Fluent Bit processes whose config's storage.path is `root`. */
export function fluentBitsConfiguredFor(root: string): Promise<ConfiguredUser[]> {
  return configuredFor(root, storagePathOf);
}

/** Fluent Bit processes with an S3 output whose `<store_dir>/<bucket>` is the bucket root `root`. */
export function fluentBitsStoringIn(root: string, running?: { pid: number; command: string }[]): Promise<ConfiguredUser[]> {
  return configuredFor(root, s3RootsOf, running);
}
