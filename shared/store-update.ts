/**
 * Merge what an apply changed (`RepairResult.storeUpdate`) into a copy of the store report, the
 * same way in the engine's session and in the renderer: streams by name, the root's seq_index
 * files, `sequence/` state and totals replaced. Pure.
 */
import type { RootReport, StoreReport, StoreUpdate } from './model';

export function mergeRootUpdate(root: RootReport, u: StoreUpdate): RootReport {
  const streams = new Map(root.streams.map((s) => [s.name, s] as const));
  for (const name of u.removedStreams ?? []) streams.delete(name);
  for (const s of u.streams ?? []) streams.set(s.name, s);
  return {
    ...root,
    streams: [...streams.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    seqIndex: u.seqIndex ?? root.seqIndex,
    sequence: u.sequence ?? root.sequence,
    totals: u.totals ?? root.totals,
  };
}

export function mergeStoreUpdate(report: StoreReport, updates: StoreUpdate[] | undefined): StoreReport {
  if (!updates?.length) return report;
  return { ...report, roots: report.roots.map((r) => updates.filter((u) => u.rootPath === r.path).reduce(mergeRootUpdate, r)) };
}
