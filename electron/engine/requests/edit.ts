// Changing a job before it runs (`lanes edit`), and running finished jobs again (`lanes restart`,
// restart.ts). An edit is for a job still queued and in no worker's hand: one running or finished
// is refused and nothing changes, and one that starts while the edit is made keeps what it had
// (the store's guarded UPDATE decides).
import type { Job, JobSpec, JobSummary } from '../../../shared/model.js';
import type { LanesHandlers, ParsedInput } from '../../../shared/requests.js';
import { badRequest, conflict } from '../../../shared/errors.js';
import { parseSpec, specOfRequest } from '../../../shared/schemas.js';
import { existingLane, type JobsPort } from './context.js';
import { checkAfter, checkOrderingOnLane, notBeforeOf } from './job-order.js';
import { checkDirectory } from './places.js';
import { jobOrGone } from './clean.js';
import { restartHandler } from './restart.js';

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
    restartJobs: restartHandler(e),
  };
}
