// Several full benchmark runs as one: each figure the median of the runs' medians, its range the
// runs', its target judged again on that median (one good run cannot carry it), and a figure whose
// words carry its run's own numbers still met as the same figure.
import { describe, expect, it } from 'vitest';
import { acrossRuns, judgeAll, summarize, type Figure } from './stats.js';

const ratio = (lanes: number, peer: number, r: number): Figure =>
  judgeAll([
    {
      section: 'Putting work in',
      what: 'one add per request',
      unit: 'jobs/s',
      lanes: summarize([lanes]),
      peer: { name: 'BullMQ', value: summarize([peer]) },
      compared: { how: 'ratio', value: summarize([r]) },
      target: 'ratio ≥ 1',
      judge: (f) => f.compared!.value.median >= 1,
    },
  ])[0]!;

describe('figures across runs', () => {
  it('one good run of three does not meet the target; the median is the run in the middle', () => {
    const runs = [[ratio(900, 800, 1.12)], [ratio(500, 800, 0.62)], [ratio(600, 700, 0.86)]];
    expect(runs[0]![0]!.met).toBe(true);
    const [f] = acrossRuns(runs);
    expect(f!.compared!.value).toMatchObject({ median: 0.86, min: 0.62, max: 1.12, n: 3 });
    expect(f!.lanes).toMatchObject({ median: 600, min: 500, max: 900 });
    expect(f!.peer!.value.median).toBe(800);
    expect(f!.met).toBe(false);
  });

  it('a figure whose words carry its run’s numbers is one figure; one missing from a run says so', () => {
    const sample = (processes: number, ms: number): Figure => ({ section: 'Watching the machine', what: `measure 50 workers (${processes} processes on the machine)`, unit: 'ms', lanes: summarize([ms]) });
    const figures = acrossRuns([[sample(269, 5)], [sample(303, 7)], [ratio(1, 1, 1)]]);
    expect(figures).toHaveLength(2);
    expect(figures[0]).toMatchObject({ what: 'measure 50 workers (269 processes on the machine)', lanes: { median: 6, n: 2 }, note: 'in 2 of 3 runs' });
  });
});
