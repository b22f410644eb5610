/**
 * Findings about keeping `sequence/` through graceful stops: no marker, or a marker that a sibling
 * output without `$INDEX` uploads. The lasting fix is the guard (`store-doctor guard`): a copy
 * taken while Fluent Bit runs is behind its exit flush, so a shadow copy alone restores a used index.
 */
import type { Finding, NextStep } from '../../../shared/model';
import type { IndexContext } from './findings-index';
import { next } from './next-steps';

const GUARD =
  'run store-doctor guard beside Fluent Bit: it keeps every value, including those of the exit flush, outside store_dir and restores the final one after each graceful stop';
const SHADOW =
  'a shadow copy outside store_dir, restored before each start, holds only with bucket evidence: a copy taken while Fluent Bit runs is behind its exit flush';

/** How to keep the index through graceful stops: a marker when no sibling output uploads it, else a shadow copy. */
export function protect(c: IndexContext): { action: string; next: NextStep[] } {
  const id = c.target.id;
  const uploaders = c.rootSiblings.filter((s) => !s.hasIndex).map((s) => s.displayName);
  const viaShadow = `${GUARD} (${SHADOW})`;
  if (uploaders.length) {
    return {
      action: `A marker chunk would be uploaded by ${uploaders.join(', ')} (it shares this root without $INDEX): ${viaShadow}.`,
      next: [next.protect(id, 'shadow'), next.restore(id)],
    };
  }
  return {
    action: `Protect the index from the next graceful stop with a marker chunk in sequence/; for every stop, ${viaShadow}.`,
    next: [next.protect(id, 'marker'), next.protect(id, 'shadow')],
  };
}

export function sequenceFinding(c: IndexContext): Finding | null {
  const { target } = c;
  if (!target.hasIndex) return null;
  const seqInfo = target.root?.sequence;
  const markers = seqInfo?.markerChunks ?? [];
  const dangerous = c.collision.risk === 'always' || c.collision.risk === 'same-window';
  const severity = dangerous ? 'error' : 'warning';
  if (!markers.length) {
    return {
      code: 'SEQUENCE_UNPROTECTED',
      severity,
      summary: `The next graceful stop (SIGTERM, pod restart, hot reload) deletes sequence/ with seq_index_${target.id}: $INDEX restarts at 0.`,
      evidence: [
        seqInfo ? seqInfo.message : `root ${target.rootPath ?? target.bucket} not in the store`,
        'sequence/ holds no registered chunk, so Fluent Bit removes it at exit (fluent/fluent-bit#11987; every version from 1.9 to 5.1)',
        dangerous ? `with this key format a reset overwrites objects: ${c.collision.explanation}` : c.collision.explanation,
      ].filter(Boolean),
      ...protect(c),
      outputId: target.id,
    };
  }
  const unprotecting = c.rootSiblings.filter((s) => !s.hasIndex);
  if (unprotecting.length) {
    const names = unprotecting.map((s) => s.displayName).join(', ');
    return {
      code: 'SEQUENCE_UNPROTECTED',
      severity,
      summary: `A marker keeps sequence/, but ${names} share${unprotecting.length === 1 ? 's' : ''} the root without $INDEX: it uploads the marker and the next graceful stop deletes the index.`,
      evidence: [
        `marker chunk(s): ${markers.join(', ')}`,
        ...unprotecting.map((s) => `${s.displayName} (id ${s.id}) uses ${s.rootPath} with key format ${s.keyFormat}`),
        'verified with Fluent Bit v5.0.9: the output without $INDEX sends the marker as a 0-byte object and deletes it',
      ],
      action: `Give ${names} its own store_dir (or add $INDEX to its key format); until then ${GUARD} (${SHADOW}).`,
      next: [next.protect(target.id, 'shadow'), next.restore(target.id)],
      outputId: target.id,
      data: { markers, siblings: unprotecting.map((s) => s.id) },
    };
  }
  return null;
}
