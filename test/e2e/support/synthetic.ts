/**
 * Synthetic StoreReport / Diagnosis payloads shaped exactly like the engine's, for renderer tests
 * and the UI benchmark (100k+ chunks). Isomorphic: no Node or DOM imports.
 */
import type { ChunkInfo, ChunkStatus, Diagnosis, StoreReport, StreamInfo } from '../../../shared/model';

const STATUSES: ChunkStatus[] = ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'legacy-length', 'zero-byte', 'truncated', 'crc-mismatch'];
const TAGS = ['app.web', 'app.db', 'sys.kernel', 'k8s.ingress', 'audit.login'];

export function syntheticChunk(stream: string, i: number, baseMs = Date.UTC(2026, 10, 29, 12, 0, 0)): ChunkInfo {
  const status = STATUSES[i % STATUSES.length];
  const size = 24 + ((i * 7919) % 5_000_000);
  const name = `${(1000 + (i % 9000)).toString()}-${(1764417600 + i).toString()}.${(i * 2654435761) % 1_000_000_000}.flb`;
  const tag = TAGS[i % TAGS.length];
  return {
    name,
    path: `${stream}/${name}`,
    stream,
    fileSize: size,
    mtime: new Date(baseMs - ((i * 104729) % 86_400_000)).toISOString(),
    status,
    message: status === 'ok' ? 'valid chunk' : `chunk is ${status}`,
    crcField: '00000000',
    crcComputed: null,
    contentLengthField: size - 24 - tag.length,
    metaLength: tag.length,
    contentLength: size - 24 - tag.length,
    tag,
    metaHex: null,
    records: (i % 500) + 1,
    firstRecordTime: new Date(baseMs - 60_000).toISOString(),
    lastRecordTime: new Date(baseMs).toISOString(),
    slackZero: true,
    fluentBitAction:
      status === 'ok' || status === 'legacy-length'
        ? 'uploaded on next start'
        : status === 'zero-byte'
          ? 'uploaded as an empty object'
          : 'rejected and left on disk',
  };
}

/** A store with `count` chunks spread over `streams` data streams of one root `bucket`. */
export function syntheticReport(count: number, streams = 8, bucket = 'logs-bucket'): StoreReport {
  const perStream = Math.ceil(count / streams);
  const list: StreamInfo[] = [];
  let made = 0;
  for (let s = 0; s < streams && made < count; s++) {
    const name = `2026-11-${String(10 + s).padStart(2, '0')}T08:00:00`;
    const chunks: ChunkInfo[] = [];
    for (let j = 0; j < perStream && made < count; j++, made++) chunks.push(syntheticChunk(name, made));
    list.push({
      name,
      kind: 'data',
      startTime: `2026-11-${String(10 + s).padStart(2, '0')}T08:00:00.000Z`,
      chunks,
      ignored: [],
      totalBytes: chunks.reduce((a, c) => a + c.fileSize, 0),
      fateOnGracefulStop: 'kept (has registered chunks)',
    });
  }
  const bytes = list.reduce((a, s) => a + s.totalBytes, 0);
  return {
    source: { kind: 'root', path: `/data/fluent-bit/${bucket}`, readOnly: true, description: `a bucket root with ${count} chunks` },
    roots: [
      {
        bucket,
        path: `/data/fluent-bit/${bucket}`,
        streams: list,
        seqIndex: [
          {
            outputId: 0,
            fileName: 'seq_index_0',
            path: 'sequence/index_metadata/seq_index_0',
            raw: '9',
            rawHex: '39',
            fileSize: 1,
            value: 9,
            valueText: '9',
            status: 'ok',
            message: 'next index 9',
            mtime: '2026-11-29T12:00:00.000Z',
          },
        ],
        sequence: {
          present: true,
          indexMetadataPresent: true,
          markerChunks: [],
          deletedOnGracefulStop: true,
          message: 'deleted on graceful stop with every seq index',
        },
        ignored: [],
        totals: { chunks: count, bytes, records: 0, damaged: 0, quarantined: 0, pending: count },
      },
    ],
    scannedAt: '2026-11-29T12:00:00.000Z',
    problems: [],
  };
}

export function syntheticDiagnosis(bucket = 'logs-bucket'): Diagnosis {
  return {
    at: '2026-11-29T12:00:00.000Z',
    fluentBit: { source: 'inferred', version: null, assumes: ['5.0.9', '5.1.1'], text: 'Fluent Bit 5.x, inferred from the store', evidence: [] },
    storeFindings: [],
    outputs: [
      {
        id: 0,
        displayName: 's3.0',
        bucket,
        keyFormat: '/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX',
        rootPath: `/data/fluent-bit/${bucket}`,
        persistedNextIndex: 9,
        highestIndexInBucket: 16,
        safeNextIndex: 17,
        lowerBoundNextIndex: 17,
        indexEvidence: { coverage: 'complete', text: `a complete listing of bucket ${bucket}` },
        timeline: [
          { time: '2026-11-29T10:00:00.000Z', index: 14, key: 'app.web/2026/11/29/10_00_00-14' },
          { time: '2026-11-29T10:01:00.000Z', index: 15, key: 'app.web/2026/11/29/10_01_00-15' },
          { time: '2026-11-29T10:02:00.000Z', index: 16, key: 'app.web/2026/11/29/10_02_00-16' },
          { time: '2026-11-29T11:00:00.000Z', index: 0, key: 'app.web/2026/11/29/11_00_00-0' },
          { time: '2026-11-29T11:01:00.000Z', index: 1, key: 'app.web/2026/11/29/11_01_00-1' },
        ],
        resets: [{ time: '2026-11-29T11:00:00.000Z', from: 16, to: 0 }],
        collision: {
          format: '/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX',
          hasIndex: true,
          hasUuid: false,
          hasTag: true,
          timeResolutionSeconds: 1,
          risk: 'same-window',
          riskText: 'same tag, same second only',
          explanation: 'two keys collide only with the same tag in the same second',
          literalPrefix: '',
        },
        findings: [
          {
            code: 'INDEX_BEHIND_BUCKET',
            severity: 'critical',
            summary: 'seq_index_0 says 9 but the bucket already has index 16',
            evidence: ['app.web/2026/11/29/10_02_00-16'],
            action: 'Repair the index to 17 before restarting Fluent Bit.',
            next: [{ label: 'Plan the index repair (next index 17)', request: { name: 'repair.plan', input: { action: 'repair-index', outputId: 0 } } }],
            outputId: 0,
          },
        ],
      },
    ],
    checks: {
      store: true,
      config: ['/etc/fluent-bit/fluent-bit.conf'],
      outputs: [{ id: 0, displayName: 's3.0', listing: 'complete', versions: false, multipart: false }],
      roots: [{ bucket: 'logs-bucket', path: '/data/fluent-bit/logs-bucket', index: 'known' }],
      complete: true,
    },
  };
}
