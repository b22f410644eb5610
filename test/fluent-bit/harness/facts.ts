/**
 * Facts for a fixture's expected.json, derived by reading the files independently of the engine
 * (support/store.ts) and by parsing Fluent Bit's own log lines. Same field names as the 5.0.9
 * fixtures (test/fixtures/fluent-bit-real/<scenario>/expected.json), plus what tells the versions
 * apart: the inferred content length, slack, NUL bytes, page padding, file modes.
 */
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { readStore, type ChunkFacts } from '../support/store';

const recordDate = (line: string | undefined): string | undefined => {
  if (!line) return undefined;
  try {
    return (JSON.parse(line) as { date?: string }).date;
  } catch {
    return undefined;
  }
};

function chunkFact(c: ChunkFacts, root: string, prefix: string) {
  const full = path.join(root, c.path);
  const base = {
    path: `${prefix}/${c.path}`,
    stream: c.stream,
    fileSize: c.fileSize,
    mtime: statSync(full).mtime.toISOString(),
    mode: c.mode,
    crcField: c.crcField,
    contentLengthField: c.contentLengthField,
    metaLen: c.metaLength,
    meta: c.meta,
    /** What chunkio reads as content: the field, or (field 0, first byte not NUL) the rest of the file. */
    contentBytes: c.contentBytes,
    legacyLength: c.legacyLength,
    slackBytes: c.slackBytes,
    nulInContent: c.nulInContent,
    pagePadded: c.pagePadded,
  };
  if (c.multipartParts) {
    const nl = c.meta.indexOf('\n');
    return { ...base, payloadKind: 'multipart_upload_metadata', s3Key: c.meta.slice(0, nl), uploadId: c.meta.slice(nl + 1), parts: c.multipartParts };
  }
  const recs = c.lines?.records ?? [];
  return {
    ...base,
    payloadKind: 'json_lines',
    records: recs.length,
    badLines: c.lines?.bad.length ?? 0,
    firstRecordDate: recordDate(recs[0]),
    lastRecordDate: recordDate(recs[recs.length - 1]),
    tag: c.meta,
  };
}

/** The `store` part of a stage in expected.json. `labDir/store/<bucket>` is tarred as `store/<bucket>`. */
export function storeFacts(labDir: string, bucket: string) {
  const root = path.join(labDir, 'store', bucket);
  const s = readStore(root);
  const prefix = `store/${bucket}`;
  const chunkFiles = s.chunks.map((c) => chunkFact(c, root, prefix));
  const data = chunkFiles.filter((c) => c.payloadKind === 'json_lines' && c.stream !== 'quarantine' && c.stream !== 'sequence');
  const quarantined = chunkFiles.filter((c) => c.stream === 'quarantine');
  const byTag: Record<string, number> = {};
  for (const c of data) if ('records' in c) byTag[c.tag] = (byTag[c.tag] ?? 0) + c.records;
  const seqIndexFiles: Record<string, { path: string; value: string; fileSize: number; mtime: string; mode: string }> = {};
  for (const f of s.seqIndex)
    seqIndexFiles[path.basename(f.file)] = {
      path: `${prefix}/${f.file}`,
      value: f.raw,
      fileSize: f.size,
      mtime: statSync(path.join(root, f.file)).mtime.toISOString(),
      mode: f.mode,
    };
  const recordsOf = (l: typeof chunkFiles) => l.reduce((a, c) => a + ('records' in c ? c.records : 0), 0);
  return {
    streams: s.streams.map((x) => x.name),
    sequenceDirPresent: s.streams.some((x) => x.name === 'sequence'),
    quarantineDirPresent: s.quarantinePresent,
    sequenceEntries: s.sequenceEntries,
    seqIndexFiles,
    chunkFiles,
    pendingChunkFiles: data.length,
    pendingRecords: recordsOf(data),
    pendingRecordsByTag: byTag,
    quarantinedChunkFiles: quarantined.length,
    quarantinedRecords: recordsOf(quarantined),
    multipartMetadataFiles: chunkFiles.filter((c) => c.payloadKind === 'multipart_upload_metadata').length,
  };
}

