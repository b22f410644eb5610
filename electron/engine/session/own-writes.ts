/**
 * The tool's own writes into an open store, told to its live watch (handlers-store.ts isOwnWrite):
 * their paths are ours while the write runs and for a short grace after, and what they removed is
 * remembered, so the watch does not take them for someone else's change that blocks writes.
 */
import fs from 'node:fs';
import type { StoreSession } from './registry';

/** After a write, changes to its own paths are ours for a short while. */
const OWN_WRITE_GRACE_MS = 3000;
const MAX_GONE = 100_000;

/** What our write removed (and is still gone): the watch never takes its late events for someone else's. */
function rememberGone(s: StoreSession, paths: string[]): void {
  for (const p of paths) if (!fs.existsSync(p)) s.ownGone.add(p);
  if (s.ownGone.size > MAX_GONE) s.ownGone = new Set([...s.ownGone].slice(-MAX_GONE));
}

/** Tell an open store's live watch which paths are the tool's own writes: while writing, and a grace after. */
export function markOwnWrites(s: StoreSession, paths: string[], active: boolean): void {
  s.ownWrites = { paths: new Set(paths), until: active ? Number.POSITIVE_INFINITY : Date.now() + OWN_WRITE_GRACE_MS };
  if (!active) rememberGone(s, paths);
}
