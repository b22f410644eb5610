/**
 * One chunk's {@link ChunkInfo} from what reading its file found (shared by the in-thread scan,
 * the scan workers and archive scans), and a string pool so that a store of 100,000 chunks holds
 * one copy of each repeated sentence, tag and hex field instead of one per chunk.
 */
import type { ChunkInfo, Draft, StreamKind } from '../../../shared/model';
import { parseMultipartRecord, type ChunkAnalysis } from '../chunk';
import { metaText } from './names';

/** Why an archive entry is cut short (a truncated archive): part of its `unreadable` message. */
export const ARCHIVE_CUT = 'the archive ends inside this file';

/** Statuses chunkio rejects at load. */
export const REJECTED: ReadonlySet<string> = new Set(['too-short', 'bad-magic', 'truncated']);

/** An integer in small-integer range as such (sizes from fstat are doubles: each would be boxed). */
export function smallInt(v: number): number {
  return v === (v | 0) ? v | 0 : v;
}

/** What reading one chunk file found. */
export interface FileFacts {
  size: number;
  mtime: string | null;
  analysis?: ChunkAnalysis;
  /** Reading the file failed (the sentence names the file). */
  readError?: string;
}

/**
 * The report entry of one chunk file (`fluentBitAction` is filled in once its stream is known).
 * `prefix` is `<stream>/`, passed by callers that build many entries of one stream.
 */
export function chunkInfoOf(name: string, stream: string, kind: StreamKind, f: FileFacts, prefix = `${stream}/`, pool?: StringPool): Draft<ChunkInfo> {
  const a = f.analysis;
  const h = a?.header;
  const meta = a?.meta ?? null;
  const metaStr = meta ? (pool ? pool.metaStrings(meta) : ([metaText(meta), meta.toString('hex')] as const)) : null;
  const dataLike = kind === 'data' || kind === 'quarantine';
  const info: Draft<ChunkInfo> = {
    name,
    path: prefix + name,
    stream,
    fileSize: smallInt(h?.fileSize ?? f.size),
    mtime: f.mtime,
    // A file that could not be read (permission denied…) is `unreadable`: what Fluent Bit makes of it is unknown.
    status: h?.status ?? (f.readError ? 'unreadable' : 'too-short'),
    message: f.readError ?? h?.message ?? 'not read',
    crcField: h?.crcField ?? null,
    crcComputed: h?.crcComputed ?? null,
    contentLengthField: h?.contentLengthField ?? null,
    metaLength: h?.metaLength ?? null,
    contentLength: h?.contentLength ?? null,
    tag: metaStr ? metaStr[0] : null,
    metaHex: metaStr ? metaStr[1] : null,
    records: dataLike ? (a?.count?.records ?? null) : null,
    firstRecordTime: dataLike ? (a?.count?.firstRecordTime ?? null) : null,
    lastRecordTime: dataLike ? (a?.count?.lastRecordTime ?? null) : null,
    slackZero: a?.slackZero ?? null,
    fluentBitAction: '',
  };
  if (kind === 'multipart' && meta && a?.content && !REJECTED.has(info.status)) info.multipart = parseMultipartRecord(meta, a.content);
  if (a?.nulTail !== null && a?.nulTail !== undefined) info.nulTail = smallInt(a.nulTail);
  return info;
}

/**
 * Equal strings share one copy. Used for the fields that repeat across chunks (messages, tags,
 * metadata hex, CRC fields, Fluent Bit actions); bounded so a store of unique values cannot grow it
 * without limit.
 */
export class StringPool {
  private readonly map = new Map<string, string>();
  /** The last few metadata byte strings seen, with their text and hex (a stream has few tags). */
  private readonly metas: Buffer[] = [];
  private readonly metaTexts: (readonly [string, string])[] = [];

  constructor(private readonly max = 50_000) {}

  share(s: string): string;
  share(s: string | null): string | null;
  share(s: string | null): string | null {
    if (s === null) return null;
    const have = this.map.get(s);
    if (have !== undefined) return have;
    if (this.map.size >= this.max) this.map.clear();
    this.map.set(s, s);
    return s;
  }

  /** Metadata as text and as hex, shared; equal bytes give the same strings without decoding again. */
  metaStrings(meta: Buffer): readonly [string, string] {
    for (let i = this.metas.length - 1; i >= 0; i--) if (this.metas[i].equals(meta)) return this.metaTexts[i];
    const t = [this.share(metaText(meta)), this.share(meta.toString('hex'))] as const;
    if (this.metas.length >= 8) {
      this.metas.shift();
      this.metaTexts.shift();
    }
    this.metas.push(meta);
    this.metaTexts.push(t);
    return t;
  }

  /** Share the repeating fields of `c` in place. */
  shareInfo(c: Draft<ChunkInfo>): Draft<ChunkInfo> {
    c.message = this.share(c.message);
    c.crcField = this.share(c.crcField);
    c.crcComputed = this.share(c.crcComputed);
    c.tag = this.share(c.tag);
    c.metaHex = this.share(c.metaHex);
    return c;
  }
}
