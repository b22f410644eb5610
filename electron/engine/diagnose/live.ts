/**
 * Live bucket evidence for one S3 output: choose the listing mode its key format allows, list,
 * and say in the evidence notes which mode was used and why.
 *
 * - Time-partitioned formats (time fields that pin one absolute window, e.g. `%Y/%m/%d`): a reset
 *   index can only overwrite keys in the window of the restart, or in the windows of the buffered
 *   data a restart or replay uploads. Focused listing from `since` = min(oldest buffered key time,
 *   at − one collision window) on, plus the newest partition per tag (so the highest recent
 *   `$INDEX` is seen). Far fewer requests; resets before `since` are not seen.
 * - No time in the key (`risk: 'always'`) or periodic time fields (`%H` without a date): any key
 *   can be hit, so the full listing.
 * - `fullListing: true` forces the full listing.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Progress, RootReport, S3Evidence } from '../../../shared/model';
import { analyzeCollisions, timeResolution } from '../../../shared/keyformat';
import { listForKeyFormat, S3EvidenceError, type ListFocus } from '../s3';

export interface LiveListingPlan {
  mode: 'full' | 'focused';
  /** The planner focus (focused mode only). */
  focus: ListFocus | null;
  /** Why this mode, one sentence. */
  reason: string;
}

export interface LiveListingInput {
  keyFormat: string;
  tagDelimiters?: string;
  /** The output's root in the store: its buffered data widens the focus window. */
  root: RootReport | null;
  /** Assumed restart time. */
  at: Date;
  /** Force the full listing. */
  fullListing?: boolean;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Stream names carry the Fluent Bit process's local time without a zone: UTC+14 is the furthest ahead. */
const MAX_ZONE_AHEAD_MS = 14 * HOUR;

/** The longest window of a strftime resolution (seconds), in ms: calendar months and years vary in length. */
export function collisionWindowMs(seconds: number): number {
  if (seconds >= 31_556_952) return 366 * DAY;
  if (seconds >= 2_629_746) return 31 * DAY;
  return seconds * 1000;
}

const valid = (s: string | null | undefined): number | null => {
  if (!s) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : t;
};

/**
 * The earliest key time buffered data (data and quarantined chunks) can be uploaded with: per chunk
 * its first record time (Fluent Bit's first_log_time, the replay key time), else its file time,
 * else its stream's start (local time, read as the earliest UTC it can be).
 */
export function oldestBufferedTime(root: RootReport | null): { time: Date; what: string } | null {
  let best: { t: number; what: string } | null = null;
  for (const s of root?.streams ?? []) {
    if (s.kind !== 'data' && s.kind !== 'quarantine') continue;
    const streamStart = valid(s.startTime ? `${s.startTime}Z` : null);
    for (const c of s.chunks) {
      const first = valid(c.firstRecordTime);
      const mtime = valid(c.mtime);
      const [t, how] =
        first !== null
          ? [first, 'first record']
          : mtime !== null
            ? [mtime, 'file time']
            : streamStart !== null
              ? [streamStart - MAX_ZONE_AHEAD_MS, 'stream start']
              : [null, ''];
      if (t !== null && (!best || t < best.t)) best = { t, what: `${c.path} (${how} ${new Date(t).toISOString()})` };
    }
  }
  return best && { time: new Date(best.t), what: best.what };
}

export function planLiveListing(input: LiveListingInput): LiveListingPlan {
  const full = (reason: string): LiveListingPlan => ({ mode: 'full', focus: null, reason });
  if (input.fullListing) return full('a full listing was requested');
  if (!input.keyFormat) return full('the key format is unknown');
  const res = timeResolution(input.keyFormat);
  const collision = analyzeCollisions(input.keyFormat, input.tagDelimiters);
  if (collision.risk === 'always' || res.seconds === null) return full('the key format has no time in it, so a reset index can overwrite any existing key');
  if (!res.absolute)
    return full(
      `the time fields of the key format (${res.conversions.map((c) => '%' + c).join(' ')}) repeat periodically, so a reset index can overwrite keys of any age`,
    );
  const at = input.at.getTime();
  const windowStart = at - collisionWindowMs(res.seconds);
  const buffered = oldestBufferedTime(input.root);
  const since = Math.min(windowStart, buffered?.time.getTime() ?? Infinity);
  const sinceIso = new Date(since).toISOString();
  return {
    mode: 'focused',
    focus: { at: input.at.toISOString(), since: sinceIso, newestPerTag: true },
    reason:
      `the key format is time-partitioned (${res.conversions.map((c) => '%' + c).join(' ')}): a restart at ${input.at.toISOString()} or an upload of the buffered data can only collide with keys from ${sinceIso} on` +
      (buffered && buffered.time.getTime() < windowStart ? ` (oldest buffered data: ${buffered.what})` : ` (one collision window before the restart)`),
  };
}

/** One line for the evidence notes: which listing mode was used and what it leaves out. */
export function listingModeNote(plan: LiveListingPlan, requests: number): string {
  if (plan.mode === 'full') return `Listing mode: full (${requests} requests): every key the format can reach was listed, because ${plan.reason}.`;
  return (
    `Listing mode: focused (${requests} requests): ${plan.reason}; listed keys from ${plan.focus!.since} on and the newest partition of each tag. ` +
    `INDEX_REUSED history before ${plan.focus!.since} was not checked; list every key (a full listing) to check it.`
  );
}

export interface LiveEvidenceOptions extends LiveListingInput {
  bucket: string;
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
}

/** List the bucket for one output in the mode `planLiveListing` picks; the mode note comes first in `notes`. */
export async function listLiveEvidence(client: S3Client, opts: LiveEvidenceOptions): Promise<{ evidence: S3Evidence; plan: LiveListingPlan }> {
  const plan = planLiveListing(opts);
  const ev = await listForKeyFormat(client, {
    bucket: opts.bucket,
    keyFormat: opts.keyFormat,
    tagDelimiters: opts.tagDelimiters,
    versions: true,
    multipart: true,
    focus: plan.focus ?? undefined,
    onProgress: opts.onProgress,
    signal: opts.signal,
  });
  // Denied everywhere (wrong credentials, no s3:ListBucket): an empty listing would read as "no key
  // in the bucket" and a safe next index of 0. Fail instead; partial denials degrade with a note.
  const denied = ev.notes.filter((n) => n.startsWith('ListObjectsV2 denied'));
  if (!ev.complete && !ev.objects.length && denied.length && !opts.signal?.aborted) {
    throw new S3EvidenceError(
      `cannot list bucket "${opts.bucket}": ${denied[0]} Check the credentials (profile, environment) and the s3:ListBucket permission.`,
      'forbidden',
    );
  }
  ev.notes = [listingModeNote(plan, ev.requests), ...ev.notes];
  return { evidence: ev, plan };
}
