/**
 * $INDEX over time for one output (points from the engine's diagnosis timeline). Resets the engine
 * detected are drawn as red vertical lines so they are visible at a glance; the table below repeats
 * them for keyboard and screen-reader users.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { IndexPoint } from '../../../shared/model';
import { formatTime } from '../format';

interface Props {
  timeline: IndexPoint[];
  resets: { time: string; from: number; to: number }[];
  persistedNextIndex: number | null;
  height?: number;
}

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

export function IndexChart({ timeline, resets, persistedNextIndex, height = 260 }: Props) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el || timeline.length === 0) return;
    // uPlot needs x ascending: order points by time (display only; the points are the engine's).
    const pts = timeline
      .map((p) => ({ t: Date.parse(p.time) / 1000, i: p.index }))
      .filter((p) => Number.isFinite(p.t))
      .sort((a, b) => a.t - b.t);
    const data: uPlot.AlignedData = [pts.map((p) => p.t), pts.map((p) => p.i)];
    const resetTimes = resets.map((r) => Date.parse(r.time) / 1000).filter(Number.isFinite);
    const text = cssVar('--fg', '#222');
    const grid = cssVar('--border', '#ddd');
    const accent = cssVar('--accent', '#2563eb');
    const danger = cssVar('--danger', '#dc2626');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const opts: uPlot.Options = {
      width: Math.max(320, el.clientWidth),
      height,
      legend: { show: true },
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: true } },
      axes: [axis, { ...axis, label: '$INDEX', labelSize: 20 }],
      series: [{ label: 'time (UTC)' }, { label: '$INDEX used', stroke: accent, width: 1.5, points: { show: true, size: 6, fill: accent } }],
      hooks: {
        draw: [
          (u) => {
            const ctx = u.ctx;
            ctx.save();
            ctx.strokeStyle = danger;
            ctx.fillStyle = danger;
            ctx.lineWidth = 2 * devicePixelRatio;
            ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
            ctx.font = `${12 * devicePixelRatio}px system-ui, sans-serif`;
            for (const t of resetTimes) {
              const x = Math.round(u.valToPos(t, 'x', true));
              ctx.beginPath();
              ctx.moveTo(x, u.bbox.top);
              ctx.lineTo(x, u.bbox.top + u.bbox.height);
              ctx.stroke();
              ctx.fillText('reset', x + 4 * devicePixelRatio, u.bbox.top + 14 * devicePixelRatio);
            }
            ctx.restore();
          },
        ],
      },
    };
    const plot = new uPlot(opts, data, el);
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(() => plot.setSize({ width: Math.max(320, el.clientWidth), height })) : null;
    ro?.observe(el);
    return () => {
      ro?.disconnect();
      plot.destroy();
    };
  }, [timeline, resets, height]);

  if (timeline.length === 0) {
    return <p className="muted">No keys with $INDEX in the evidence for this output yet.</p>;
  }
  return (
    <figure className="chart" data-testid="index-chart">
      <div ref={host} className="chart-host" role="img" aria-label={`$INDEX over time: ${timeline.length} keys, ${resets.length} resets`} />
      <figcaption className="muted">
        {timeline.length} keys · persisted next index {persistedNextIndex ?? 'missing'} ·{' '}
        {resets.length === 0 ? 'no resets' : `${resets.length} reset${resets.length > 1 ? 's' : ''} (red lines)`}
      </figcaption>
      {resets.length > 0 && (
        <table className="compact" aria-label="Index resets">
          <thead>
            <tr>
              <th>When</th>
              <th>Index went from</th>
              <th>to</th>
            </tr>
          </thead>
          <tbody>
            {resets.map((r, i) => (
              <tr key={i}>
                <td>{formatTime(r.time)}</td>
                <td>{r.from}</td>
                <td>{r.to}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
