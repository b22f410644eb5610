/**
 * The window of rows on screen in a scroller whose rows all have one height: the first row and how
 * many fit, from the scroll position alone (no per-row measurement). It changes only when a row
 * enters or leaves; a scroll re-renders synchronously (flushSync), so the rows for the new position
 * are there in the frame that shows it. `resetOn` changing (a new filter or sort) scrolls to the top.
 * Used by the chunk table and the Fleet views' node table.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

export function useRowWindow(rowHeight: number, resetOn: unknown, opts: { fallbackHeight: number; initialFit: number }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ first: 0, fit: opts.initialFit });
  const fallback = opts.fallbackHeight;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => {
      const first = Math.floor(el.scrollTop / rowHeight);
      const fit = Math.ceil((el.clientHeight || fallback) / rowHeight) + 1;
      setView((v) => (v.first === first && v.fit === fit ? v : { first, fit }));
    };
    const onScroll = () => flushSync(measure);
    measure();
    el.addEventListener('scroll', onScroll, { passive: true });
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(measure) : null;
    ro?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      ro?.disconnect();
    };
  }, [rowHeight, fallback]);
  useLayoutEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
  }, [resetOn]);
  return { scroller, view };
}
