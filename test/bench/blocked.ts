// Claiming runnable jobs while many others cannot run yet: no-op jobs drained with and without
// 100,000 jobs of the same lane queued before them — half waiting for a job that never runs, half
// scheduled for tomorrow — alternately. The waiting jobs are older, so a queue that looked through
// them in id order would pay for every one on every claim; Lanes keeps them out of the queue's head.
import { drain, NOOP_WORKER, type Daemon } from './lanes-daemon.js';
import { compared, type Figure } from './stats.js';

const SECTION = 'Jobs through the engine';

/** `blocked` jobs in lane `noop` that cannot run: after a job of a lane at cap 0, or a day from now. */
async function blockLane(d: Daemon, blocked: number): Promise<void> {
  await d.api('addLane', { name: 'hold', cap: 0 });
  const { id } = await d.api('addJob', { lane: 'hold', argv: ['true'] });
  const jobs = Array.from({ length: blocked }, (_, i) => (i % 2 === 0 ? { lane: 'noop', payload: {}, after: [id] } : { lane: 'noop', payload: {}, delaySeconds: 86_400 }));
  for (let i = 0; i < jobs.length; i += 10_000) await d.api('addJobs', { jobs: jobs.slice(i, i + 10_000) });
  const lane = (await d.api('status', {})).lanes.find((l) => l.name === 'noop');
  if (!lane || lane.waitingForJobs + lane.scheduled !== blocked) throw new Error(`expected ${blocked} blocked jobs, the lane says ${lane?.waitingForJobs} waiting for jobs and ${lane?.scheduled} scheduled`);
}

export async function blockedFigures(pairs: number, n: number, blocked: number): Promise<Figure[]> {
  const lane = { name: 'noop', workerCommand: NOOP_WORKER };
  const with_: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < pairs; i++) {
    with_.push((await drain(n, 2, { payload: {} }, lane, 200, (d) => blockLane(d, blocked))).jobsPerSecond);
    without.push((await drain(n, 2, { payload: {} }, lane)).jobsPerSecond);
  }
  const figure = compared(
    { section: SECTION, what: `no-op jobs drained by 2 workers (${n.toLocaleString('en-US')} jobs) with ${blocked.toLocaleString('en-US')} older jobs of the lane waiting for another job or for tomorrow`, unit: 'jobs/s', target: 'ratio ≥ 0.9' },
    { lanes: with_, peer: without },
    'the same drain with none waiting',
  );
  figure.met = figure.compared!.value.median >= 0.9;
  return [figure];
}
