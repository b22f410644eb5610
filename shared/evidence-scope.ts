/**
 * What a highest `$INDEX` is the highest of, from how far the evidence goes (IndexEvidence): every
 * sentence and field that states a highest or safe next index says this scope, so a focused or
 * cut listing is never read as the whole bucket.
 */
import type { IndexEvidence } from './model';

export type HighestScope = 'bucket' | 'listed-partitions' | 'listed-keys' | 'stale-listing' | 'not-listed';

export function highestScope(e: IndexEvidence): HighestScope {
  switch (e.coverage) {
    case 'complete':
      return 'bucket';
    case 'window':
      return 'listed-partitions';
    case 'incomplete':
      return 'listed-keys';
    case 'stale':
      return 'stale-listing';
    default:
      return 'not-listed';
  }
}

/** "in bucket", "in listed partitions", …: after "highest". */
export function highestLabel(e: IndexEvidence): string {
  const s = highestScope(e);
  return s === 'bucket'
    ? 'in bucket'
    : s === 'listed-partitions'
      ? 'in listed partitions'
      : s === 'listed-keys'
        ? 'in listed keys (listing incomplete)'
        : s === 'stale-listing'
          ? 'in a stale listing'
          : 'in bucket (not listed)';
}
