// Requests about jobs: queue them, list and read them, cancel and retry them.
import type { Job, JobSummary } from '../../../shared/model.js';
import type { LanesHandlers, ParsedInput } from '../../../shared/requests.js';
import { badRequest, conflict } from '../../../shared/errors.js';
import { DEFAULT_MAX_ATTEMPTS, JOB_EVENTS_PER_REQUEST } from '../../../shared/limits.js';
import type { NewJob } from '../store/jobs.js';
import { existingLane, type JobsPort } from './context.js';
import { checkDirectory } from './places.js';
import { specOfRequest } from '../../../shared/schemas.js';
import { checkAfter, checkOrderingOnLane, notBeforeOf } from './job-order.js';
import { jobOrGone } from './clean.js';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Jobs of a batch looked at between turns of the event loop: a few milliseconds. */
const SLICE = 1_000;

/** How long a cancel waits for a worker to drop a job from its hand: one message there and back. */
const LEAVE_QUEUE_WAIT_MS = 2_000;

type JobHandlers = Pick<LanesHandlers, 'addJob' | 'addJobs' | 'listJobs' | 'job' | 'logTail' | 'cancel' | 'retry'>;

// Every job lives in its lane's store: the local one, or a shared queue (queues/queues.ts); a
// cleaned one answers with what is kept of it (clean.ts).
const jobOf = (e: JobsPort, id: number): Promise<Job> => jobOrGone(e.cleaner, id, () => e.queues.forJob(id).get(id));
const summaryOf = (e: JobsPort, id: number, tail?: string): Promise<JobSummary> => jobOrGone(e.cleaner, id, () => e.queues.forJob(id).summary(id), 'id', tail);

/** A job as the request asks for it, checked against its lane, as the store takes it. */
function toNewJob(e: JobsPort, input: ParsedInput<'addJob'>, now: number, field = '', checked = new Set<string>()): NewJob {
  const target = existingLane(e, input.lane, `${field}lane`);
  // A batch usually runs everything in one folder: look at each folder once.
  if (input.cwd !== undefined && !checked.has(input.cwd)) {
    checkDirectory(input.cwd, `${field}cwd`);
    checked.add(input.cwd);
  }
  if (input.payload !== undefined && !target.workerCommand) throw badRequest(`lane "${target.name}" runs shell commands; a payload needs a lane with a worker command`, `${field}payload`);
  if (input.payload === undefined && target.workerCommand) throw badRequest(`lane "${target.name}" runs a worker command; give it a payload instead of a command`, `${field}argv`);
  checkOrderingOnLane(e, target, input, field);
  if (input.after !== undefined) checkAfter(e, input.after, `${field}after`);
  const spec = specOfRequest(input);
  const timeoutMs = input.timeoutSeconds !== undefined ? Math.round(input.timeoutSeconds * 1000) : target.timeoutMs;
  const notBefore = notBeforeOf(input, now);
  return {
    lane: target.name,
    spec,
    maxAttempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    timeoutMs,
    ...(input.priority !== undefined ? { priority: input.priority } : {}),
    ...(notBefore !== null ? { notBefore } : {}),
    ...(input.after !== undefined && input.after.length > 0 ? { after: [...new Set(input.after)] } : {}),
    ...(input.labels !== undefined && input.labels.length > 0 ? { labels: input.labels } : {}),
  };
}

/** Jobs of one store in one write; a batch spanning a shared lane and others is split by store, answered in its order. */
export async function enqueueByStore(e: JobsPort, jobs: NewJob[], now: number): Promise<JobSummary[]> {
  const stores = new Set(jobs.map((j) => e.queues.forLane(j.lane)));
  if (stores.size === 1) return [...stores][0]!.enqueue(jobs, now);
  const answers = new Map<NewJob, JobSummary>();
  for (const q of stores) {
    const mine = jobs.filter((j) => e.queues.forLane(j.lane) === q);
    (await q.enqueue(mine, now)).forEach((added, i) => answers.set(mine[i]!, added));
  }
  return jobs.map((j) => answers.get(j)!);
}

