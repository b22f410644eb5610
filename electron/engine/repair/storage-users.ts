/**
 * A Fluent Bit whose config names this storage.path uses it even with no file of it open (measured:
 * a start that rejected every chunk holds nothing there). For each running Fluent Bit: its
 * `-c`/`--config` file (relative to its working directory), read with the config loader, and its
 * `[SERVICE] storage.path` compared by realpath. Linux /proc only; unreadable processes are skipped.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { loadFluentBitConfig } from '../fluentbit';
import { findFluentBitProcesses, procsTestHooks } from './procs';

async function real(p: string): Promise<string | null> {
  try {
    return await fsp.realpath(p);
  } catch {
    return null;
  }
}

/** Fluent Bit processes whose config's storage.path is `root`. */
export async function fluentBitsConfiguredFor(root: string): Promise<{ pid: number; command: string; config: string }[]> {
  const target = await real(root);
  if (!target) return [];
  const proc = procsTestHooks.proc ?? '/proc';
  const out: { pid: number; command: string; config: string }[] = [];
  for (const p of await findFluentBitProcesses()) {
    try {
      const args = (await fsp.readFile(`${proc}/${p.pid}/cmdline`, 'utf8')).split('\0');
      const i = args.findIndex((a) => a === '-c' || a === '--config' || a.startsWith('--config='));
      if (i === -1) continue;
      const file = args[i].startsWith('--config=') ? args[i].slice(9) : args[i + 1];
      if (!file) continue;
      const cwd = await fsp.readlink(`${proc}/${p.pid}/cwd`);
      const abs = path.resolve(cwd, file);
      const sp = (await loadFluentBitConfig(abs)).service?.['storage.path']?.trim();
      if (sp && (await real(path.resolve(path.dirname(abs), sp))) === target) out.push({ ...p, config: abs });
    } catch {
      // not readable (another user, exited meanwhile, unreadable config): the /proc open-file check still applies
    }
  }
  return out;
}
