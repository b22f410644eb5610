/**
 * A report is never changed in place (issue 19, item 6): three caches are keyed by report objects
 * (stream facts, stream digests, the guard's sums), so an in-place change would leave them
 * answering for the old contents. The types hold the rule: every line marked `@ts-expect-error`
 * below must stay a type error, or `npm run typecheck` fails. The merge of an apply's update is
 * checked at run time on a frozen report.
 */
import { describe, expect, it } from 'vitest';
import type { ChunkInfo, RootReport, StoragePathReport, StoreReport, StoreUpdate, StreamInfo } from '../../shared/model';
import { mergeStoreUpdate } from '../../shared/store-update';
import { syntheticReport } from '../e2e/support/synthetic';

/** Never called: the compiler checks it. */
export function mutationsThatDoNotCompile(report: StoreReport, root: RootReport, stream: StreamInfo, chunk: ChunkInfo, update: StoreUpdate): void {
  // @ts-expect-error the roots of a report are not replaced
  report.roots = [];
  // @ts-expect-error nor added to
  report.roots.push(root);
  // @ts-expect-error nor are its problems
  report.problems.push({ severity: 'info', path: '', message: '' });
  // @ts-expect-error a root's streams are not added to
  root.streams.push(stream);
  // @ts-expect-error nor sorted in place
  root.streams.sort();
  // @ts-expect-error nor its seq_index files replaced
  root.seqIndex[0] = root.seqIndex[1];
  // @ts-expect-error its totals are not counted up in place
  root.totals.chunks++;
  // @ts-expect-error nor its sequence/ state
  root.sequence.present = false;
  // @ts-expect-error a stream's chunks are not added to
  stream.chunks.push(chunk);
  // @ts-expect-error nor spliced
  stream.chunks.splice(0, 1);
  // @ts-expect-error nor its size changed
  stream.totalBytes = 0;
  // @ts-expect-error a chunk's status is not changed in place
  chunk.status = 'ok';
  // @ts-expect-error nor its action
  chunk.fluentBitAction = '';
  // @ts-expect-error nor its seq_index value
  root.seqIndex[0].value = 12;
  // @ts-expect-error an apply's update is read, not changed
  update.streams?.push(stream);
  // @ts-expect-error a multipart record is read, not changed
  chunk.multipart!.uploadId = '';
  // @ts-expect-error nor are its parts
  chunk.multipart!.parts.push({ partNumber: 1, etag: '' });
}

/** Never called: an engine buffer's report (storage.path) holds the same rule. */
export function storagePathMutationsThatDoNotCompile(report: StoragePathReport): void {
  // @ts-expect-error its streams are not added to
  report.streams.push(report.streams[0]);
  // @ts-expect-error nor their chunks
  report.streams[0].chunks.pop();
  // @ts-expect-error a chunk's fate is not changed in place
  report.streams[0].chunks[0].fateText = '';
  // @ts-expect-error nor the totals
  report.totals.rejected = 0;
  // @ts-expect-error nor the findings
  report.findings.push('');
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

describe('reports are never changed in place', () => {
  it('merging an apply into a frozen report builds a new one and leaves the old as it was', () => {
    const report = deepFreeze(syntheticReport(6, 2, 'b'));
    const before = JSON.stringify(report);
    const root = report.roots[0];
    const changed: StreamInfo = { ...root.streams[0], chunks: root.streams[0].chunks.slice(1) };
    const merged = mergeStoreUpdate(report, [{ rootPath: root.path, streams: [changed], removedStreams: [root.streams[1].name] }]);
    expect(JSON.stringify(report)).toBe(before);
    expect(merged).not.toBe(report);
    expect(merged.roots[0].streams.map((s) => s.chunks.length)).toEqual([root.streams[0].chunks.length - 1]);
    expect(merged.roots[0].streams[0]).toBe(changed);
  });
});
