/**
 * Multipart settlement as a pure decision, from what the server knows (ListParts: numbers, ETags,
 * sizes) and what the local records say (their `part_number=N\tetag=…` lines).
 *
 * A record line proves a server part when the number and the ETag match; it may prove a part of
 * an upload that has no record of its own — after a SIGKILL with two tags, Fluent Bit leaves ONE
 * record holding the first upload's key and the part lines of both uploads (docs/fluent-bit-versions.md
 * §9). An upload is completed only when all its parts on the server form a valid object: numbered
 * 1..n without a gap, every part but the last at least 5 MiB, every part proven by a record line
 * (never a subset: Ceph RGW refuses one with InvalidPart, and it would drop data the server holds). A record is removed
 * only once every upload it holds or proves is settled, so Fluent Bit's next start finds nothing
 * that fails (InvalidPart, NoSuchUpload). Aborting deletes parts for good: only when asked.
 */
import type { SettleItem } from '../../../../shared/model';

/** S3's smallest part, except the last one. */
export const MIN_PART_SIZE = 5 * 1024 * 1024;

export type MultipartDecision = 'auto' | 'complete' | 'abort';

export interface ServerPart {
  partNumber: number;
  etag: string;
  size: number;
}

export interface LocalRecord {
  path: string;
  key: string;
  uploadId: string;
  /** The part lines in file order, as Fluent Bit parses them. */
  lines: readonly { partNumber: number; etag: string }[];
}

export interface ServerUpload {
  key: string;
  uploadId: string;
  /** ListParts; null: the server has no such upload (completed, aborted, expired); undefined: not asked. */
  parts?: ServerPart[] | null;
}

export interface Settlement {
  items: SettleItem[];
  /** Records to remove once every item that names them succeeded. */
  records: string[];
  /** Uploads and records left as they are, with why (the command reports them as not settled). */
  unsettled: string[];
  /** Server uploads left alone that no record names (shown as warnings). */
  leftAlone: string[];
  /** Facts worth showing that change nothing. */
  notes: string[];
}

const norm = (e: string) => e.replace(/^W\//, '').replace(/"/g, '').trim().toLowerCase();
/** Same ETag, quotes and case aside. */
export const sameEtag = (a: string, b: string) => norm(a) === norm(b);
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MiB`;

/** Does some line of `lines` prove part `p`? */
const proves = (lines: LocalRecord['lines'], p: ServerPart) => lines.some((l) => l.partNumber === p.partNumber && norm(l.etag) === norm(p.etag));

/**
 * The longest prefix 1..k of `parts` that is a valid object (contiguous, every part but its last
 * ≥ 5 MiB) with every part proven, and the first reason it stops there (null: all of them — only
 * then is the upload completed: servers refuse a completion that names fewer parts than exist).
 */
function provenPrefix(parts: ServerPart[], lines: LocalRecord['lines']): { ok: ServerPart[]; why: string | null } {
  const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
  const ok: ServerPart[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const p = sorted[i];
    if (p.partNumber !== i + 1) return { ok, why: `the server's parts are ${sorted.map((x) => x.partNumber).join(', ')}: part ${i + 1} is missing (a gap)` };
    if (!proves(lines, p)) {
      const same = lines.filter((l) => l.partNumber === p.partNumber);
      return {
        ok,
        why: same.length
          ? `ETag differs: ${p.partNumber} (server ${norm(p.etag)}, record ${same.map((l) => norm(l.etag)).join(' / ')})`
          : `part ${p.partNumber} (ETag ${norm(p.etag)}) is on the server but in no record line`,
      };
    }
    ok.push(p);
    // a small part can only end the object: the parts after it cannot be in it (EntityTooSmall)
    if (i < sorted.length - 1 && p.size < MIN_PART_SIZE)
      return { ok, why: `part ${p.partNumber} is ${mib(p.size)}, below the 5 MiB minimum, and not the last part: S3 refuses such an object (EntityTooSmall)` };
  }
  return { ok, why: null };
}

