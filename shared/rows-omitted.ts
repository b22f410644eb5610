/**
 * An opened store without its per-chunk rows (`store.list {rows: false}`): the landing paints the
 * Overview from this summary and asks for the rows after it. Pure, so the engine and the renderer's
 * tests build it the same way.
 */
import type { OpenedStore } from './contract';

export function withoutRows(o: OpenedStore): OpenedStore {
  const rowsOmitted = o.report.roots.map((r) =>
    r.streams.map((s) => {
      const actions = new Map<string, number>();
      for (const c of s.chunks) actions.set(c.fluentBitAction, (actions.get(c.fluentBitAction) ?? 0) + 1);
      return { chunks: s.chunks.length, actions: [...actions] };
    }),
  );
  const roots = o.report.roots.map((r) => ({ ...r, streams: r.streams.map((s) => ({ ...s, chunks: [] })) }));
  return { ...o, report: { ...o.report, roots }, rowsOmitted };
}
