/**
 * Where the data of a scanned store sits and how old it is: bytes on disk and records by stream
 * kind and by tag, and the backlog (what Fluent Bit uploads at its next start: the valid chunks of
 * data streams) by the age of its oldest record at the scan time. Pure: reads the report only.
 */
import type { ChunkInfo, StorageRow, StorageSummary, StoreReport, StreamKind } from '../../../shared/model';
import { REJECTED } from './chunk-info';

const HOUR = 3600;
const DAY = 24 * HOUR;
/** Age classes of the backlog, in seconds [from, to). */
export const BACKLOG_AGES: { label: string; from: number; to: number | null }[] = [
  { label: 'under 1 hour', from: 0, to: HOUR },
  { label: '1–6 hours', from: HOUR, to: 6 * HOUR },
  { label: '6–24 hours', from: 6 * HOUR, to: DAY },
  { label: '1–7 days', from: DAY, to: 7 * DAY },
  { label: 'over 7 days', from: 7 * DAY, to: null },
];

const KINDS: StreamKind[] = ['data', 'quarantine', 'multipart', 'sequence'];

function row(): StorageRow {
  return { chunks: 0, bytes: 0, records: 0 };
}

function add(r: StorageRow, c: ChunkInfo): void {
  r.chunks++;
  r.bytes += c.fileSize;
  r.records += c.records ?? 0;
}

/** Will Fluent Bit upload this chunk of a data stream at its next start? */
function pending(c: ChunkInfo): boolean {
  return !REJECTED.has(c.status) && c.status !== 'unreadable';
}

function timeOf(c: ChunkInfo): number | null {
  for (const t of [c.firstRecordTime, c.mtime]) {
    const ms = t ? Date.parse(t) : NaN;
    if (!Number.isNaN(ms)) return ms;
  }
  return null;
}

export function storageSummary(report: StoreReport): StorageSummary {
  const at = Date.parse(report.scannedAt);
  const byKind = new Map<StreamKind, StorageRow>(KINDS.map((k) => [k, row()]));
  const byTag = new Map<string, StorageRow & { pending: number }>();
  const backlog = BACKLOG_AGES.map(() => row());
  const unknown = row();
  let recordsKnown = true;
  for (const root of report.roots) {
    for (const s of root.streams) {
      const k = byKind.get(s.kind)!;
      for (const c of s.chunks) {
        add(k, c);
        if (s.kind !== 'data' && s.kind !== 'quarantine') continue;
        if (c.records === null && c.status !== 'zero-byte') recordsKnown = false;
        const tag = c.tag ?? '';
        let t = byTag.get(tag);
        if (!t) byTag.set(tag, (t = { ...row(), pending: 0 }));
        add(t, c);
        if (s.kind !== 'data' || !pending(c)) continue;
        t.pending++;
        const ms = timeOf(c);
        if (ms === null || Number.isNaN(at)) {
          add(unknown, c);
          continue;
        }
        const age = Math.max(0, (at - ms) / 1000);
        const i = BACKLOG_AGES.findIndex((a) => age >= a.from && (a.to === null || age < a.to));
        add(backlog[i], c);
      }
    }
  }
  return {
    at: report.scannedAt,
    recordsKnown,
    byKind: [...byKind].filter(([, r]) => r.chunks > 0).map(([kind, r]) => ({ kind, ...r })),
    byTag: [...byTag].map(([tag, r]) => ({ tag, ...r })).sort((a, b) => b.bytes - a.bytes || (a.tag < b.tag ? -1 : 1)),
    backlog: BACKLOG_AGES.map((a, i) => ({ label: a.label, fromSeconds: a.from, toSeconds: a.to, ...backlog[i] })),
    backlogUnknownAge: unknown,
    backlogBasis: 'age of the oldest record in each chunk (its file time when it has no record time), at the scan time',
  };
}