export type StoreStageFacts = ReturnType<typeof storeFacts>;

// ── Fluent Bit's log ──

const EVENTS: { type: string; re: RegExp; fields?: (m: RegExpExecArray) => Record<string, unknown> }[] = [
  { type: 'continuing_at', re: /Successfully recovered index\. Continuing at index=(\d+)/, fields: (m) => ({ index: Number(m[1]) }) },
  { type: 'put_object', re: /Successfully uploaded object (\S+)/, fields: (m) => ({ key: m[1] }) },
  { type: 'create_multipart', re: /Successfully initiated multipart upload for (\S+), UploadId=(\S+)/, fields: (m) => ({ key: m[1], uploadId: m[2] }) },
  {
    type: 'upload_part',
    re: /Successfully uploaded part #(\d+) for (\S+), UploadId=([^,\s]+), ETag=(\S+)/,
    fields: (m) => ({ part: Number(m[1]), key: m[2], uploadId: m[3], etag: m[4] }),
  },
  { type: 'complete_multipart', re: /Successfully completed multipart upload for (\S+), UploadId=(\S+)/, fields: (m) => ({ key: m[1], uploadId: m[2] }) },
  { type: 'complete_error', re: /CompleteMultipartUpload API responded with error='([^']*)'/, fields: (m) => ({ error: m[1] }) },
  { type: 'restored_upload', re: /Successfully read existing upload from file system, s3_key=(\S+)/, fields: (m) => ({ key: m[1] }) },
  { type: 'put_failed', re: /PutObject request failed/ },
  { type: 'retry_exhausted', re: /failed to send (\d+) times, will not retry/, fields: (m) => ({ tries: Number(m[1]) }) },
  { type: 'quarantined', re: /moved to quarantine/ },
  { type: 'old_buffers', re: /Sending locally buffered data from previous executions/ },
  { type: 'exit_flush', re: /Sending all locally buffered data to S3/ },
  { type: 'exit_flush_failed', re: /Could not send all chunks on exit/ },
  { type: 'signal', re: /caught signal \((\w+)\)/, fields: (m) => ({ signal: m[1] }) },
];

const TS = /^\[(\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?)\]/;

export interface LogFacts {
  banner: string | null;
  /** `YYYY/MM/DD HH:MM:SS` or `YYYY/MM/DD HH:MM:SS.mmm` (from the first timestamped line). */
  timestampFormat: string | null;
  events: ({ type: string; ts: string | null } & Record<string, unknown>)[];
  counts: Record<string, number>;
  /** The first raw line of each event type, as Fluent Bit printed it. */
  lineSamples: Record<string, string>;
}

export function logFacts(text: string): LogFacts {
  const lines = text.split('\n');
  const banner = /^Fluent Bit v(\S+)/m.exec(text)?.[0] ?? null;
  const first = lines.map((l) => TS.exec(l)?.[1]).find(Boolean) ?? null;
  const timestampFormat = first ? `YYYY/MM/DD HH:MM:SS${first.includes('.') ? `.${'m'.repeat(first.split('.')[1].length)}` : ''}` : null;
  const events: LogFacts['events'] = [];
  const counts: Record<string, number> = {};
  const lineSamples: Record<string, string> = {};
  for (const l of lines) {
    for (const e of EVENTS) {
      const m = e.re.exec(l);
      if (!m) continue;
      events.push({ type: e.type, ts: TS.exec(l)?.[1] ?? null, ...(e.fields?.(m) ?? {}) });
      counts[e.type] = (counts[e.type] ?? 0) + 1;
      lineSamples[e.type] ??= l;
    }
  }
  return { banner, timestampFormat, events, counts, lineSamples };
}
