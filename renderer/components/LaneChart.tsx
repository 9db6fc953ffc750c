// Workers (steps, left axis), the cap they were allowed (a dashed step line on the same axis) and
// waiting (line, right axis) for one lane over the last hour, across engine restarts (the engine
// keeps the points), drawn by uPlot on a canvas. A gap while the engine was stopped is drawn as
// one: no line bridges it. Colours come from the page's CSS variables, so the chart follows the
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
  const summary = `${lane.name}: now ${lane.workers} workers of a cap of ${lane.cap} and ${formatCount(lane.waiting)} waiting; at most ${peakWorkers} workers and ${formatCount(peakWaiting)} waiting in the period shown.`;

  return (
    <figure className="chart" data-lane={lane.name}>
      <figcaption className="chart-title">
        <strong>{lane.name}</strong>
        <span className="chart-key">
          <span className="key key-workers" aria-hidden="true" /> workers
          <span className="key key-cap" aria-hidden="true" /> cap
          <span className="key key-waiting" aria-hidden="true" /> waiting
        </span>
      </figcaption>
      <div className="chart-canvas" ref={box} role="img" aria-label={summary} />
    </figure>
  );
}

type Data = [number[], (number | null)[], (number | null)[], (number | null)[]];

/** Two points further apart than this were not both seen by a running engine: the chart shows a gap. */
export const GAP_MS = 5 * 60_000;

export function toData(points: TimelinePoint[], lane: Pick<LaneStatus, 'workers' | 'busy' | 'waiting' | 'cap'>, from: number, now = Date.now()): Data {
  const all = points.filter((p) => p.at >= from);
  // Carry the line to "now" with the lane as it is, so a quiet hour still shows its level.
  all.push({ at: now, workers: lane.workers, busy: lane.busy, waiting: lane.waiting, cap: lane.cap });
  const data: Data = [[], [], [], []];
  all.forEach((p, i) => {
    const prev = all[i - 1];
    // The engine samples while it runs; a long silence before a point is a stop and a start.
    if (prev && p.at - prev.at > GAP_MS && i < all.length - 1) {
      data[0].push((prev.at + 1) / 1000);
      data[1].push(null);
      data[2].push(null);
      data[3].push(null);
    }
    data[0].push(p.at / 1000);
    data[1].push(p.workers);
    data[2].push(p.waiting);
    data[3].push(p.cap);
  });
  return data;
}

interface Colours {
  text: string;
  grid: string;
  workers: string;
  workersFill: string;
  waiting: string;
  cap: string;
}

function readColours(el: HTMLElement): Colours {
  const css = getComputedStyle(el);
  const v = (name: string) => css.getPropertyValue(name).trim();
  return { text: v('--text-2'), grid: v('--grid'), workers: v('--accent'), workersFill: v('--accent-fill'), waiting: v('--waiting'), cap: v('--text-2') };
}

// 24-hour, as every other time in the window and the CLI.
const hhmm = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const hhmmss = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

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
      { label: 'Cap', scale: 'workers', stroke: c.cap, width: 1.5, dash: [5, 4], paths: uPlot.paths.stepped?.({ align: 1 }), points: { show: false } },
    ],
  };
}

const compactFormat = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

function compact(n: number): string {
  return n < 1000 ? formatCount(n) : compactFormat.format(n);
}
