/**
 * What the guard's metrics and report need of a root, computed from its scan report: backlog
 * chunks, bytes and oldest chunk by stream kind, quarantine and damaged chunks, the index files,
 * the marker. Each stream's sums come from its facts, kept by the stream object
 * (store/stream-facts.ts, shared with the diagnosis): a refresh (store/refresh.ts)
 * replaces only the streams it re-read, so a scrape after a change sums a handful of cached
 * entries instead of walking every chunk of a 100k-chunk store.
 */
import type { BacklogKind } from '../../../shared/fleet';
import type { RootReport, StreamInfo } from '../../../shared/model';
import { streamFacts } from '../store/stream-facts';

export interface StreamSums {
  chunks: number;
  bytes: number;
  /** Oldest first-record time (else mtime) of its chunks, ms since the epoch. */
  oldestMs: number | null;
  damaged: number;
}

export interface BacklogSums {
  kind: BacklogKind;
  chunks: number;
  bytes: number;
  oldestMs: number | null;
}

export interface RootFacts {
  bucket: string;
  rootPath: string;
  backlog: BacklogSums[];
  quarantineChunks: number;
  damagedChunks: number;
  sequencePresent: boolean;
  markerPresent: boolean;
  /** seq_index_<id> → the value Fluent Bit would read (null: unreadable or empty). */
  seqIndex: Map<number, number | null>;
}

/** A stream's sums, from its facts (kept per stream object: store/stream-facts.ts). */
export function streamSums(s: StreamInfo): StreamSums {
  const f = streamFacts(s);
  return { chunks: s.chunks.length, bytes: f.bytes, oldestMs: f.oldestMs, damaged: f.damaged.length };
}

/** The kind a stream's backlog counts under: the newest data stream is `current`, other data streams `old`. */
function kindOf(s: StreamInfo, newestData: string | null): BacklogKind | null {
  if (s.kind === 'multipart') return 'multipart';
  if (s.kind === 'quarantine') return 'quarantine';
  if (s.kind === 'data') return s.name === newestData ? 'current' : 'old';
  return null;
}

export function rootFacts(root: RootReport): RootFacts {
  const data = root.streams.filter((s) => s.kind === 'data');
  // stream folders are named by the start time (%Y-%m-%dT%H:%M:%S): the newest sorts last
  const newest = data.length ? data.reduce((a, b) => ((b.startTime ?? b.name) > (a.startTime ?? a.name) ? b : a)).name : null;
  const byKind = new Map<BacklogKind, BacklogSums>();
  let damagedChunks = 0;
  let quarantineChunks = 0;
  for (const s of root.streams) {
    const sums = streamSums(s);
    damagedChunks += sums.damaged;
    const kind = kindOf(s, newest);
    if (!kind) continue;
    if (kind === 'quarantine') quarantineChunks += sums.chunks;
    const b = byKind.get(kind) ?? { kind, chunks: 0, bytes: 0, oldestMs: null };
    b.chunks += sums.chunks;
    b.bytes += sums.bytes;
    if (sums.oldestMs !== null && (b.oldestMs === null || sums.oldestMs < b.oldestMs)) b.oldestMs = sums.oldestMs;
    byKind.set(kind, b);
  }
  const kinds: BacklogKind[] = ['current', 'old', 'multipart', 'quarantine'];
  return {
    bucket: root.bucket,
    rootPath: root.path,
    backlog: kinds.map((k) => byKind.get(k) ?? { kind: k, chunks: 0, bytes: 0, oldestMs: null }),
    quarantineChunks,
    damagedChunks,
    sequencePresent: root.sequence.present,
    markerPresent: root.sequence.markerChunks.length > 0,
    seqIndex: new Map(root.seqIndex.filter((s) => s.outputId !== null).map((s) => [s.outputId as number, s.value] as const)),
  };
}
