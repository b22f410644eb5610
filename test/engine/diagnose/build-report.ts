/** Hand-built StoreReports for diagnose tests (shape as the store scanner produces it). */
import { parseFluentBitConfig } from '../../../electron/engine/fluentbit';
import type { ChunkInfo, ChunkStatus, MultipartRecord, RootReport, S3Evidence, SeqIndexInfo, StoreReport, StreamInfo } from '../../../shared/model';

export function chunk(stream: string, name: string, over: Partial<ChunkInfo> & { status?: ChunkStatus } = {}): ChunkInfo {
  return {
    name,
    path: `${stream}/${name}`,
    stream,
    fileSize: 4096,
    mtime: '2026-11-29T10:00:00.000Z',
    status: 'ok',
    message: 'valid chunk',
    crcField: '00000000',
    crcComputed: null,
    contentLengthField: 100,
    metaLength: 7,
    contentLength: 100,
    tag: 'app.web',
    metaHex: null,
    records: 2,
    firstRecordTime: null,
    lastRecordTime: null,
    fluentBitAction: 'uploaded at the next start',
    ...over,
  };
}

export function stream(name: string, kind: StreamInfo['kind'], chunks: ChunkInfo[]): StreamInfo {
  return { name, kind, startTime: null, chunks, ignored: [], totalBytes: chunks.reduce((a, c) => a + c.fileSize, 0), fateOnGracefulStop: 'kept' };
}

export function seq(id: number, value: number | null, status: SeqIndexInfo['status'] = 'ok'): SeqIndexInfo {
  return {
    outputId: id,
    fileName: `seq_index_${id}`,
    path: `sequence/index_metadata/seq_index_${id}`,
    raw: value === null ? '' : String(value),
    rawHex: '',
    fileSize: value === null ? 0 : String(value).length,
    value,
    valueText: value === null ? null : String(value),
    status,
    message: status === 'ok' ? `next index ${value}` : 'empty file: Fluent Bit refuses to start',
    mtime: null,
  };
}

export function mpRecord(s3Key: string, uploadId: string, parts: [number, string][], problems: string[] = []): MultipartRecord {
  const ps = parts.map(([partNumber, etag]) => ({ partNumber, etag }));
  return { key: `/${s3Key}`, s3Key, uploadId, parts: ps, lastPartNumber: ps.at(-1)?.partNumber ?? null, completeParts: ps, stoppedAt: null, problems };
}

export function root(bucket: string, opts: { path?: string; seqIndex?: SeqIndexInfo[]; streams?: StreamInfo[]; markers?: string[] } = {}): RootReport {
  const seqIndex = opts.seqIndex ?? [];
  const markers = opts.markers ?? [];
  const present = seqIndex.length > 0 || markers.length > 0;
  const streams = opts.streams ?? [];
  const chunks = streams.flatMap((s) => s.chunks);
  return {
    bucket,
    path: opts.path ?? `/data/store/${bucket}`,
    streams,
    seqIndex,
    sequence: {
      present,
      indexMetadataPresent: seqIndex.length > 0,
      markerChunks: markers,
      deletedOnGracefulStop: markers.length === 0,
      message: present
        ? markers.length
          ? 'protected by a marker chunk'
          : 'No valid chunk in sequence/: deleted at the next graceful stop'
        : 'No sequence/ folder',
    },
    ignored: [],
    totals: { chunks: chunks.length, bytes: 0, records: 0, damaged: 0, quarantined: 0, pending: 0 },
  };
}

export function report(...roots: RootReport[]): StoreReport {
  return {
    source: { kind: 'store_dir', path: '/data/store', readOnly: true, description: 'test store' },
    roots,
    scannedAt: '2026-11-29T12:00:00.000Z',
    problems: [],
  };
}

export function evidence(keys: [string, string][], over: Partial<S3Evidence> = {}): S3Evidence {
  return {
    source: 'offline',
    bucket: null,
    scope: ['listing.json'],
    objects: keys.map(([key, lastModified]) => ({ key, size: 10, etag: '"e"', lastModified })),
    versions: null,
    multipartUploads: null,
    notes: [],
    requests: 0,
    complete: true,
    ...over,
  };
}

/** A classic config of `[OUTPUT]` sections, each given as `key value; key value`. */
export const conf = (...outputs: string[]) =>
  parseFluentBitConfig(
    outputs
      .map(
        (o) =>
          `[OUTPUT]\n${o
            .split(';')
            .map((l) => `    ${l.trim()}`)
            .join('\n')}\n`,
      )
      .join(''),
    { fileName: '/etc/fb/fluent-bit.conf', env: {} },
  );
