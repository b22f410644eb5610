/**
 * Turn a root's tree (with chunk analyses attached) into a RootReport, classifying every entry the
 * way Fluent Bit's chunkio scan does (docs/fluent-bit-store-format.md#layout) and saying what Fluent Bit will
 * do with each file and folder.
 */
import type { ChunkInfo, Draft, IgnoredEntry, RootReport, SeqIndexInfo, SequenceInfo, StreamInfo, StreamKind } from '../../../shared/model';
import { DAMAGED_CHUNK_STATUSES } from '../../../shared/model';
import { ARCHIVE_CUT, chunkInfoOf, REJECTED, StringPool } from './chunk-info';
import { seqFailureOf, seqIndexInfo } from './seq-index';
import { OWN_DIR, STREAM_TIME_RE, type TreeNode } from './tree';

export function streamKind(name: string): StreamKind {
  if (name === 'multipart_upload_metadata') return 'multipart';
  if (name === 'quarantine') return 'quarantine';
  if (name === 'sequence') return 'sequence';
  return 'data';
}

/** `%Y-%m-%dT%H:%M:%S` (local time of the Fluent Bit start, no zone) → the same text, validated. */
export function streamStartTime(name: string): string | null {
  const m = STREAM_TIME_RE.exec(name);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const dt = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
}

function entryType(n: TreeNode): IgnoredEntry['type'] {
  return n.type;
}

export function ignoredReason(n: TreeNode, level: 'root' | 'stream'): string {
  if (n.name.startsWith('.')) return `name starts with "." — chunkio skips dot entries${n.name === OWN_DIR ? " (Store Doctor's own backup folder)" : ''}`;
  if (n.type === 'symlink')
    return `symbolic link${n.linkTarget ? ` to ${n.linkTarget}` : ''} — chunkio registers only real ${level === 'root' ? 'directories as streams' : 'regular files as chunks'}`;
  if (n.type === 'other') return 'not a regular file or directory (socket, FIFO, device) — ignored by chunkio';
  if (level === 'root') return 'file directly in the root — only folders are streams; Fluent Bit ignores it';
  return 'folder inside a stream — chunkio registers only files directly in a stream and never looks deeper';
}

