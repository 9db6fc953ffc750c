// Many lanes sharing a small machine: `lanes` lanes of short jobs under a ceiling of 2
// (LANES_CORES=2), against the same jobs in one lane of cap 2. A fair share that thrashes —
// starting a worker for a lane, then stopping it for the next before it finished anything — shows
// up as worker starts per lane above 1 and as throughput far below the one lane's.
import type { JobSummary } from '../../shared/model.js';
import { withDaemon, type Daemon } from './lanes-daemon.js';
import { alternate, perSecond, summarize, until, type Figure } from './stats.js';

const SECTION = 'Many lanes, ceiling 2';
const LIMIT_MS = 600_000;

async function finishedTotal(d: Daemon): Promise<number> {
  return (await d.api('status', {})).lanes.reduce((n, l) => n + l.succeeded + l.failed, 0);
}

interface ManyRun {
  jobsPerSecond: number;
  startsPerLane: number;
  longestFirstWaitMs: number;
}

/**
 * All jobs' summaries, once they have all finished. Looking every 250 ms, and timing by the
 * engine's own record of when the last one ended: a status of 200 lanes asked for every few
 * milliseconds would be the benchmark's load on the engine, not the engine's work.
 */
async function whenAllFinished(d: Daemon, total: number, what: string): Promise<JobSummary[]> {
  await until(async () => (await finishedTotal(d)) >= total, what, LIMIT_MS, 250);
  const jobs: JobSummary[] = [];
  for (let before: number | undefined; jobs.length < total; ) {
    const page = await d.api('listJobs', { limit: 1000, ...(before ? { beforeId: before } : {}) });
    jobs.push(...page.jobs);
    if (page.jobs.length === 0) break;
    before = page.jobs[page.jobs.length - 1]!.id;
  }
  return jobs;
}

/** Jobs per second from `since` (before they were queued) to the last one's end. */
const rateOf = (jobs: JobSummary[], since: number) => perSecond(jobs.length, Math.max(...jobs.map((j) => j.finishedAt ?? Infinity)) - since);

async function manyLanes(lanes: number, perLane: number): Promise<ManyRun> {
  return withDaemon(async (d) => {
    const names = Array.from({ length: lanes }, (_, i) => `l-${String(i).padStart(3, '0')}`);
    for (const name of names) await d.api('addLane', { name, cap: 1 });
    const total = lanes * perLane;
    const since = Date.now();
    // Round-robin, so no lane's jobs all come first.
    await d.api('addJobs', { jobs: Array.from({ length: total }, (_, i) => ({ lane: names[i % lanes]!, argv: ['true'] })) });
    const jobs = await whenAllFinished(d, total, `${total} jobs in ${lanes} lanes`);
    const ledger = await d.api('scaleEvents', { limit: 10_000 });
    // A worker that moves over from another lane (`turn`) is not a start: no process begins.
    const starts = ledger.filter((e) => e.at >= since && e.lane !== 'worker' && e.reason !== 'turn').reduce((n, e) => n + Math.max(0, e.to - e.from), 0);
    const firstStart = new Map<string, number>();
    for (const j of jobs) if (j.startedAt !== null) firstStart.set(j.lane, Math.min(firstStart.get(j.lane) ?? Infinity, j.startedAt - j.createdAt));
    return { jobsPerSecond: rateOf(jobs, since), startsPerLane: starts / lanes, longestFirstWaitMs: Math.max(...firstStart.values()) };
  });
}

async function oneLane(total: number): Promise<number> {
  return withDaemon(async (d) => {
    await d.api('setCap', { lane: 'worker', cap: 2 });
    const since = Date.now();
    await d.api('addJobs', { jobs: Array.from({ length: total }, () => ({ argv: ['true'] })) });
    return rateOf(await whenAllFinished(d, total, `${total} jobs in one lane`), since);
  });
}

export async function manyLaneFigures(pairs: number, lanes: number, perLane: number): Promise<Figure[]> {
  const runs: ManyRun[] = [];
  const series = await alternate(
    pairs,
    async () => {
      const r = await manyLanes(lanes, perLane);
      runs.push(r);
      return r.jobsPerSecond;
    },
    () => oneLane(lanes * perLane),
  );
  const fraction = summarize(series.lanes.map((x, i) => (x / series.peer[i]!) * 100));
  const starts = summarize(runs.map((r) => r.startsPerLane));
  const wait = summarize(runs.map((r) => r.longestFirstWaitMs / 1000));
  const jobs = `${lanes} lanes × ${perLane} \`true\` jobs`;
  return [
    {
      section: SECTION,
      what: `${jobs}: throughput as a share of one lane of cap 2 with the same jobs`,
      unit: '%',
      lanes: fraction,
      peer: { name: 'one lane (jobs/s)', value: summarize(series.peer) },
      target: '≥ 90 %',
      judge: (f) => f.lanes.median >= 90,
      note: `Lanes: ${Math.round(summarize(series.lanes).median)} jobs/s`,
    },
    { section: SECTION, what: `${jobs}: worker starts per lane (each lane needs one turn)`, unit: 'starts', lanes: starts, target: '≤ 1', judge: (f) => f.lanes.median <= 1 },
    { section: SECTION, what: `${jobs}: the longest any lane waited for its first job to start`, unit: 's', lanes: wait },
  ];
}
