/**
 * $INDEX over time for one output (the engine's diagnosis timeline): a step line per tag (one
 * colour each), broken at each reset the engine found (red dashed lines), reference lines for
 * the persisted and the safe next index, integer ticks, an ISO UTC time axis, a tooltip with key,
 * tag and LastModified, drag to zoom (double-click to reset), and a click on a point lists its
 * keys below. The table of resets repeats them for keyboard and screen-reader users.
 */
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { IndexPoint } from '../../../shared/model';
import { formatCount, shown } from '../format';
import { chartData, isoSeconds, TAG_COLOURS } from './index-chart-data';
import { Time } from './Time';

interface Props {
  timeline: IndexPoint[];
  resets: { time: string; from: number; to: number }[];
  persistedNextIndex: number | null;
  safeNextIndex?: number | null;
  height?: number;
}

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

const INTEGER_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 1e6, 1e7, 1e8, 1e9];

export function IndexChart({ timeline, resets, persistedNextIndex, safeNextIndex = null, height = 280 }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  const [picked, setPicked] = useState<IndexPoint[] | null>(null);
  const data = chartData(timeline, resets);
  useEffect(() => {
    const el = host.current;
    if (!el || data.xs.length === 0) return;
    setPicked(null);
    const text = cssVar('--fg', '#222');
    const grid = cssVar('--border', '#ddd');
    const danger = cssVar('--danger', '#dc2626');
    const ok = cssVar('--ok', '#2e7d32');
    const muted = cssVar('--muted', '#666');
    const refs =
      persistedNextIndex != null && persistedNextIndex === safeNextIndex
        ? [{ v: safeNextIndex, label: `persisted next index = safe next index = ${safeNextIndex}`, colour: ok }]
        : [
            ...(persistedNextIndex != null ? [{ v: persistedNextIndex, label: `persisted next index ${persistedNextIndex}`, colour: muted }] : []),
            ...(safeNextIndex != null ? [{ v: safeNextIndex, label: `safe next index ${safeNextIndex}`, colour: ok }] : []),
          ];
    const resetXs = resets.map((r) => Date.parse(r.time) / 1000).filter(Number.isFinite);
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const dpr = devicePixelRatio;
    const opts: uPlot.Options = {
      width: Math.max(320, el.clientWidth),
      height,
      legend: { show: true, live: false },
      cursor: { drag: { x: true, y: false, setScale: true }, points: { size: 8 } },
      scales: {
        x: { time: true },
        y: {
          range: (_u, min, max) => {
            const lo = Math.min(min, ...refs.map((r) => r.v));
            const hi = Math.max(max, ...refs.map((r) => r.v));
            return [Math.max(0, Math.floor(lo) - 1), Math.ceil(hi) + 1];
          },
        },
      },
      axes: [
        {
          ...axis,
          label: 'time (UTC)',
          labelSize: 20,
          size: 50,
          space: 120,
          values: (_u, splits) => splits.map((s) => isoSeconds(s).replace(' ', '\n')),
        },
        {
          ...axis,
          label: '$INDEX',
          labelSize: 20,
          incrs: INTEGER_STEPS,
          values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? formatCount(v) : '')),
        },
      ],
      series: [
        { label: 'time (UTC)' },
        ...data.tags.map((tag, i) => ({
          label: tag === '' ? '(no tag)' : tag,
          stroke: TAG_COLOURS[i % TAG_COLOURS.length],
          width: 1.5,
          paths: uPlot.paths.stepped!({ align: 1 }),
          points: { show: true, size: 6, fill: TAG_COLOURS[i % TAG_COLOURS.length] },
          spanGaps: false,
        })),
      ],
      hooks: {
        draw: [
          (u) => {
            const ctx = u.ctx;
            ctx.save();
            ctx.font = `${12 * dpr}px system-ui, sans-serif`;
            ctx.textAlign = 'left';
            ctx.textBaseline = 'alphabetic';
            ctx.lineWidth = 1.5 * dpr;
            for (const r of refs) {
              const y = Math.round(u.valToPos(r.v, 'y', true));
              ctx.strokeStyle = r.colour;
              ctx.fillStyle = r.colour;
              ctx.setLineDash([4 * dpr, 4 * dpr]);
              ctx.beginPath();
              ctx.moveTo(u.bbox.left, y);
              ctx.lineTo(u.bbox.left + u.bbox.width, y);
              ctx.stroke();
              ctx.fillText(r.label, u.bbox.left + 6 * dpr, y - 4 * dpr);
            }
            ctx.strokeStyle = danger;
            ctx.fillStyle = danger;
            ctx.lineWidth = 2 * dpr;
            ctx.setLineDash([6 * dpr, 4 * dpr]);
            for (const t of resetXs) {
              const x = Math.round(u.valToPos(t, 'x', true));
              if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
              ctx.beginPath();
              ctx.moveTo(x, u.bbox.top);
              ctx.lineTo(x, u.bbox.top + u.bbox.height);
              ctx.stroke();
              ctx.fillText('reset', x + 4 * dpr, u.bbox.top + 14 * dpr);
            }
            ctx.restore();
          },
        ],
        // the visible time range, readable from outside the canvas (zoom state)
        setScale: [
          (u, key) => {
            if (key !== 'x' || !host.current) return;
            host.current.dataset.xmin = String(Math.round(u.scales.x.min ?? 0));
            host.current.dataset.xmax = String(Math.round(u.scales.x.max ?? 0));
          },
        ],
        setCursor: [
          (u) => {
            const t = tip.current;
            const idx = u.cursor.idx;
            const pts = idx != null ? data.pointsAt[idx] : null;
            if (!t) return;
            if (!pts?.length || u.cursor.left == null || u.cursor.left < 0) {
              t.hidden = true;
              return;
            }
            t.hidden = false;
            t.textContent = pts
              .map(
                (p) =>
                  `${shown(p.key)}\ntag ${p.tag != null ? shown(p.tag) : '—'} · $INDEX ${p.index} · LastModified ${p.lastModified ? isoSeconds(Date.parse(p.lastModified) / 1000) : 'not in the evidence'}`,
              )
              .join('\n');
            t.style.left = `${Math.min(u.cursor.left + 12, u.over.clientWidth - 260)}px`;
            t.style.top = `${(u.cursor.top ?? 0) + 12}px`;
          },
        ],
        ready: [
          (u) => {
            let downX = 0;
            u.over.addEventListener('mousedown', (e) => (downX = e.clientX));
            u.over.addEventListener('mouseup', (e) => {
              if (Math.abs(e.clientX - downX) > 3) return; // a drag zooms
              const idx = u.cursor.idx;
              setPicked(idx != null && data.pointsAt[idx]?.length ? data.pointsAt[idx] : null);
            });
          },
        ],
      },
    };
    const plot = new uPlot(opts, [data.xs, ...data.ys] as uPlot.AlignedData, el);
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(() => plot.setSize({ width: Math.max(320, el.clientWidth), height })) : null;
    ro?.observe(el);
    return () => {
      ro?.disconnect();
      plot.destroy();
    };
  }, [timeline, resets, persistedNextIndex, safeNextIndex, height]); // eslint-disable-line react-hooks/exhaustive-deps

  if (timeline.length === 0) {
    return <p className="muted">No keys with $INDEX in the evidence for this output yet.</p>;
  }
  return (
    <figure className="chart" data-testid="index-chart">
      <div className="chart-wrap">
        <div ref={host} className="chart-host" role="img" aria-label={`$INDEX over time: ${timeline.length} keys, ${resets.length} resets`} />
        <div ref={tip} className="chart-tip" role="tooltip" hidden data-testid="chart-tip" />
      </div>
      <figcaption className="muted">
        {formatCount(timeline.length)} keys in {data.tags.length} tag{data.tags.length === 1 ? '' : 's'} · persisted next index{' '}
        {persistedNextIndex ?? 'missing'} · {resets.length === 0 ? 'no resets' : `${resets.length} reset${resets.length > 1 ? 's' : ''} (red lines)`} · drag to
        zoom, double-click to reset, click a point to list its keys
      </figcaption>
      {picked && (
        <div className="picked" data-testid="picked-keys">
          <h4>Keys at {isoSeconds(Date.parse(picked[0].time) / 1000)}</h4>
          <ul>
            {picked.map((p) => (
              <li key={p.key}>
                <code>{shown(p.key)}</code> — tag {p.tag != null ? shown(p.tag) : '—'}, $INDEX {p.index}, LastModified <Time iso={p.lastModified ?? null} />
              </li>
            ))}
          </ul>
        </div>
      )}
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
                <td>
                  <Time iso={r.time} />
                </td>
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
