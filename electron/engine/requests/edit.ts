// Changing a job before it runs (`lanes edit`), and running finished jobs again (`lanes restart`).
// An edit is for a job still queued and in no worker's hand: one running or finished is refused
// and nothing changes, and one that starts while the edit is made keeps what it had (the store's
// guarded UPDATE decides). A restart is a new job with the same spec, linked both ways, or with
// `inPlace` the same id queued again — the set in a few large writes (all checked before the
// first) and one announcement, as addJobs does, so ten thousand restarts cost about what ten
// thousand adds do and status answers meanwhile.
import type { Job, JobSpec, JobSummary } from '../../../shared/model.js';
import type { LanesHandlers, ParsedInput } from '../../../shared/requests.js';
import { badRequest, conflict } from '../../../shared/errors.js';
import { parseSpec, specOfRequest } from '../../../shared/schemas.js';
import type { NewJob } from '../store/jobs.js';
import { existingLane, type JobsPort } from './context.js';
import { checkAfter, checkOrderingOnLane, notBeforeOf } from './job-order.js';
import { checkDirectory } from './places.js';
import { jobOrGone } from './clean.js';
import { cannotRunAfter } from '../store/job-waits.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { JOB_EVENTS_PER_REQUEST } from '../../../shared/limits.js';
import { enqueueByStore } from './jobs.js';

type EditHandlers = Pick<LanesHandlers, 'editJob' | 'restartJobs'>;

/** The spec an edit leaves: a new command if one is given, and the folder and environment given laid over. */
function editedSpec(current: JobSpec, input: ParsedInput<'editJob'>): JobSpec {
  if (input.payload !== undefined) return { kind: 'payload', payload: input.payload };
  const base = current.kind === 'payload' ? {} : { cwd: current.cwd, env: current.env };
  const where = { cwd: input.cwd ?? base.cwd, env: input.env ?? base.env };
  if (input.argv !== undefined || input.shell !== undefined) return specOfRequest({ argv: input.argv, shell: input.shell, ...where });
  if (current.kind === 'payload') return current;
  return current.kind === 'argv' ? specOfRequest({ argv: current.argv, ...where }) : specOfRequest({ shell: current.script, ...where });
}

const wasWords = (j: JobSummary) => (j.state === 'running' ? 'is running' : j.state === 'cancelled' ? 'was cancelled' : `has ${j.state}`);

/**
 * Jobs read, and restarted, a chunk at a time between turns of the event loop: ten thousand in one
 * write held the engine for most of a second (a status call waited as long); a thousand take a
 * few tens of milliseconds. One announcement still covers the set.
 */
const READ_CHUNK = 250;
const WRITE_CHUNK = 500;

/** Each id read in turn, a chunk between turns of the event loop. */
async function readAll<T>(ids: readonly number[], read: (id: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += READ_CHUNK) {
    if (i > 0) await nextTurn();
    out.push(...(await Promise.all(ids.slice(i, i + READ_CHUNK).map(read))));
  }
  return out;
}

/** New jobs with the same specs, linked to the ones they restart, a chunk a write (as addJobs makes them, store by store). */
async function asNew(e: JobsPort, jobs: readonly Job[]): Promise<JobSummary[]> {
  const now = Date.now();
  const fresh = jobs.map((j) => {
    const f: NewJob = { lane: j.lane, spec: j.spec, maxAttempts: j.maxAttempts, timeoutMs: j.timeoutMs, restartOf: j.id };
    if (j.priority !== undefined) f.priority = j.priority;
    if (j.labels !== undefined) f.labels = j.labels;
    return f;
  });
  const out: JobSummary[] = [];
  for (let i = 0; i < fresh.length; i += WRITE_CHUNK) out.push(...(await enqueueByStore(e, fresh.slice(i, i + WRITE_CHUNK), now)));
  return out;
}

/**
 * The same ids queued again: this engine's a chunk a write, each chunk all or none (a job moved
 * meanwhile stops the restart there, saying how many went before it); a shared lane's through its queue.
 */
async function inPlace(e: JobsPort, jobs: readonly Job[]): Promise<JobSummary[]> {
  const local = jobs.filter((j) => e.queues.forJob(j.id).kind === 'local').map((j) => j.id);
  const together = new Set(local);
  const again = new Map<number, JobSummary>();
  for (let i = 0; i < local.length; i += WRITE_CHUNK) {
    const done = await e.jobs.requeueFinishedAll(local.slice(i, i + WRITE_CHUNK), together);
    if ('refused' in done) throw conflict(`${done.refused}${i > 0 ? ` (of the ${local.length.toLocaleString('en-US')}, the first ${i.toLocaleString('en-US')} were restarted)` : ''}`, 'ids');
    for (const j of done.jobs) again.set(j.id, j);
  }
  for (const j of jobs) {
    if (again.has(j.id)) continue;
    const shared = await e.queues.forJob(j.id).retry(j.id);
    if (!shared) throw conflict(`job ${j.id} changed while it was being restarted; this engine's were restarted, and of its shared lanes' those before it`, 'ids');
    again.set(j.id, shared);
  }
  return jobs.map((j) => again.get(j.id)!);
}

