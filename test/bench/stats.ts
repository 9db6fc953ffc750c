// Figures as the benchmark reports them: each a median with its range, and where a peer was
// measured beside it, the ratio of each pair (Lanes run, then the peer's run, alternately), so a
// figure never rests on one absolute time taken on a machine shared with others.
import { waitFor } from '../support/poll.js';

export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function summarize(xs: number[]): Summary {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return { median: NaN, min: NaN, max: NaN, n: 0 };
  const m = s.length >> 1;
  const median = s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  return { median, min: s[0]!, max: s[s.length - 1]!, n: s.length };
}

/** How a figure compares with its peer: `ratio` (Lanes ÷ peer) or `difference` (Lanes − peer). */
export type Comparison = 'ratio' | 'difference';

export interface Figure {
  /** The heading it is listed under. */
  section: string;
  what: string;
  unit: string;
  lanes: Summary;
  peer?: { name: string; value: Summary };
  /** Per-pair Lanes ÷ peer (or Lanes − peer), median and range. */
  compared?: { how: Comparison; value: Summary };
  target?: string;
  /** Whether the target is met, judged on the median (by `judge`, once the figure is complete). */
  met?: boolean;
  /** The target as a rule on the figure's medians: applied to one run, and again to the median of several. */
  judge?: (f: Figure) => boolean;
  note?: string;
}

/** Each figure's verdict from its rule. */
export function judgeAll(figures: Figure[]): Figure[] {
  for (const f of figures) if (f.judge) f.met = f.judge(f);
  return figures;
}

/**
 * Several full runs as one: each figure's value is the median of the runs' medians, its range the
 * lowest and highest run median (so one good run cannot stand for the figure), and its target
 * judged on that median. A figure missing from some runs is aggregated over the runs that have it.
 */
export function acrossRuns(runs: Figure[][]): Figure[] {
  // A figure's words may carry its run's own numbers ("269 processes on the machine"): the same
  // figure of another run differs only in those, and its words are shown as the first run has them.
  const words = (text: string) => text.replace(/\d[\d,.]*/g, '#');
  const key = (f: Figure) => `${f.section}\u0000${words(f.what)}\u0000${words(f.peer?.name ?? '')}`;
  const groups = new Map<string, Figure[]>();
  for (const run of runs) for (const f of run) (groups.get(key(f)) ?? groups.set(key(f), []).get(key(f))!).push(f);
  const of = (xs: (Summary | undefined)[]) => summarize(xs.map((x) => x?.median ?? NaN));
  return judgeAll(
    [...groups.values()].map((fs) => {
      const first = fs[0]!;
      return {
        ...first,
        lanes: of(fs.map((f) => f.lanes)),
        peer: first.peer ? { name: first.peer.name, value: of(fs.map((f) => f.peer?.value)) } : undefined,
        compared: first.compared ? { how: first.compared.how, value: of(fs.map((f) => f.compared?.value)) } : undefined,
        note: fs.length === runs.length ? first.note : `${first.note ? `${first.note}; ` : ''}in ${fs.length} of ${runs.length} runs`,
      };
    }),
  );
}

/**
 * Runs `lanes` and `peer` alternately, `pairs` times (A B A B …), so each pair shares the
 * machine's state of the moment; returns both series in order.
 */
export async function alternate(pairs: number, lanes: () => Promise<number>, peer: () => Promise<number>): Promise<{ lanes: number[]; peer: number[] }> {
  const out = { lanes: [] as number[], peer: [] as number[] };
  for (let i = 0; i < pairs; i++) {
    out.lanes.push(await lanes());
    out.peer.push(await peer());
  }
  return out;
}

export function pairwise(a: number[], b: number[], how: Comparison): Summary {
  return summarize(a.map((x, i) => (how === 'ratio' ? x / b[i]! : x - b[i]!)));
}

/** A figure of Lanes beside its peer, compared pair by pair. */
export function compared(
  base: Omit<Figure, 'lanes' | 'peer' | 'compared'>,
  series: { lanes: number[]; peer: number[] },
  peerName: string,
  how: Comparison = 'ratio',
): Figure {
  return {
    ...base,
    lanes: summarize(series.lanes),
    peer: { name: peerName, value: summarize(series.peer) },
    compared: { how, value: pairwise(series.lanes, series.peer, how) },
  };
}

/** Repeats `fn` `times` times in a row and returns each result. */
export async function repeat(times: number, fn: (i: number) => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < times; i++) out.push(await fn(i));
  return out;
}

/** Like repeat, but stops early once `budgetMs` has passed (a figure that grew slow must not hold the run). */
export async function repeatWithin(times: number, budgetMs: number, fn: (i: number) => Promise<number>): Promise<number[]> {
  const end = performance.now() + budgetMs;
  const out: number[] = [];
  for (let i = 0; i < times && (i === 0 || performance.now() < end); i++) out.push(await fn(i));
  return out;
}

/** The tests' bounded wait, with the benchmark's defaults: a longer limit, a closer look. */
export function until(check: () => Promise<boolean> | boolean, what: string, limitMs = 120_000, everyMs = 10): Promise<void> {
  return waitFor(check, `benchmark: ${what}`, limitMs, everyMs);
}

/** Wall-clock time in ms with sub-ms precision, comparable across processes of this machine. */
export const wallNow = (): number => performance.timeOrigin + performance.now();

export const perSecond = (count: number, ms: number): number => (count / ms) * 1000;
