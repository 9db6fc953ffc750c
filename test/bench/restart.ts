// Restarting many finished jobs against adding as many, through a real daemon: `restartJobs` of N
// cancelled jobs (as new jobs, and in place) beside one `addJobs` of N, and the slowest `status`
// call another client makes, one after another, while each runs. A restart is a set statement a
// chunk and one announcement for the set, so it should cost about what the add does, and leave
// status answering.
import { connect } from '../../electron/cli/connect.js';
import { withDaemon, type Daemon } from './lanes-daemon.js';
import { compared, summarize, type Figure } from './stats.js';

const SECTION = 'Restarting many jobs';
const LANE = 'parked';

/** Runs `work` while a second client asks for status back to back; the work's wall ms and the slowest status call. */
async function withStatusCalls(d: Daemon, work: () => Promise<unknown>): Promise<{ ms: number; slowestStatusMs: number }> {
  const { client } = connect(d.dataDir);
  let running = true;
  let slowest = 0;
  const poller = (async () => {
    while (running) {
      const t0 = performance.now();
      await client.call('status', {});
      slowest = Math.max(slowest, performance.now() - t0);
    }
  })();
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  running = false;
  await poller;
  return { ms, slowestStatusMs: slowest };
}

export async function restartFigures(pairs: number, n: number): Promise<Figure[]> {
  const s = { add: [] as number[], fresh: [] as number[], inPlace: [] as number[], addStatus: [] as number[], freshStatus: [] as number[], inPlaceStatus: [] as number[] };
  const jobs = Array.from({ length: n }, (_, i) => ({ lane: LANE, argv: ['echo', String(i)] }));
  for (let i = 0; i < pairs; i++) {
    await withDaemon(async (d) => {
      await d.api('addLane', { name: LANE, cap: 0 });
      // Warm the request path once, untimed, as a long-running engine is.
      await d.api('addJobs', { jobs: jobs.slice(0, 100) });
      let ids: number[] = [];
      const add = await withStatusCalls(d, async () => (ids = (await d.api('addJobs', { jobs })).ids));
      await d.api('cancelJobs', { lane: LANE, state: 'queued' });
      let again: number[] = [];
      const fresh = await withStatusCalls(d, async () => (again = (await d.api('restartJobs', { ids })).ids));
      await d.api('cancelJobs', { lane: LANE, state: 'queued' });
      const inPlace = await withStatusCalls(d, () => d.api('restartJobs', { ids: again, inPlace: true }));
      s.add.push(add.ms);
      s.fresh.push(fresh.ms);
      s.inPlace.push(inPlace.ms);
      s.addStatus.push(add.slowestStatusMs);
      s.freshStatus.push(fresh.slowestStatusMs);
      s.inPlaceStatus.push(inPlace.slowestStatusMs);
    });
  }
  const count = n.toLocaleString('en-US');
  const ratio = (what: string, series: number[]) => {
    const f = compared({ section: SECTION, what, unit: 'ms', target: 'ratio ≤ 2' }, { lanes: series, peer: s.add }, `addJobs of ${count}, same daemon`);
    f.judge = (g) => g.compared!.value.median <= 2;
    return f;
  };
  const slowest = (what: string, series: number[]): Figure => ({ section: SECTION, what, unit: 'ms', lanes: summarize(series), target: '≤ 100 ms', judge: (g) => g.lanes.median <= 100 });
  return [
    ratio(`restartJobs of ${count} finished jobs, as new jobs`, s.fresh),
    ratio(`restartJobs of ${count} finished jobs, in place`, s.inPlace),
    slowest(`slowest status call while ${count} are restarted as new jobs`, s.freshStatus),
    slowest(`slowest status call while ${count} are restarted in place`, s.inPlaceStatus),
    { section: SECTION, what: `slowest status call while ${count} are added`, unit: 'ms', lanes: summarize(s.addStatus), note: 'beside the two above: what an add of as many holds status for' },
  ];
}
