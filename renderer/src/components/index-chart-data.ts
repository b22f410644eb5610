/**
 * The engine's index timeline as uPlot data: one series per tag (one colour each), x = time in
 * seconds (UTC), y = `$INDEX`. Points of other tags are `undefined` (the line joins over them);
 * a `null` right before each reset the engine found breaks every line there, so a reset never
 * reads as a diagonal. Display only: the points and resets are the engine's.
 */
import type { IndexPoint } from '../../../shared/model';

export interface ChartData {
  /** x values (seconds), strictly ascending. */
  xs: number[];
  tags: string[];
  /** Per tag: the index at each x, undefined where the tag has no point, null at reset breaks. */
  ys: (number | null | undefined)[][];
  /** The engine's points at each x (empty at reset breaks). */
  pointsAt: IndexPoint[][];
}

/** Distinct colours for tags, readable on light and dark backgrounds. */
export const TAG_COLOURS = ['#3b82f6', '#f59e0b', '#10b981', '#a855f7', '#ef4444', '#06b6d4', '#ec4899', '#84cc16'];

const EPS = 0.001;

export function chartData(timeline: IndexPoint[], resets: { time: string }[]): ChartData {
  const pts = timeline
    .map((p) => ({ p, t: Date.parse(p.time) / 1000 }))
    .filter((x) => Number.isFinite(x.t))
    .sort((a, b) => a.t - b.t || a.p.index - b.p.index);
  const tags = [...new Set(pts.map((x) => x.p.tag ?? ''))];
  const resetTimes = resets.map((r) => Date.parse(r.time) / 1000).filter(Number.isFinite);
  const xs: number[] = [];
  const pointsAt: IndexPoint[][] = [];
  const ys: (number | null | undefined)[][] = tags.map(() => []);
  const tagIndex = new Map(tags.map((t, i) => [t, i] as const));
  let r = 0;
  const sortedResets = [...resetTimes].sort((a, b) => a - b);
  const push = (x: number, points: IndexPoint[], fill: (tag: number) => number | null | undefined) => {
    // x must grow strictly: points of one second (several tags, or two indices) are spread by a millisecond
    const last = xs.length ? xs[xs.length - 1] : -Infinity;
    xs.push(x > last ? x : last + EPS);
    pointsAt.push(points);
    tags.forEach((_, i) => ys[i].push(fill(i)));
  };
  for (const { p, t } of pts) {
    while (r < sortedResets.length && sortedResets[r] <= t) {
      if (xs.length) push(sortedResets[r] - EPS, [], () => null);
      r++;
    }
    const ti = tagIndex.get(p.tag ?? '')!;
    const lastX = xs.length ? xs[xs.length - 1] : -Infinity;
    const sameX = pointsAt.length > 0 && lastX === t && ys[ti][ys[ti].length - 1] === undefined && pointsAt[pointsAt.length - 1].length > 0;
    if (sameX) {
      // another tag at the same time: share the x
      ys[ti][ys[ti].length - 1] = p.index;
      pointsAt[pointsAt.length - 1].push(p);
    } else push(t, [p], (i) => (i === ti ? p.index : undefined));
  }
  return { xs, tags, ys, pointsAt };
}

/** `2026-12-01 18:33:42Z`: the axis and tooltip time, ISO UTC to the second. */
export function isoSeconds(sec: number): string {
  return new Date(Math.round(sec) * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}