function sorted(n: TreeNode): TreeNode[] {
  return n.children ? [...n.children.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : [];
}

function chunkAction(kind: StreamKind, c: ChunkInfo, streamHasValid: boolean, records: number | null): string {
  if (c.status === 'unreadable')
    return c.message.includes(ARCHIVE_CUT)
      ? `unknown: ${ARCHIVE_CUT}, so its bytes in the store are unknown; get a complete archive to see what Fluent Bit does with it`
      : 'unknown: Store Doctor could not read the file; run it as the user Fluent Bit runs as, or as root, to see what Fluent Bit does with it';
  if (REJECTED.has(c.status)) {
    return streamHasValid
      ? 'rejected at load; never uploaded and left on disk while its stream holds a valid chunk'
      : 'rejected at load; deleted with its stream at a graceful stop (the stream has no valid sibling)';
  }
  const legacy = c.status === 'legacy-length' ? `header rewritten at load: L inferred as ${c.contentLength} incl. padding; then ` : '';
  const crc = c.status === 'crc-mismatch' ? 'CRC not checked by Fluent Bit in store_dir; ' : '';
  switch (kind) {
    case 'quarantine':
      return `${legacy}${crc}never uploaded: quarantined (Fluent Bit 4.2.x would upload it as an old buffer after a downgrade)`;
    case 'multipart': {
      const mp = c.multipart;
      if (c.status === 'zero-byte') return 're-initialised as an empty record with no upload id; skipped at start and left on disk forever';
      if (!mp) return `${legacy}${crc}restored at start as a multipart upload record`;
      if (mp.problems.length && mp.parts.length === 0) return `${legacy}skipped at start (${mp.problems[0]}) and left on disk forever`;
      if (mp.problems.some((p) => p.startsWith('Metadata has no newline'))) return `${legacy}skipped at start (no upload id) and left on disk forever`;
      const stop = mp.stoppedAt ? `; parsing stops at line ${mp.stoppedAt.line}, so later parts are lost` : '';
      return `${legacy}${crc}CompleteMultipartUpload tried at next start with ${mp.completeParts.length} part(s) (1..${mp.lastPartNumber})${stop}; deleted only if it succeeds`;
    }
    case 'sequence':
      return `${legacy}${crc}registered as a chunk (a marker): keeps sequence/ through graceful stops; the $INDEX owner never uploads it, another S3 output sharing this root would upload it as an object`;
    default:
      if (c.status === 'zero-byte')
        return 're-initialised as an empty chunk and uploaded as a 0-byte object with the empty tag at next start (consumes an $INDEX value)';
      return `${legacy}${crc}uploaded at next start as an old buffer (PutObject, key time = restart time${records !== null ? `, ${records} record${records === 1 ? '' : 's'}` : ''})`;
  }
}

/**
 * The report of one stream folder. Its chunk files carry their analysis (archive scans), or `read`
 * holds the entries of all of them (directory scans).
 */
export function classifyStream(n: TreeNode, pool: StringPool, read?: Draft<ChunkInfo>[]): StreamInfo {
  const kind = streamKind(n.name);
  const chunks: Draft<ChunkInfo>[] = read ? read.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : [];
  const ignored: IgnoredEntry[] = [];
  for (const c of sorted(n)) {
    if (c.type === 'file' && !c.name.startsWith('.')) {
      if (!read) chunks.push(pool.shareInfo(chunkInfoOf(c.name, n.name, kind, c)));
    } else if (kind === 'sequence' && c.name === 'index_metadata' && c.type === 'directory') {
      ignored.push({
        path: `${n.name}/${c.name}`,
        type: 'directory',
        reason: 'holds the $INDEX files (seq_index_<id>); chunkio never looks inside, so it registers no chunk',
      });
    } else ignored.push({ path: `${n.name}/${c.name}`, type: entryType(c), reason: ignoredReason(c, 'stream') });
  }
  const valid = chunks.filter((c) => !REJECTED.has(c.status) && c.status !== 'unreadable').length;
  const unread = chunks.filter((c) => c.status === 'unreadable').length;
  const memo = new Map<number | null, string>();
  for (const c of chunks) {
    // The common case (a valid chunk of a data stream) depends on the record count only.
    if (kind === 'data' && c.status === 'ok') {
      let a = memo.get(c.records);
      if (a === undefined) memo.set(c.records, (a = pool.share(chunkAction(kind, c, valid > 0, c.records))));
      c.fluentBitAction = a;
    } else c.fluentBitAction = pool.share(chunkAction(kind, c, valid > 0, c.records));
  }
  let fate: string;
  if (n.listError) fate = `unknown: the folder could not be read (${n.listError})`;
  else if (valid === 0 && unread > 0)
    fate = `unknown: ${unread} of its files could not be read by Store Doctor (Fluent Bit keeps the folder if one of them is a valid chunk)`;
  else if (valid === 0) {
    fate =
      kind === 'sequence'
        ? 'deleted with index_metadata/ and every seq_index file (no registered chunk keeps it: the $INDEX reset)'
        : `deleted${chunks.length || ignored.length ? ' with everything inside' : ''} (no registered chunk)`;
  } else if (kind === 'data') fate = 'kept while it holds chunks; deleted at a graceful stop once all are uploaded';
  else if (kind === 'quarantine') fate = 'kept (quarantined chunks are never uploaded or deleted by Fluent Bit)';
  else if (kind === 'multipart') fate = 'kept while records remain; records are deleted when their upload completes';
  else fate = 'kept: a registered chunk (marker) protects it and its seq_index files';
  return {
    name: n.name,
    kind,
    startTime: kind === 'data' ? streamStartTime(n.name) : null,
    chunks,
    ignored,
    totalBytes: chunks.reduce((s, c) => s + c.fileSize, 0),
    fateOnGracefulStop: fate,
    writable: n.writable ?? null,
  };
}

/**
 * The report of one root. Streams carry their finished report (`node.report`, directory scans) or
 * their chunk files carry their analysis (archive scans). `pool` shares repeated strings.
 */
export function classifyRoot(root: TreeNode, bucket: string, rootPath: string, pool: StringPool = new StringPool()): RootReport {
  const streams: StreamInfo[] = [];
  const ignored: IgnoredEntry[] = [];
  for (const c of sorted(root)) {
    if (c.type === 'directory' && !c.name.startsWith('.')) streams.push(c.report ?? classifyStream(c, pool));
    else ignored.push({ path: c.name, type: entryType(c), reason: ignoredReason(c, 'root') });
  }
  const seqIndex: SeqIndexInfo[] = [];
  const seqNode = root.children?.get('sequence');
  const meta = seqNode?.children?.get('index_metadata');
  if (meta?.type === 'directory') {
    for (const f of sorted(meta)) {
      if (f.name.startsWith('.') || !f.name.startsWith('seq_index_')) continue;
      const rel = `sequence/index_metadata/${f.name}`;
      const shown = `${rootPath.replace(/\/$/, '')}/${rel}`;
      const failure =
        f.seqFailure ??
        (f.type !== 'file'
          ? seqFailureOf(shown, { node: f })
          : f.readError
            ? { status: 'unreadable' as const, message: f.readError }
            : f.raw && f.size > f.raw.length
              ? seqFailureOf(shown, { tooLarge: f.size })
              : undefined);
      seqIndex.push(seqIndexInfo(f.name, rel, f.raw ?? Buffer.alloc(0), f.raw ? f.size : 0, f.mtime, failure));
    }
  }
  // index_metadata/ (or sequence/) that could not be listed: its seq_index files are unknown, not missing.
  const indexMetadataError = meta?.listError ?? (seqNode?.type === 'directory' ? seqNode.listError : undefined) ?? null;
  return finishRoot(bucket, rootPath, streams, seqIndex, ignored, meta?.type === 'directory', indexMetadataError);
}

/**
 * A root's report from its streams and seq_index files: what protects `sequence/`, and the totals
 * (also used to refresh a root after a write changed some of its streams).
 */
export function finishRoot(
  bucket: string,
  rootPath: string,
  streams: readonly StreamInfo[],
  seqIndex: readonly SeqIndexInfo[],
  ignored: readonly IgnoredEntry[],
  indexMetadataPresent: boolean,
  indexMetadataError: string | null = null,
): RootReport {
  const seqStream = streams.find((s) => s.kind === 'sequence');
  const markers = seqStream ? seqStream.chunks.map((c) => c.name) : [];
  const validMarkers = seqStream ? seqStream.chunks.filter((c) => !REJECTED.has(c.status) && c.status !== 'unreadable').length : 0;
  const sequence: SequenceInfo = {
    present: !!seqStream,
    indexMetadataPresent,
    markerChunks: markers,
    deletedOnGracefulStop: !!seqStream && validMarkers === 0,
    indexMetadataError,
    message: !seqStream
      ? 'No sequence/ folder: no $INDEX state on disk (the key format has no $INDEX, or a graceful stop already deleted it).'
      : validMarkers > 0
        ? `Protected by ${validMarkers} marker chunk(s): graceful stops keep sequence/ and its seq_index files (only safe when every S3 output sharing this root uses $INDEX).`
        : `No valid chunk in sequence/${markers.length ? ' (markers present but rejected at load)' : ''}: the next graceful stop or hot reload deletes it with every seq_index file, and $INDEX restarts at 0.`,
  };
  // Totals in one pass (no whole-store arrays: a store may hold 100,000s of chunks).
  const totals = { chunks: 0, bytes: 0, records: 0, damaged: 0, quarantined: 0, pending: 0 };
  for (const st of streams) {
    const dataLike = st.kind === 'data' || st.kind === 'quarantine';
    totals.chunks += st.chunks.length;
    if (st.kind === 'quarantine') totals.quarantined += st.chunks.length;
    for (const c of st.chunks) {
      totals.bytes += c.fileSize;
      if (dataLike) totals.records += c.records ?? 0;
      if (DAMAGED_CHUNK_STATUSES.includes(c.status)) totals.damaged++;
      if (st.kind === 'data' && !REJECTED.has(c.status) && c.status !== 'unreadable') totals.pending++;
    }
  }
  return { bucket, path: rootPath, streams, seqIndex, sequence, ignored, totals };
}
