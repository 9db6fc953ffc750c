// `lanes restart`: finished jobs run again, as new jobs with the same specs (linked both ways)
// or with `inPlace` under their own ids. This engine's jobs are looked at and restarted as sets,
// a chunk a statement (store/job-changes/restart.ts): all of them looked at before the first is
// restarted, then written a chunk a transaction with a turn of the event loop between, and one
// announcement once all are written — so ten thousand restarts cost less than ten thousand adds
// and status answers meanwhile. Ten thousand rows are a few tens of milliseconds of SQLite
// however they are written (the indexes of the queue), so a reader meanwhile may see the first
// chunks queued (and a worker start them) before the request answers; a job that changed since it
// was looked at stops the restart at its chunk, saying how many went before it. A shared lane's
// jobs go one by one through its queue.
import type { Job, JobSummary } from '../../../shared/model.js';
import type { LanesHandlers, ParsedInput } from '../../../shared/requests.js';
import { badRequest, conflict } from '../../../shared/errors.js';
import { JOB_EVENTS_PER_REQUEST } from '../../../shared/limits.js';
import type { NewJob } from '../store/jobs.js';
import { isSharedId } from '../store/job-ids.js';
import { cannotRunAfter } from '../store/job-waits.js';
import type { Restarted } from '../store/job-changes/restart.js';
import type { JobsPort } from './context.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { jobOrGone, missingJob } from './clean.js';
import { enqueueByStore } from './jobs.js';

type Input = ParsedInput<'restartJobs'>;

const notFinished = (id: number, state: string) => conflict(`job ${id} is ${state}; only a finished job can be restarted, and nothing was restarted`, 'ids');

/** Jobs one statement looks at or restarts: a few milliseconds of SQLite, so status is never held up for long. */
const CHUNK = 1_000;

/** How these stand, a chunk a statement between turns of the event loop. */
async function statesOf(e: JobsPort, ids: readonly number[]) {
  const out: ReturnType<JobsPort['jobs']['statesOf']> = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    if (i > 0) await nextTurn();
    out.push(...e.jobs.statesOf(ids.slice(i, i + CHUNK)));
  }
  return out;
}

/** What is restarted where: this engine's jobs whose lane is its own (by set), and the rest (one by one). */
interface Plan {
  bySet: number[];
  oneByOne: Job[];
}

/** Every job looked at before any is restarted: a refusal changes nothing. */
async function checked(e: JobsPort, input: Input): Promise<Plan> {
  const plan: Plan = { bySet: [], oneByOne: [] };
  const localLane = new Map<string, boolean>();
  const ownLane = (lane: string) => localLane.get(lane) ?? localLane.set(lane, e.queues.forLane(lane).kind === 'local').get(lane)!;
  const rest: number[] = [];
  const seen = new Set<number>();
  for (const [asked, id, lane, state] of await statesOf(e, input.ids.filter((id) => !isSharedId(id)))) {
    if (id === null) throw missingJob(e.cleaner, asked, 'ids');
    if (state === 'queued' || state === 'running') throw notFinished(id, state);
    // In place, an id asked twice is queued again once (a second chunk would find it queued).
    if (input.inPlace ? !seen.has(id) : ownLane(lane!)) plan.bySet.push(id);
    else if (!input.inPlace) rest.push(id);
    seen.add(id);
  }
  for (const id of [...rest, ...input.ids.filter(isSharedId)]) {
    const j = await jobOrGone(e.cleaner, id, () => e.queues.forJob(id).get(id), 'ids');
    if (j.state === 'queued' || j.state === 'running') throw notFinished(j.id, j.state);
    if (input.inPlace && j.state === 'succeeded' && e.queues.forJob(j.id).kind !== 'local') {
      throw badRequest(`job ${j.id} succeeded in a shared lane, whose queue keeps no way to run a finished job again under its id; restart it without --in-place`, 'ids');
    }
    plan.oneByOne.push(j);
  }
  if (input.inPlace) {
    // Queued again under its own id it would wait for its links, and one of them can no longer succeed (and is not restarted with it).
    const [lost] = e.jobs.waits.lostDependencies(input.ids, new Set(input.ids));
    if (lost) throw conflict(`job ${lost[0]} runs after job ${lost[1].id}: ${cannotRunAfter(lost[1])}; nothing was restarted`, 'ids');
  }
  return plan;
}

