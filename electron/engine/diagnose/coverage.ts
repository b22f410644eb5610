/**
 * How far the bucket evidence of one output goes for the `$INDEX` question: a next index is only
 * called safe when the evidence covers every key the next uploads can produce (a complete listing
 * of the key format, or a focused listing complete for the window a restart can reach).
 */
import type { EvidenceFreshness, IndexEvidence, S3Evidence } from '../../../shared/model';
import { literalPrefix } from '../../../shared/keyformat';
import type { Target } from './targets';

/** Why `ev` is stale (see EvidenceFreshness), or null. */
export function staleReason(bucket: string, ev: S3Evidence, f: EvidenceFreshness | undefined): string | null {
  if (!f) return null;
  // how it is refreshed: a live listing is taken again; a file's time is its listing's time, so it is exported again
  const again = ev.source === 'live' ? 'list again' : 'list again (export the listing file again: its file time is the listing time)';
  const w = f.bucketWrites?.[bucket];
  const taken = ev.listedAt ? Date.parse(ev.listedAt) : null;
  if (w && (taken === null || taken < Date.parse(w.at)))
    return `Store Doctor's ${w.action} wrote to bucket ${bucket} at ${w.at}, after this listing${ev.listedAt ? ` (taken ${ev.listedAt})` : ''}: ${again}`;
  if (f.maxAgeMs !== undefined && taken !== null) {
    const age = (f.now ?? new Date()).getTime() - taken;
    if (age > f.maxAgeMs)
      return `the listing was taken ${ev.listedAt}, ${Math.round(age / 60_000)} min ago, older than the limit of ${Math.round(f.maxAgeMs / 60_000)} min: ${again}`;
  }
  return null;
}

export function indexEvidenceOf(target: Target, ev: S3Evidence | null, freshness?: EvidenceFreshness): IndexEvidence {
  const e = coverageOf(target, ev);
  if (ev?.listedAt) e.listedAt = ev.listedAt;
  const stale = ev && e.coverage !== 'unusable' && e.coverage !== 'none' ? staleReason(target.bucket, ev, freshness) : null;
  return stale ? { coverage: 'stale', text: `stale evidence: ${stale} (it said: ${e.text})`, ...(ev?.listedAt ? { listedAt: ev.listedAt } : {}) } : e;
}

function coverageOf(target: Target, ev: S3Evidence | null): IndexEvidence {
  if (!target.keyFormat)
    return { coverage: 'unusable', text: 'the key format is unknown (no Fluent Bit config), so bucket keys cannot be matched to $INDEX values' };
  if (!target.hasIndex) return { coverage: 'unusable', text: 'the key format has no $INDEX' };
  if (!ev) return { coverage: 'none', text: `no listing of bucket ${target.bucket}: the highest $INDEX already used is unknown` };
  if (ev.bucket && ev.bucket !== target.bucket) {
    return { coverage: 'incomplete', text: `the listing is of bucket ${ev.bucket}, not ${target.bucket}` };
  }
  if (!ev.complete) {
    const why = ev.notes.find((n) => /denied|cancel|error|cut|incomplete|continues|truncated/i.test(n));
    return {
      coverage: 'incomplete',
      text: `the listing of ${target.bucket} is incomplete${why ? ` (${why})` : ''}: keys it did not reach may use higher $INDEX values`,
    };
  }
  const formatPrefix = literalPrefix(target.keyFormat);
  const narrow = (ev.listedPrefixes ?? []).filter((p) => p && !formatPrefix.startsWith(p));
  if (narrow.length) {
    return {
      coverage: 'incomplete',
      text: `the listing covers only keys under ${narrow.map((p) => `"${p}"`).join(', ')}, but the key format writes under "${formatPrefix}": keys outside it may use higher $INDEX values`,
    };
  }
  if (ev.coverage === 'focused' && ev.focus) {
    return {
      coverage: 'window',
      from: ev.focus.since,
      text: `a focused listing of bucket ${target.bucket}, complete for keys dated ${ev.focus.since} or later and the newest partition of each tag — enough for the next index, because the key format's time partitions keep a restart at ${ev.focus.at} and the buffered data from making any older key; the highest $INDEX is the highest in the listed partitions, older keys were not listed`,
    };
  }
  if (ev.coverage === 'focused')
    return {
      coverage: 'incomplete',
      text: `a focused listing of bucket ${target.bucket} whose window is not known: keys it did not reach may use higher $INDEX values`,
    };
  if (ev.source === 'offline')
    return {
      coverage: 'complete',
      text: `a complete offline listing of bucket ${target.bucket} (${ev.scope.join(', ')}${ev.listedAt ? `, file time ${ev.listedAt}` : ', time unknown'})`,
    };
  return { coverage: 'complete', text: `a full listing of bucket ${target.bucket} (every key the key format can reach)` };
}

/** Evidence that lets a next index be called safe. */
export function coversIndex(e: IndexEvidence): boolean {
  return e.coverage === 'complete' || e.coverage === 'window';
}
