/**
 * The listing planner: list only what an `s3_key_format` can reach.
 *
 * - Literal segments are appended to the prefix without a request.
 * - Segments with `$TAG` are discovered with `Delimiter: '/'` (CommonPrefixes); prefixes that
 *   cannot match the segment are dropped.
 * - Full mode (default): from the first segment whose first variable is not a tag, the prefix is
 *   listed completely (1 request per 1000 keys) and keys that do not match the format are ignored.
 * - Focus mode (`focus.at`): only keys a restart at `at` can collide with and the newest index:
 *   where keys sort by time (zero-padded %Y/%m/%d/%H/%M/%S), a range scan from `since` (StartAfter);
 *   elsewhere a delimiter walk that drops time partitions ending before `since`; plus the newest
 *   partition of every tag prefix that has no key after `since` (a descent along the newest child).
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Progress, S3Evidence, S3ObjectEntry } from '../../../shared/model';
import { isAbort, isAccessDenied, isNoSuchBucket, describeS3Error, toEvidenceError } from './errors';
import {
  capturedTime,
  formatLiteralPrefix,
  keyMatcher,
  renderChain,
  splitSegments,
  timeChainAt,
  timeRange,
  type Segment,
  type TimeFields,
} from './format-segments';
import { objectPages, toObjectEntry, type RequestCounter } from './list';
import { TaskPool } from './pool';
import { addMultipartEvidence, addVersionEvidence } from './planner-extras';

export interface ListFocus {
  /** Assumed restart time (ISO). */
  at: string;
  /** Earliest key time of interest (ISO). Default: one hour before `at`. Pass the oldest buffered record time to cover pending data. */
  since?: string;
  /** Also find the newest partition of tag prefixes with nothing after `since` (default true). */
  newestPerTag?: boolean;
}

export interface ListForKeyFormatOptions {
  bucket: string;
  keyFormat: string;
  /** Accepted for symmetry with the key-format engine; matching is lenient about tag parts. */
  tagDelimiters?: string;
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
  /** Parallel requests (default 8). */
  concurrency?: number;
  /** Also list object versions under the format's literal prefix (when the bucket keeps them). */
  versions?: boolean;
  /** Also list multipart uploads under the format's literal prefix, with their parts. */
  multipart?: boolean;
  focus?: ListFocus;
  /** Page size of each ListObjectsV2 request (default: the server's, 1000 on AWS). */
  maxKeys?: number;
  /** Tags may contain `/` (unusual): the walk stops at the first tag segment and lists below it. */
  tagMayContainSlash?: boolean;
}

export interface ListingJob {
  prefix: string;
  startAfter?: string;
  label: string;
}

export interface PlanState {
  client: S3Client;
  opts: ListForKeyFormatOptions;
  counter: RequestCounter;
  notes: Set<string>;
  scans: ListingJob[];
  complete: boolean;
}

