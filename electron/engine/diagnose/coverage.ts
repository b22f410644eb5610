/**
 * How far the bucket evidence of one output goes for the `$INDEX` question: a next index is only
 * called safe when the evidence covers every key the next uploads can produce (a complete listing
 * of the key format, or a focused listing complete for the window a restart can reach).
 */
import type { IndexEvidence, S3Evidence } from '../../../shared/model';
import { literalPrefix } from '../../../shared/keyformat';
import type { Target } from './targets';

export function indexEvidenceOf(target: Target, ev: S3Evidence | null): IndexEvidence {
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
      text: `a focused listing, complete for keys dated ${ev.focus.since} or later (every key a restart at ${ev.focus.at} and the buffered data can produce) and the newest partition of each tag`,
    };
  }
  return { coverage: 'complete', text: `a complete listing of bucket ${target.bucket}${ev.source === 'offline' ? ` (${ev.scope.join(', ')})` : ''}` };
}

/** Evidence that lets a next index be called safe. */
export function coversIndex(e: IndexEvidence): boolean {
  return e.coverage === 'complete' || e.coverage === 'window';
}
