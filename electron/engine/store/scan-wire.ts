/**
 * The compact form in which a scan worker hands back a batch of chunk entries: numbers in one
 * Float64Array, strings as indexes into a per-batch table of distinct strings (so repeated messages
 * and tags cross the thread boundary once), and the rare extras (multipart records, read errors)
 * as sparse lists. {@link decodeChunk} rebuilds exactly the {@link ChunkInfo} that
 * {@link chunkInfoOf} built in the worker.
 */
import type { ChunkInfo, ChunkStatus, Draft, MultipartRecord, StreamKind } from '../../../shared/model';
import { smallInt, type StringPool } from './chunk-info';

/** One batch of chunk files of one stream, to be read by a worker. */
export interface ScanJob {
  kind: StreamKind;
  records: boolean;
  /** Content bytes kept for multipart records (0 = none). */
  keep: number;
  paths: (string | Uint8Array)[];
}

export interface WireBatch {
  n: number;
  /** NUM numbers per file (NaN = null). */
  num: Float64Array;
  /** STR string indexes per file into `table` (-1 = null). */
  str: Int32Array;
  table: string[];
  multipart: [number, MultipartRecord][];
  /** Files that could not be read: index, error code, error message. */
  errors: [number, string | undefined, string][];
}

const NUM = 8; // fileSize, contentLengthField, metaLength, contentLength, records, slackZero, bytesRead, nulTail
const STR = 9; // mtime, status, message, crcField, crcComputed, tag, metaHex, firstRecordTime, lastRecordTime

/** Collects a batch in a worker. */
export class WireWriter {
  private readonly num: Float64Array;
  private readonly str: Int32Array;
  private readonly table: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly multipart: [number, MultipartRecord][] = [];
  private readonly errors: [number, string | undefined, string][] = [];

  constructor(private readonly n: number) {
    this.num = new Float64Array(n * NUM);
    this.str = new Int32Array(n * STR);
  }

  private s(v: string | null): number {
    if (v === null) return -1;
    let i = this.index.get(v);
    if (i === undefined) {
      i = this.table.length;
      this.table.push(v);
      this.index.set(v, i);
    }
    return i;
  }

  put(i: number, c: ChunkInfo, bytesRead: number): void {
    const o = i * NUM;
    const num = this.num;
    num[o] = c.fileSize;
    num[o + 1] = c.contentLengthField ?? NaN;
    num[o + 2] = c.metaLength ?? NaN;
    num[o + 3] = c.contentLength ?? NaN;
    num[o + 4] = c.records ?? NaN;
    num[o + 5] = c.slackZero === true ? 1 : c.slackZero === false ? 0 : NaN;
    num[o + 6] = bytesRead;
    num[o + 7] = c.nulTail ?? NaN;
    const p = i * STR;
    const str = this.str;
    str[p] = this.s(c.mtime);
    str[p + 1] = this.s(c.status);
    str[p + 2] = this.s(c.message);
    str[p + 3] = this.s(c.crcField);
    str[p + 4] = this.s(c.crcComputed);
    str[p + 5] = this.s(c.tag);
    str[p + 6] = this.s(c.metaHex);
    str[p + 7] = this.s(c.firstRecordTime);
    str[p + 8] = this.s(c.lastRecordTime);
    if (c.multipart) this.multipart.push([i, c.multipart]);
  }

  fail(i: number, err: unknown): void {
    const e = err as NodeJS.ErrnoException & { reason?: string };
    // A SafeReadError's reason is the problem without the path (the reader names the file).
    if (typeof e?.reason === 'string') this.errors.push([i, e.code ?? 'ENOTREG', e.reason]);
    else this.errors.push([i, e?.code, e?.message ?? String(err)]);
  }

  finish(): WireBatch {
    return { n: this.n, num: this.num, str: this.str, table: this.table, multipart: this.multipart, errors: this.errors };
  }
}

/** Integers come back as small integers, so objects hold them unboxed (no HeapNumber each). */
const int = smallInt;
const num = (v: number): number | null => (Number.isNaN(v) ? null : int(v));

/** Reads a batch on the main thread; repeated strings go through `pool`. */
export class WireReader {
  private readonly shared: (string | undefined)[];
  private readonly multipart: Map<number, MultipartRecord>;

  constructor(
    readonly batch: WireBatch,
    private readonly pool: StringPool,
  ) {
    this.shared = new Array<string | undefined>(batch.table.length);
    this.multipart = new Map(batch.multipart);
  }

  private t(i: number): string | null {
    return i < 0 ? null : this.batch.table[i];
  }

  private sh(i: number): string | null {
    if (i < 0) return null;
    let v = this.shared[i];
    if (v === undefined) v = this.shared[i] = this.pool.share(this.batch.table[i]);
    return v;
  }

  bytesRead(i: number): number {
    return this.batch.num[i * NUM + 6];
  }

  /** The entry of file `i` (read without error); `prefix` is `<stream>/`. Key order as in chunkInfoOf. */
  chunk(i: number, name: string, stream: string, prefix: string): Draft<ChunkInfo> {
    const { num: n, str: s } = this.batch;
    const o = i * NUM;
    const p = i * STR;
    const slack = n[o + 5];
    const info: Draft<ChunkInfo> = {
      name,
      path: prefix + name,
      stream,
      fileSize: int(n[o]),
      mtime: this.t(s[p]),
      status: this.sh(s[p + 1]) as ChunkStatus,
      message: this.sh(s[p + 2]) as string,
      crcField: this.sh(s[p + 3]),
      crcComputed: this.sh(s[p + 4]),
      contentLengthField: num(n[o + 1]),
      metaLength: num(n[o + 2]),
      contentLength: num(n[o + 3]),
      tag: this.sh(s[p + 5]),
      metaHex: this.sh(s[p + 6]),
      records: num(n[o + 4]),
      firstRecordTime: this.t(s[p + 7]),
      lastRecordTime: this.t(s[p + 8]),
      slackZero: Number.isNaN(slack) ? null : slack === 1,
      fluentBitAction: '',
    };
    const mp = this.multipart.get(i);
    if (mp) info.multipart = mp;
    const nul = n[o + 7];
    if (!Number.isNaN(nul)) info.nulTail = int(nul);
    return info;
  }
}