/** The job's next state after queued (cancelled, or running if it had just started), as it happens. */
function leavesQueue(e: JobsPort, queued: JobSummary) {
  const id = queued.id;
  let off = () => {};
  const promise = new Promise<JobSummary>((resolve) => {
    const settle = (job: JobSummary) => {
      off();
      resolve(job);
    };
    const timer = setTimeout(() => void summaryOf(e, id).then(settle, () => settle(queued)), LEAVE_QUEUE_WAIT_MS);
    const unsubscribe = e.events.subscribe((ev) => {
      if (ev.type === 'job' && ev.data.id === id && ev.data.state !== 'queued') settle(ev.data);
    });
    off = () => (clearTimeout(timer), unsubscribe());
  });
  return { promise, off: () => off() };
}

export function jobHandlers(e: JobsPort): JobHandlers {
  const lane = (name: string, field = 'lane') => existingLane(e, name, field);
  const job = (id: number) => jobOf(e, id);
  const summary = (id: number, tail?: string) => summaryOf(e, id, tail);
  const enqueue = async (jobs: NewJob[], now: number): Promise<number[]> => {
    const added = await enqueueByStore(e, jobs, now);
    const ids = added.map((j) => j.id);
    if (ids.length <= JOB_EVENTS_PER_REQUEST) for (const job of added) e.events.emit('job', job);
    else e.events.emit('jobs', { ids, change: 'added' });
    e.fleet.jobsArrived(new Set(jobs.map((j) => j.lane)));
    return ids;
  };

  return {
    // One moment for the add: a delay counts from when the job is stored as queued.
    addJob: async (input) => {
      const now = Date.now();
      return { id: (await enqueue([toNewJob(e, input, now)], now))[0]! };
    },
    // Looked at against the lanes a slice at a time, between turns of the event loop, then stored in one write.
    addJobs: async (input) => {
      const checked = new Set<string>();
      const now = Date.now();
      const jobs: NewJob[] = [];
      for (let i = 0; i < input.jobs.length; i += SLICE) {
        if (i > 0) await nextTurn();
        jobs.push(...input.jobs.slice(i, i + SLICE).map((j, k) => toNewJob(e, j, now, `jobs.${i + k}.`, checked)));
      }
      return { ids: await enqueue(jobs, now) };
    },
    listJobs: (input) => {
      if (input.lane) lane(input.lane);
      const filter = { lane: input.lane, state: input.state as Job['state'] | undefined, order: input.order, beforeId: input.beforeId, afterId: input.afterId, text: input.text, label: input.label, dependents: input.dependents, limit: input.limit };
      const seq = e.events.lastSeq;
      return e.queues.page(filter).then((page) => ({ seq, ...page }));
    },
    job: async (input) => {
      const seq = e.events.lastSeq;
      return { ...(await job(input.id)), seq };
    },
    logTail: async (input) => {
      await summary(input.id, '; its log went with it');
      return e.queues.forJob(input.id).log(input.id, input);
    },
    cancel: async (input) => {
      const q = e.queues.forJob(input.id);
      const current = await summary(input.id);
      if (current.state === 'queued') {
        // A job in a worker's hand is the worker's to drop: it may be starting it this instant.
        const left = leavesQueue(e, current);
        if (e.fleet.cancel(input.id, e.cancelGraceMs)) return left.promise;
        left.off();
        const done = await q.cancelQueued(input.id, Date.now());
        if (done) {
          e.events.emit('job', done);
          e.fleet.jobsLeft();
          return done;
        }
      }
      if (current.state === 'running') {
        // The outcome arrives as a job event once its processes have ended (on whichever engine runs it).
        if (!e.fleet.cancel(input.id, e.cancelGraceMs)) await q.cancelElsewhere(input.id);
        return summary(input.id);
      }
      throw conflict(`job ${input.id} has already ${current.state === 'cancelled' ? 'been cancelled' : current.state}`, 'id');
    },
    retry: async (input) => {
      const current = await summary(input.id);
      const again = await e.queues.forJob(input.id).retry(input.id);
      if (!again) throw conflict(`only a failed or cancelled job can be retried; job ${input.id} is ${current.state}`, 'id');
      e.events.emit('job', again);
      e.fleet.jobsArrived([again.lane]);
      return again;
    },
  };
}
