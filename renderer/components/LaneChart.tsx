// Workers (steps, left axis) and waiting (line, right axis) for one lane over the last hour (or
// since the engine started, if that is sooner), drawn
// by uPlot on a canvas. Colours come from the page's CSS variables, so the chart follows the
// light / dark setting with everything else.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import type { LaneStatus, TimelinePoint } from '../../shared/model';
import { formatCount } from '../format';
import { useColorScheme } from './useColorScheme';

const HEIGHT = 132;

interface Props {
  lane: LaneStatus;
  points: TimelinePoint[];
  ceiling: number;
  /** Left edge, ms: shared by every lane's chart so they line up. */
  from: number;
}

export function LaneChart({ lane, points, ceiling, from }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const left = useRef(from);
  left.current = from;
  const scheme = useColorScheme();
  const data = toData(points, lane, from);

  // Build the plot once per colour scheme; data changes only call setData.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const u = new uPlot(options(el.clientWidth, ceiling, readColours(el), left), data, el);
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [scheme, ceiling]); // data flows in through setData below

  useEffect(() => {
    plot.current?.setData(data);
  });

  const peakWorkers = Math.max(lane.workers, ...points.map((p) => p.workers));
  const peakWaiting = Math.max(lane.waiting, ...points.map((p) => p.waiting));
  const summary = `${lane.name}: now ${lane.workers} workers and ${formatCount(lane.waiting)} waiting; at most ${peakWorkers} workers and ${formatCount(peakWaiting)} waiting in the period shown.`;

  return (
    <figure className="chart" data-lane={lane.name}>
      <figcaption className="chart-title">
        <strong>{lane.name}</strong>
        <span className="chart-key">
          <span className="key key-workers" aria-hidden="true" /> workers
          <span className="key key-waiting" aria-hidden="true" /> waiting
        </span>
      </figcaption>
      <div className="chart-canvas" ref={box} role="img" aria-label={summary} />
    </figure>
  );
}

type Data = [number[], number[], number[]];

function toData(points: TimelinePoint[], lane: LaneStatus, from: number): Data {
  const now = Date.now();
  const all = points.filter((p) => p.at >= from);
  // Carry the line to "now" with the lane as it is, so a quiet hour still shows its level.
  all.push({ at: now, workers: lane.workers, busy: lane.busy, waiting: lane.waiting, cap: lane.cap });
  return [all.map((p) => p.at / 1000), all.map((p) => p.workers), all.map((p) => p.waiting)];
}

interface Colours {
  text: string;
  grid: string;
  workers: string;
  workersFill: string;
  waiting: string;
}

function readColours(el: HTMLElement): Colours {
  const css = getComputedStyle(el);
  const v = (name: string) => css.getPropertyValue(name).trim();
  return { text: v('--text-2'), grid: v('--grid'), workers: v('--accent'), workersFill: v('--accent-fill'), waiting: v('--waiting') };
}

const hhmm = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const hhmmss = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

function options(width: number, ceiling: number, c: Colours, left: { current: number }): uPlot.Options {
  const axis = { stroke: c.text, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1 }, font: '11px system-ui, sans-serif' };
  return {
    width: Math.max(200, width),
    height: HEIGHT,
    legend: { show: false },
    padding: [12, 4, 0, 0],
    cursor: { drag: { x: false, y: false } },
    scales: {
      x: { time: true, range: () => [left.current / 1000, Date.now() / 1000] },
      workers: { range: (_u, _min, max) => [0, Math.max(ceiling, max, 1)] },
      waiting: { range: (_u, _min, max) => [0, Math.max(4, max * 1.1)] },
    },
    axes: [
      {
        ...axis,
        space: 80,
        // One line per tick: seconds only when the span is short enough to need them.
        values: (u, ticks) => {
          const span = (u.scales.x?.max ?? 0) - (u.scales.x?.min ?? 0);
          const f = span <= 900 ? hhmmss : hhmm;
          return ticks.map((t) => f.format(t * 1000));
        },
      },
      { ...axis, scale: 'workers', size: 36, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : '')) },
      { ...axis, scale: 'waiting', side: 1, size: 52, grid: { show: false }, values: (_u, ticks) => ticks.map((t) => compact(t)) },
    ],
    series: [
      {},
      { label: 'Workers', scale: 'workers', stroke: c.workers, fill: c.workersFill, width: 2, paths: uPlot.paths.stepped?.({ align: 1 }), points: { show: false } },
      { label: 'Waiting', scale: 'waiting', stroke: c.waiting, width: 1.5, points: { show: false } },
    ],
  };
}

const compactFormat = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

function compact(n: number): string {
  return n < 1000 ? formatCount(n) : compactFormat.format(n);
}
