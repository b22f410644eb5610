/**
 * The guard and the config's `[SERVICE] storage.path`: its backlog per input re-read every 5 poll
 * periods (headers; CRCs checked once per chunk version: ./storage-path-backlog.ts) for
 * the store_doctor_storage_path_* metrics. Reads only.
 */
import type { FluentBitConfig } from '../../../shared/model';
import { StoragePathBacklog, type InputBacklog } from './storage-path-backlog';
import { checksumOf, configuredStoragePath } from '../storage-path';

export interface StoragePathWatch {
  readonly dir: string;
  /** As last read (no I/O). */
  inputs(): InputBacklog[];
  stop(): void;
}

export function watchStoragePath(config: FluentBitConfig, ctx: { pollMs: number; note: (line: string) => void }): StoragePathWatch | null {
  const dir = configuredStoragePath(config);
  if (!dir) return null;
  const sp = new StoragePathBacklog(dir, { checksum: checksumOf(config.service ?? {}) });
  let busy = false;
  let stopped = false;
  const tick = () => {
    if (busy || stopped) return;
    busy = true;
    sp.refresh()
      .catch((err: Error) => ctx.note(`storage.path ${dir}: ${err.message}`))
      .finally(() => (busy = false));
  };
  tick();
  const timer = setInterval(tick, ctx.pollMs * 5);
  timer.unref();
  ctx.note(`reading the backlog of storage.path ${dir} (metrics store_doctor_storage_path_*)`);
  return {
    dir,
    inputs: () => sp.inputs,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