export function editHandlers(e: JobsPort): EditHandlers {
  const job = (id: number, field = 'id'): Promise<Job> => jobOrGone(e.cleaner, id, () => e.queues.forJob(id).get(id), field);

  return {
    editJob: async (input) => {
      const current = await job(input.id);
      const lane = existingLane(e, current.lane);
      if (lane.queue !== null) throw badRequest(`job ${input.id} is in lane "${lane.name}", shared with other engines, where a queued job cannot be edited yet; cancel it and add it again`, 'id');
      if (current.state !== 'queued') throw conflict(`job ${input.id} ${wasWords(current)}; only a job still queued can be edited, and nothing was changed`, 'id');
      if (e.fleet.jobsInWorkers(lane.name).inHand.includes(input.id)) throw conflict(`job ${input.id} is about to start (a worker holds it next); nothing was changed`, 'id');
      if (input.payload !== undefined && !lane.workerCommand) throw badRequest(`lane "${lane.name}" runs shell commands; a payload needs a lane with a worker command`, 'payload');
      if ((input.argv !== undefined || input.shell !== undefined || input.cwd !== undefined || input.env !== undefined) && lane.workerCommand) {
        throw badRequest(`lane "${lane.name}" runs a worker command; its jobs take a payload, not a command, folder or environment`, 'argv');
      }
      checkOrderingOnLane(e, lane, input);
      if (input.cwd !== undefined) checkDirectory(input.cwd, 'cwd');
      if (input.after !== undefined) {
        checkAfter(e, input.after, 'after');
        if (e.jobs.waits.wouldCycle(input.id, input.after)) throw badRequest(`job ${input.id} cannot run after these: one of them already waits for it, so neither would ever run`, 'after');
      }
      const spec = editedSpec(current.spec, input);
      const checked = parseSpec(spec);
      if ('problem' in checked) throw badRequest(`the edited job: ${checked.problem}`, 'argv');
      const now = Date.now();
      const notBefore = input.delaySeconds !== undefined || input.notBefore !== undefined ? notBeforeOf(input, now) : (current.notBefore ?? null);
      const edited = e.jobs.edit(input.id, {
        spec: checked.spec,
        maxAttempts: input.maxAttempts ?? current.maxAttempts,
        timeoutMs: input.timeoutSeconds !== undefined ? Math.round(input.timeoutSeconds * 1000) : current.timeoutMs,
        priority: input.priority ?? current.priority ?? 0,
        notBefore,
        labels: input.labels ?? current.labels ?? [],
        ...(input.after !== undefined ? { after: [...new Set(input.after)] } : {}),
      });
      if (!edited) throw conflict(`job ${input.id} started or was cancelled while it was being edited; nothing was changed`, 'id');
      e.events.emit('job', edited);
      e.fleet.jobsArrived([edited.lane]);
      return edited;
    },
    restartJobs: async (input) => {
      // All read and checked before any is restarted: a refusal changes nothing.
      const jobs = await readAll(input.ids, (id) => job(id, 'ids'));
      const lost = input.inPlace ? e.jobs.waits.lostDependencies(input.ids, new Set(input.ids)) : new Map();
      for (const j of jobs) {
        if (j.state === 'queued' || j.state === 'running') throw conflict(`job ${j.id} is ${j.state}; only a finished job can be restarted, and nothing was restarted`, 'ids');
        if (input.inPlace && j.state === 'succeeded' && e.queues.forJob(j.id).kind !== 'local') {
          throw badRequest(`job ${j.id} succeeded in a shared lane, whose queue keeps no way to run a finished job again under its id; restart it without --in-place`, 'ids');
        }
        // Queued again under its own id it would wait for its links, and one of them can no longer succeed (and is not restarted with it).
        const gone = lost.get(j.id);
        if (gone) throw conflict(`job ${j.id} runs after job ${gone.id}: ${cannotRunAfter(gone)}; nothing was restarted`, 'ids');
      }
      const again = input.inPlace ? await inPlace(e, jobs) : await asNew(e, jobs);
      // One announcement for the set, as for added jobs: a job event each for a few, one `jobs` event for many.
      if (again.length <= JOB_EVENTS_PER_REQUEST) for (const j of again) e.events.emit('job', j);
      else e.events.emit('jobs', { ids: again.map((j) => j.id), change: input.inPlace ? 'changed' : 'added' });
      e.fleet.jobsArrived(new Set(jobs.map((j) => j.lane)));
      return { ids: again.map((j) => j.id) };
    },
  };
}
