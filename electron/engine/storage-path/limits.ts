/**
 * What the config's storage limits do with a storage.path backlog (Fluent Bit's documented
 * semantics; the text says so where a number is an estimate):
 * - `[SERVICE] storage.max_chunks_up` (default 128): chunks held in memory at once; the rest stay "down" on disk;
 * - `[SERVICE] storage.backlog.mem_limit` (default 5M): memory the start-up backlog loader may bring up at once;
 * - `[OUTPUT] storage.total_limit_size`: an output's cap on its filesystem chunks; above it the oldest chunks for that output are discarded.
 */
import type { EngineStreamInfo, FluentBitConfig, StorageLimits } from '../../../shared/model';
import * as path from 'node:path';
import { sizeToBytes } from '../fluentbit';

function size(v: string | undefined): number | null {
  if (v === undefined || v.trim() === '') return null;
  const n = sizeToBytes(v);
  return n === null || n === undefined || !Number.isFinite(n) ? null : n;
}

/** The storage.path a loaded config sets (`[SERVICE] storage.path`), absolute (relative to the main config file's folder); null when none. */
export function configuredStoragePath(config: FluentBitConfig | null | undefined): string | null {
  const v = config?.service?.['storage.path']?.trim();
  if (!v || !config?.files[0]) return null;
  return path.resolve(path.dirname(config.files[0]), v);
}

/** `storage.checksum` (default off). */
export function checksumOf(service: Record<string, string>): boolean {
  return /^(on|true|yes|1)$/i.test((service['storage.checksum'] ?? 'off').trim());
}

const mb = (n: number) => (n >= 1048576 ? `${(n / 1048576).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`);

export function storageLimits(streams: EngineStreamInfo[], config: FluentBitConfig | null): StorageLimits {
  const svc = config?.service ?? null;
  const checksum = svc ? checksumOf(svc) : null;
  // The backlog Fluent Bit will hold once the rejected chunks are salvaged: every chunk whose header loads.
  const loadable = streams.flatMap((s) => s.chunks).filter((c) => c.fateChecksumOff === 'load');
  const bytes = loadable.reduce((s, c) => s + c.fileSize, 0);
  const chunks = loadable.length;
  const maxUpRaw = svc?.['storage.max_chunks_up'];
  const maxChunksUp = svc ? (maxUpRaw && /^\d+$/.test(maxUpRaw.trim()) ? Number(maxUpRaw.trim()) : 128) : null;
  const backlogMemLimit = svc ? (size(svc['storage.backlog.mem_limit']) ?? 5 * 1024 * 1024) : null;
  const outputsWithLimit = (config?.outputs ?? [])
    .map((o) => ({ name: o.displayName, limit: size(o.properties['storage.total_limit_size']) }))
    .filter((o): o is { name: string; limit: number } => o.limit !== null);
  const effects: string[] = [];
  if (!config) {
    effects.push('No config given (--config): the storage limits are not known, so what they do with this backlog is not shown.');
    return { checksum, totalLimitSize: null, maxChunksUp: null, backlogMemLimit: null, effects };
  }
  if (maxChunksUp !== null)
    effects.push(
      chunks > maxChunksUp
        ? `storage.max_chunks_up ${maxChunksUp}: ${chunks} chunks (after salvage) exceed it, so at most ${maxChunksUp} are up in memory at once; the other ${chunks - maxChunksUp} stay down on disk until chunks are flushed.`
        : `storage.max_chunks_up ${maxChunksUp}: the ${chunks} chunk(s) (after salvage) fit (no chunk has to wait down on disk for this reason).`,
    );
  if (backlogMemLimit !== null)
    effects.push(
      bytes > backlogMemLimit
        ? `storage.backlog.mem_limit ${mb(backlogMemLimit)}: the backlog is ${mb(bytes)} (file sizes), more than the limit, so the start-up loader brings it up in several rounds as earlier chunks are delivered (not all at once).`
        : `storage.backlog.mem_limit ${mb(backlogMemLimit)}: the backlog of ${mb(bytes)} (file sizes) fits in one round.`,
    );
  for (const o of outputsWithLimit)
    effects.push(
      bytes > o.limit
        ? `${o.name} storage.total_limit_size ${mb(o.limit)}: the backlog after salvage (${mb(bytes)}, if all of it is routed to ${o.name}) exceeds it; Fluent Bit discards the oldest chunks for that output to stay under it — records can be lost.`
        : `${o.name} storage.total_limit_size ${mb(o.limit)}: the backlog (${mb(bytes)}) is under it.`,
    );
  return { checksum, totalLimitSize: outputsWithLimit[0]?.limit ?? null, maxChunksUp, backlogMemLimit, effects };
}
