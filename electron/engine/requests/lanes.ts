// Requests about lanes: the engine's status, caps, adding and removing lanes, and the history
// of why their workers changed.
import { rmSync } from 'node:fs';
import { homedir } from 'node:os';
import type { LanesHandlers } from '../../../shared/requests.js';
import { badRequest, conflict } from '../../../shared/errors.js';
import { DEFAULT_CAP, DEFAULT_LANE } from '../../../shared/limits.js';
import { existingLane, type RequestContext } from './context.js';
import { checkDirectory } from './places.js';
import { findProgram } from '../../worker/find-program.js';

type LaneHandlers = Pick<LanesHandlers, 'status' | 'setCap' | 'addLane' | 'removeLane' | 'scaleEvents' | 'timeline'>;

export function laneHandlers(e: RequestContext): LaneHandlers {
  const lane = (name: string, field = 'lane') => existingLane(e, name, field);
  // The lane event that shows the change goes out before the answer, so the answer's seq covers it.
  const laneAnswer = (name: string) => {
    e.board.announce();
    return { ...e.board.lane(name)!, seq: e.events.lastSeq };
  };
  const checkCap = (cap: number) => {
    if (cap > e.ceiling) throw badRequest(`cap must be at most ${e.ceiling}, this machine's ceiling`, 'cap');
  };

  return {
    status: () => e.board.status(),
    setCap: (input) => {
      lane(input.lane);
      checkCap(input.cap);
      e.lanes.setCap(input.lane, input.cap);
      e.fleet.lanesChanged();
      return laneAnswer(input.lane);
    },
    addLane: async (input) => {
      if (e.lanes.find(input.name)) throw conflict(`a lane named "${input.name}" already exists`, 'name');
      const cap = input.cap ?? DEFAULT_CAP[input.class];
      checkCap(cap);
      if (input.workerCwd !== undefined && !input.workerCommand) throw badRequest('workerCwd only applies to a lane with a worker command', 'workerCwd');
      if (input.workerCwd !== undefined) checkDirectory(input.workerCwd, 'workerCwd');
      const program = input.workerCommand?.[0];
      if (program !== undefined && findProgram(program, input.workerCwd ?? homedir()) === null) {
        throw badRequest(`the worker command "${program}" cannot be found (not on the engine's PATH, nor a path to a program)`, 'workerCommand');
      }
      const timeoutMs = input.timeoutSeconds === undefined ? null : Math.round(input.timeoutSeconds * 1000);
      const queue = input.queue ? { redis: input.queue.redis, insecure: input.queue.insecure ?? false } : null;
      const row = { name: input.name, class: input.class, cap, workerCommand: input.workerCommand ?? null, workerCwd: input.workerCwd ?? null, timeoutMs, queue };
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
        const busy = e.board.lane(input.name)?.busy ?? 0;
        if (busy > 0) throw conflict(`this engine is running ${busy} job(s) of shared lane "${input.name}"; cancel them or let them finish first`, 'name');
      } else {
        const c = e.lanes.allCounts().get(input.name);
        const unfinished = (c?.queued ?? 0) + (c?.running ?? 0);
        if (unfinished > 0) throw conflict(`lane "${input.name}" still holds ${unfinished} unfinished job(s); cancel them or let them finish first`, 'name');
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