/** Every id written a chunk a transaction; a refusal part-way (a job changed since it was looked at) says what went before it, which `done` has heard of. */
async function inChunks(ids: readonly number[], write: (chunk: readonly number[]) => Promise<Restarted>, done: (jobs: JobSummary[]) => void): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = await write(ids.slice(i, i + CHUNK));
    if ('refused' in chunk) {
      const before = i === 0 ? 'nothing was restarted' : `of the ${ids.length.toLocaleString('en-US')}, the first ${i.toLocaleString('en-US')} were restarted and the rest were not`;
      throw conflict(`${chunk.refused}; ${before}`, 'ids');
    }
    done(chunk.jobs);
  }
}

/** New jobs with the same specs, linked to the ones they restart: this engine's in one write, the rest as addJobs makes them. */
async function asNew(e: JobsPort, plan: Plan, now: number, made: Map<number, JobSummary[]>): Promise<void> {
  const keep = (j: JobSummary, of: number) => made.get(of)?.push(j) ?? made.set(of, [j]);
  // The store answers each chunk in the order asked, one new job per id asked.
  await inChunks(plan.bySet, (chunk) => e.jobs.restartAsNew(chunk, now), (jobs) => jobs.forEach((j) => keep(j, j.restartOf!)));
  const fresh = plan.oneByOne.map((j) => {
    const f: NewJob = { lane: j.lane, spec: j.spec, maxAttempts: j.maxAttempts, timeoutMs: j.timeoutMs, restartOf: j.id };
    if (j.priority !== undefined) f.priority = j.priority;
    if (j.labels !== undefined) f.labels = j.labels;
    return f;
  });
  // A shared lane's queue answers in the order asked, without the link: matched by place.
  if (fresh.length > 0) (await enqueueByStore(e, fresh, now)).forEach((j, i) => keep(j, fresh[i]!.restartOf!));
}

/** The same ids queued again: this engine's in one write (all or none), a shared lane's through its queue. */
async function inPlace(e: JobsPort, plan: Plan, again: Map<number, JobSummary[]>): Promise<void> {
  const together = new Set(plan.bySet);
  await inChunks(plan.bySet, (chunk) => e.jobs.requeueFinishedAll(chunk, together), (jobs) => jobs.forEach((j) => again.set(j.id, [j])));
  for (const j of plan.oneByOne) {
    if (again.has(j.id)) continue;
    const shared = await e.queues.forJob(j.id).retry(j.id);
    if (!shared) throw conflict(`job ${j.id} changed while it was being restarted; this engine's were restarted, and of its shared lanes' those before it`, 'ids');
    again.set(j.id, [shared]);
  }
}

export function restartHandler(e: JobsPort): LanesHandlers['restartJobs'] {
  /** One announcement for the set, as for added jobs: a job event each for a few, one `jobs` event for many. */
  const announce = (again: JobSummary[], inPlace: boolean) => {
    if (again.length === 0) return;
    if (again.length <= JOB_EVENTS_PER_REQUEST) for (const j of again) e.events.emit('job', j);
    else e.events.emit('jobs', { ids: again.map((j) => j.id), change: inPlace ? 'changed' : 'added' });
    e.fleet.jobsArrived(new Set(again.map((j) => j.lane)));
  };
  return async (input) => {
    const plan = await checked(e, input);
    const made = new Map<number, JobSummary[]>();
    try {
      await (input.inPlace ? inPlace(e, plan, made) : asNew(e, plan, Date.now(), made));
    } catch (refused) {
      // What went before a refusal part-way is queued: it is announced all the same.
      announce([...made.values()].flat(), input.inPlace);
      throw refused;
    }
    // In the order asked; an id asked twice is one job in place, two new jobs otherwise.
    const again = input.ids.map((id) => (input.inPlace ? made.get(id)![0]! : made.get(id)!.shift()!));
    announce(again, input.inPlace);
    return { ids: again.map((j) => j.id) };
  };
}
