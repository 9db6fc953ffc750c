// Requests about lanes: the engine's status, caps, adding and removing lanes, and the history
// of why their workers changed.
import { rmSync } from 'node:fs';
import { homedir } from 'node:os';
import type { LanesHandlers, ParsedInput } from '../../../shared/requests.js';
import type { LaneRow } from '../store/lanes.js';
import { badRequest, conflict } from '../../../shared/errors.js';
import { DEFAULT_CAP, DEFAULT_LANE } from '../../../shared/limits.js';
import { existingLane, type LanesPort } from './context.js';
import { checkDirectory } from './places.js';
import { findProgram } from '../../job-control/find-program.js';

type LaneHandlers = Pick<LanesHandlers, 'status' | 'setCap' | 'addLane' | 'removeLane' | 'scaleEvents' | 'timeline'>;

/** How long `removeLane` with cancel waits for the lane's running jobs to stop. */
const STOPPED_WAIT_MS = 30_000;

/** Quiet the nudge for a while after a person lowered the cap: they chose it. Raising it lifts the quiet. */
const CAP_LOWERED_QUIET_MS = 3_600_000;

/** Cancels (`cancel`) and waits until what `running` counts has stopped, or a bound. */
async function stopAll(e: LanesPort, running: () => number, cancel: () => Promise<unknown>): Promise<void> {
  const stopped = new Promise<void>((done) => {
    const timer = setTimeout(finish, STOPPED_WAIT_MS);
    const off = e.events.subscribe(() => running() === 0 && finish());
    function finish() {
      clearTimeout(timer);
      off();
      done();
    }
  });
  await cancel();
  if (running() > 0) await stopped;
}

/** Everything the lane holds: a job in a worker's hand is still queued until it ends cancelled, so both are waited for. */
function unfinishedIn(e: LanesPort, name: string): number {
  const c = e.lanes.allCounts().get(name);
  return (c?.queued ?? 0) + (c?.running ?? 0);
}

/** Only what this engine runs of a shared lane: the rest of its queue is the other engines' too. */
const cancelHere = (e: LanesPort, name: string) =>
  stopAll(
    e,
    () => e.fleet.jobsInWorkers(name).running.length,
    async () => {
      for (const id of e.fleet.jobsInWorkers(name).running) e.fleet.cancel(id, e.cancelGraceMs);
    },
  );

/** The lane a request adds, checked (its worker's folder and program are there), as the store keeps it. */
function newLane(input: ParsedInput<'addLane'>): LaneRow {
  const cap = input.cap ?? DEFAULT_CAP[input.class];
  if (input.workerCwd !== undefined && !input.workerCommand) throw badRequest('workerCwd only applies to a lane with a worker command', 'workerCwd');
  if (input.workerCwd !== undefined) checkDirectory(input.workerCwd, 'workerCwd');
  const program = input.workerCommand?.[0];
  if (program !== undefined && findProgram(program, input.workerCwd ?? homedir()) === null) {
    throw badRequest(`the worker command "${program}" cannot be found (not on the engine's PATH, nor a path to a program)`, 'workerCommand');
  }
  const timeoutMs = input.timeoutSeconds === undefined ? null : Math.round(input.timeoutSeconds * 1000);
  const queue = input.queue ? { redis: input.queue.redis, insecure: input.queue.insecure ?? false } : null;
  return { name: input.name, class: input.class, cap, workerCommand: input.workerCommand ?? null, workerCwd: input.workerCwd ?? null, timeoutMs, nudgeQuietUntil: null, nudgeQuietBacklog: null, queue };
}

export function laneHandlers(e: LanesPort, cancelJobs: LanesHandlers['cancelJobs']): LaneHandlers {
  const cancelAll = (name: string) => stopAll(e, () => unfinishedIn(e, name), async () => cancelJobs({ lane: name }));
  const lane = (name: string, field = 'lane') => existingLane(e, name, field);
  // The lane event that shows the change goes out before the answer, so the answer's seq covers it.
  const laneAnswer = (name: string) => {
    e.board.announce();
    return { ...e.board.lane(name)!, seq: e.events.lastSeq };
  };

  return {
    status: () => e.board.status(),
    setCap: (input) => {
      const was = lane(input.lane).cap;
      e.lanes.setCap(input.lane, input.cap);
      if (input.cap < was) e.lanes.setQuiet(input.lane, { until: Date.now() + CAP_LOWERED_QUIET_MS, backlog: e.board.lane(input.lane)?.waiting ?? 0, why: 'cap' });
      else if (input.cap > was) e.lanes.setQuiet(input.lane, null);
      e.fleet.lanesChanged();
      return laneAnswer(input.lane);
    },
    addLane: async (input) => {
      if (e.lanes.find(input.name)) throw conflict(`a lane named "${input.name}" already exists`, 'name');
      const row = newLane(input);
      const { queue } = row;
      // A shared lane is joined (Redis answers, agrees about the lane) before anything is stored.
      if (queue) await e.shared.join(row);
      try {
        e.lanes.add(row, Date.now());
      } catch (error) {
        if (queue) await e.shared.leave(row.name);
        throw error;
      }
      e.fleet.lanesChanged();
      return laneAnswer(input.name);
    },
    removeLane: async (input) => {
      const row = lane(input.name, 'name');
      if (input.name === DEFAULT_LANE) throw conflict(`"${DEFAULT_LANE}" is the default lane and stays; set its cap to 0 to turn it off`, 'name');
      if (row.queue) {
        // Leaving a shared lane: its queue stays on Redis for the other engines; only what runs here must be done.
        if (input.cancel) await cancelHere(e, input.name);
        const busy = e.fleet.jobsInWorkers(input.name).running.length;
        if (busy > 0) throw conflict(`this engine is running ${busy} job(s) of shared lane "${input.name}"; remove it with cancel (\`lanes lane remove ${input.name} --cancel\`) to stop them, or let them finish first`, 'name');
      } else {
        const unfinished = () => unfinishedIn(e, input.name);
        if (unfinished() > 0 && input.cancel) await cancelAll(input.name);
        if (unfinished() > 0) {
          throw conflict(`lane "${input.name}" still holds ${unfinished()} unfinished job(s); remove it with cancel (\`lanes lane remove ${input.name} --cancel\`) to cancel them first`, 'name');
        }
      }
      const ids = e.lanes.remove(input.name);
      e.fleet.laneRemoved(input.name);
      if (row.queue) await e.shared.leave(input.name);
      for (const id of ids) for (const p of Object.values(e.logPaths(id))) rmSync(p, { force: true });
      e.board.forget(input.name);
      e.events.emit('laneRemoved', { name: input.name });
      return { removed: input.name };
    },
    scaleEvents: (input) => {
      if (input.lane) lane(input.lane);
      return e.ledger.list(input);
    },
    timeline: (input) => {
      const names = input.lane ? [lane(input.lane).name] : e.lanes.list().map((l) => l.name);
      return e.board.timeline(names, Date.now() - input.sinceMs);
    },
  };
}