/** A part list for a plan step: numbers, ETags unquoted. */
const asParts = (ps: ServerPart[]) => ps.map((p) => ({ partNumber: p.partNumber, etag: norm(p.etag) }));

/**
 * Settle every upload of `records` (their own, by the meta's key and upload id) and every recordless
 * upload of `uploads` whose parts are lines of a record. `orphans` are server uploads no record
 * names: `owned` ones (the key format can produce their key) left alone count as unsettled.
 */
export function settleMultipart(
  records: LocalRecord[],
  own: Map<LocalRecord, ServerUpload>,
  orphans: (ServerUpload & { owned: boolean })[],
  decision: MultipartDecision,
  abortOrphans: boolean,
): Settlement {
  const out: Settlement = { items: [], records: [], unsettled: [], leftAlone: [], notes: [] };
  const allLines = records.flatMap((r) => r.lines.map((l) => ({ ...l, record: r })));
  /**
   * Which record proves each orphan, when one does: the record mixes uploads (a part number twice,
   * as after the two-tag crash) and every part of the orphan is one of its lines that is not a part
   * of the record's own upload. An ETag is an MD5 of the content, so equal content alone proves nothing.
   */
  const provenBy = new Map<ServerUpload, { rec: LocalRecord; lines: LocalRecord['lines'] }>();
  for (const o of orphans) {
    if (!o.parts?.length) continue;
    for (const rec of records) {
      const mixed = new Set(rec.lines.map((l) => l.partNumber)).size < rec.lines.length;
      const ownParts = own.get(rec)?.parts ?? [];
      const free = rec.lines.filter((l) => !ownParts.some((p) => p.partNumber === l.partNumber && norm(p.etag) === norm(l.etag)));
      if (mixed && o.parts.every((p) => proves(free, p))) {
        provenBy.set(o, { rec, lines: free });
        break;
      }
    }
  }
  /** Lines no server part matches: a part lost on the server, or a part of an upload that is gone. */
  const attributed = (l: (typeof allLines)[number]) =>
    [...own.values(), ...orphans].some((u) => u.parts?.some((p) => p.partNumber === l.partNumber && norm(p.etag) === norm(l.etag)));
  const loose = allLines.filter((l) => !attributed(l));
  const blocked = new Set<LocalRecord>();

  for (const rec of records) {
    const server = own.get(rec)!;
    const base = { recordPath: rec.path, recordRole: 'own' as const, key: rec.key, uploadId: rec.uploadId };
    const facts = `record lines ${rec.lines.map((l) => `${l.partNumber}:${norm(l.etag).slice(0, 8)}`).join(' ') || 'none'}`;
    if (!server.parts) {
      out.items.push({
        ...base,
        op: 'forget',
        parts: [],
        reason: 'the server has no such upload (completed, aborted or expired): the record is removed so Fluent Bit stops retrying it',
      });
      continue;
    }
    const srv = `the server has ${server.parts.length} part(s) ${
      [...server.parts]
        .sort((a, b) => a.partNumber - b.partNumber)
        .map((p) => `${p.partNumber}:${norm(p.etag).slice(0, 8)} (${mib(p.size)})`)
        .join(', ') || ''
    }`.trim();
    if (decision === 'abort') {
      out.items.push({ ...base, op: 'abort', parts: [], reason: `abort requested (${srv}; ${facts})` });
      continue;
    }
    const { ok, why } = provenPrefix(server.parts, rec.lines);
    const last = ok.length ? ok[ok.length - 1].partNumber : 0;
    // a line beyond the server's parts that proves nothing anywhere: maybe this upload's part, lost
    const beyond = loose.filter((l) => l.record === rec && l.partNumber > last);
    // every part on the server, or none: a completion naming fewer parts than were uploaded is
    // refused (Ceph RGW: InvalidPart), and it would drop data the server holds
    const complete = !!ok.length && why === null && (!beyond.length || decision === 'complete');
    if (complete) {
      const left = beyond.length
        ? `; left out: record line(s) ${beyond.map((l) => `${l.partNumber}:${norm(l.etag).slice(0, 8)}`).join(', ')} match no part on the server`
        : '';
      out.items.push({
        ...base,
        op: 'complete',
        parts: asParts(ok),
        reason: `${left ? 'complete requested: every part on the server is proven by a record line and they form a valid object' : 'every part on the server is proven by a record line and they form a valid object'} (${srv}; ${facts})${left}`,
      });
      continue;
    }
    const whyNot =
      why ??
      (beyond.length
        ? `the record lists part(s) ${beyond.map((l) => l.partNumber).join(', ')} that no server upload has (lost, or of an upload that is gone)`
        : 'no part of it is proven by a record line');
    const reason = `${decision === 'complete' || why ? 'cannot complete' : 'the record and the server disagree, completing would build a wrong object'}: ${whyNot} (${srv}; ${facts}); left alone: choose abort to abort it${decision === 'complete' || why ? '' : ', or complete to complete what the server has'}`;
    out.items.push({ ...base, op: 'none', parts: [], reason });
    out.unsettled.push(`${rec.key} (${rec.uploadId}): ${whyNot}`);
    blocked.add(rec);
  }

  for (const o of orphans) {
    if (o.parts === null) {
      out.notes.push(`${o.key} (${o.uploadId}): listed as in progress, then gone when its parts were asked for (completed or aborted meanwhile)`);
      continue;
    }
    const proof = provenBy.get(o);
    if (proof) {
      const r = proof.rec;
      const base = { recordPath: r.path, recordRole: 'lines' as const, key: o.key, uploadId: o.uploadId };
      const lines = o.parts!.map((p) => `${p.partNumber}:${norm(p.etag).slice(0, 8)}`).join(' ');
      if (decision === 'abort') {
        out.items.push({
          ...base,
          op: 'abort',
          parts: [],
          reason: `abort requested: an upload with no record of its own, its parts (${lines}) are lines of ${r.path}`,
        });
        continue;
      }
      const { ok, why } = provenPrefix(o.parts!, proof.lines);
      if (ok.length && why === null) {
        out.items.push({
          ...base,
          op: 'complete',
          parts: asParts(ok),
          reason: `no record of its own (Fluent Bit wrote its part lines into another upload's record after a crash): every part (${lines}) is a line of ${r.path} and they form a valid object`,
        });
        continue;
      }
      out.items.push({ ...base, op: 'none', parts: [], reason: `its parts are lines of ${r.path}, but ${why ?? 'none can be completed'}; left alone` });
      out.unsettled.push(`${o.key} (${o.uploadId}): ${why}`);
      blocked.add(r);
      continue;
    }
    if (abortOrphans) {
      out.items.push({
        recordPath: null,
        key: o.key,
        uploadId: o.uploadId,
        op: 'abort',
        parts: [],
        reason: 'server upload with no local record; abort requested',
      });
      continue;
    }
    if (o.owned) out.unsettled.push(`${o.key} (${o.uploadId}): a server upload with no local record, and no record line proves its parts`);
    out.leftAlone.push(
      `Server upload with no local record: ${o.key} (${o.uploadId})${o.owned ? '' : ', not a key this output makes,'} is left alone; to abort it, ask for it (also abort server uploads that have no local record).`,
    );
  }
  for (const l of loose)
    out.notes.push(
      `${l.record.path}: line part_number=${l.partNumber} etag=${norm(l.etag)} matches no part of any open upload (its upload is gone, or the part was lost)`,
    );
  // A record goes once every upload it holds or proves is settled.
  for (const rec of records) if (!blocked.has(rec)) out.records.push(rec.path);
  return out;
}