export async function listForKeyFormat(client: S3Client, opts: ListForKeyFormatOptions): Promise<S3Evidence> {
  const segments = splitSegments(opts.keyFormat, { tagMayContainSlash: opts.tagMayContainSlash });
  const matcher = keyMatcher(opts.keyFormat, { tagMayContainSlash: opts.tagMayContainSlash });
  const since = opts.focus ? Date.parse(opts.focus.since ?? new Date(Date.parse(opts.focus.at) - 3_600_000).toISOString()) : null;
  if (opts.focus && (Number.isNaN(Date.parse(opts.focus.at)) || Number.isNaN(since))) {
    throw new Error(`listing focus: "${opts.focus.at}"${opts.focus.since ? ` / "${opts.focus.since}"` : ''} is not an ISO time`);
  }
  const state: PlanState = { client, opts, counter: { requests: 0 }, notes: new Set(), scans: [], complete: true };
  const objects = new Map<string, S3ObjectEntry>();
  const pool = new TaskPool(Math.max(1, opts.concurrency ?? 8));
  let ignoredKeys = 0;
  let prunedPrefixes = 0;
  let prunedByTime = 0;
  const signal = opts.signal;
  const progress = (current: string) => opts.onProgress?.({ task: 'list', done: pool.finished, total: pool.added, current });

  /** Runs one request-making step; degrades on AccessDenied, stops quietly on cancel. */
  const guarded = (what: string, prefix: string, fn: () => Promise<void>) => async () => {
    progress(prefix);
    try {
      await fn();
    } catch (err) {
      if (isAbort(err, signal)) {
        state.complete = false;
        state.notes.add('Listing cancelled: the evidence is incomplete.');
      } else if (isAccessDenied(err) && !isNoSuchBucket(err)) {
        state.complete = false;
        state.notes.add(`ListObjectsV2 denied (${describeS3Error(err)}): keys under some prefixes are unknown, e.g. "${prefix}".`);
      } else throw toEvidenceError(err, `${what} "${prefix}"`, opts.bucket);
    } finally {
      progress(prefix);
    }
  };

  /** Lists one scan job; returns how many matching keys it found. */
  const scan = async (job: ListingJob): Promise<number> => {
    state.scans.push(job);
    let found = 0;
    const range = { prefix: job.prefix, startAfter: job.startAfter, maxKeys: opts.maxKeys };
    for await (const page of objectPages(client, opts.bucket, range, { signal, counter: state.counter })) {
      for (const o of page.Contents ?? []) {
        if (!o.Key || !matcher.test(o.Key)) {
          ignoredKeys++;
          continue;
        }
        objects.set(o.Key, toObjectEntry(o));
        found++;
      }
      progress(job.prefix);
    }
    return found;
  };

  /** Child prefixes of `base + head` that match segment `i`, with their time fields. */
  const children = async (base: string, seg: Segment, ctx: TimeFields) => {
    const out: { prefix: string; ctx: TimeFields }[] = [];
    for await (const page of objectPages(
      client,
      opts.bucket,
      { prefix: base + seg.literalHead, delimiter: '/', maxKeys: opts.maxKeys },
      { signal, counter: state.counter },
    )) {
      ignoredKeys += page.Contents?.length ?? 0;
      for (const cp of page.CommonPrefixes ?? []) {
        const p = cp.Prefix ?? '';
        const m = seg.regex.exec(p.slice(base.length, -1));
        if (!m) {
          prunedPrefixes++;
          continue;
        }
        out.push({ prefix: p, ctx: { ...ctx, ...capturedTime(seg, m) } });
      }
    }
    return out;
  };

  /** Newest partition below (base, i): follow the greatest matching child; back off if it holds nothing. */
  const newest = async (base: string, i: number): Promise<boolean> => {
    const seg = segments[i];
    if (seg.isLiteral && i < segments.length - 1) return newest(base + seg.literalHead + '/', i + 1);
    if (i === segments.length - 1) return (await scan({ prefix: base + seg.literalHead, label: `${base + seg.literalHead} (newest partition)` })) > 0;
    const kids = (await children(base, seg, {})).sort((a, b) => (a.prefix < b.prefix ? 1 : -1));
    for (const k of kids) if (await newest(k.prefix, i + 1)) return true;
    return false;
  };

  const walk = (base: string, i: number, ctx: TimeFields): void => {
    const seg = segments[i];
    const last = i === segments.length - 1;
    if (seg.isLiteral && !last) return walk(base + seg.literalHead + '/', i + 1, ctx);
    const first = seg.tokens.find((t) => t.kind !== 'literal');
    const prefix = base + seg.literalHead;
    const chain = since !== null ? timeChainAt(segments, i) : null;
    if (chain && since !== null) {
      const job: ListingJob = { prefix, startAfter: base + renderChain(chain, new Date(since)), label: '' };
      job.label = `${prefix || '(bucket)'} keys after ${job.startAfter}`;
      pool.add(
        guarded('list', prefix, async () => {
          const found = await scan(job);
          if (found === 0 && opts.focus?.newestPerTag !== false) await newest(base, i);
        }),
      );
      return;
    }
    const descend = !last && !seg.unbounded && (first?.kind === 'tag' || (since !== null && seg.hasTime));
    if (!descend) {
      pool.add(guarded('list', prefix, async () => void (await scan({ prefix, label: prefix || '(bucket)' }))));
      return;
    }
    pool.add(
      guarded('discover', prefix, async () => {
        for (const k of await children(base, seg, ctx)) {
          const r = since !== null ? timeRange(k.ctx) : null;
          if (r && since !== null && r.end <= since) {
            prunedByTime++;
            continue;
          }
          walk(k.prefix, i + 1, k.ctx);
        }
      }),
    );
  };

  walk('', 0, {});
  await pool.idle();
  opts.onProgress?.({ task: 'list', done: pool.finished, total: pool.added, current: '' });

  if (prunedPrefixes) state.notes.add(`${prunedPrefixes} prefixes cannot hold keys of ${opts.keyFormat} and were not listed.`);
  if (prunedByTime) state.notes.add(`${prunedByTime} time partitions end before ${new Date(since!).toISOString()} and were not listed.`);
  if (ignoredKeys) state.notes.add(`${ignoredKeys} keys under the listed prefixes do not match ${opts.keyFormat} and were ignored.`);
  if (opts.focus) {
    state.notes.add(
      `Focused listing for a restart at ${opts.focus.at}: keys from ${new Date(since!).toISOString()} on` +
        `${opts.focus.newestPerTag === false ? '' : ' and the newest partition of each tag prefix'}; older keys were not listed, so the highest index and past resets before then are unknown.`,
    );
  }
  const literalPrefix = formatLiteralPrefix(opts.keyFormat);
  const evidence: S3Evidence = {
    source: 'live',
    bucket: opts.bucket,
    scope: state.scans.map((s) => s.label).sort(),
    objects: [...objects.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    versions: null,
    multipartUploads: null,
    notes: [],
    requests: 0,
    complete: state.complete,
    coverage: opts.focus ? 'focused' : 'full',
    // the window the focused listing is complete for: without it the listing would read as a full one
    ...(opts.focus ? { focus: { since: new Date(since!).toISOString(), at: opts.focus.at } } : {}),
  };
  if (opts.versions && !signal?.aborted) await addVersionEvidence(state, evidence, matcher, literalPrefix);
  if (opts.multipart && !signal?.aborted) await addMultipartEvidence(state, evidence, literalPrefix);
  evidence.notes = [...state.notes];
  evidence.requests = state.counter.requests;
  evidence.complete = state.complete;
  evidence.listedAt = new Date().toISOString();
  return evidence;
}
