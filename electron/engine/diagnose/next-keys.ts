/**
 * The collision analysis worked through: the first key the next start writes for each tag — the
 * output's key format rendered exactly as Fluent Bit does, with the index it starts at (the
 * persisted value, 0 when the file is missing) and the assumed restart time — and whether the
 * bucket evidence already holds that key (`exists`), covers it and does not (`free`), or does not
 * cover it (`unknown`).
 */
import type { IndexEvidence, NextKeyExample, RootReport } from '../../../shared/model';
import { analyzeCollisions, renderKey, toS3Key } from '../../../shared/keyformat';
import type { BucketAnalysis } from './bucket';
import type { Target } from './targets';

/** Tags shown at most. */
export const NEXT_KEY_TAGS = 5;

/** Tags the next start uploads first: those of the buffered data, else those seen in the bucket (newest first). */
function tagsOf(root: RootReport | null, bucket: BucketAnalysis): string[] {
  const tags: string[] = [];
  const seen = new Set<string>();
  const add = (t: string | null | undefined) => {
    if (t == null || seen.has(t) || tags.length >= NEXT_KEY_TAGS) return;
    seen.add(t);
    tags.push(t);
  };
  for (const s of root?.streams ?? []) if (s.kind === 'data') for (const c of s.chunks) add(c.tag);
  for (const p of [...bucket.timeline].reverse()) add(p.tag);
  return tags;
}

export function nextKeyExamples(target: Target, bucket: BucketAnalysis, cover: IndexEvidence, start: number | null, at: Date): NextKeyExample[] | undefined {
  if (!target.keyFormat || !target.hasIndex || start === null) return undefined;
  const collision = analyzeCollisions(target.keyFormat, target.tagDelimiters);
  if (collision.hasUuid) return undefined; // the key is random: nothing to look up
  const tags = collision.hasTag ? tagsOf(target.root, bucket) : [''];
  if (!tags.length) return undefined;
  const existing = new Set((bucket.evidence?.objects ?? []).map((o) => o.key));
  const covered = cover.coverage === 'complete' || (cover.coverage === 'window' && (!cover.from || at.getTime() >= Date.parse(cover.from)));
  return tags.map((tag) => {
    const key = toS3Key(renderKey(target.keyFormat, { tag, index: start, time: at, tagDelimiters: target.tagDelimiters }));
    return { tag, index: start, key, state: existing.has(key) ? 'exists' : covered ? 'free' : 'unknown' };
  });
}
