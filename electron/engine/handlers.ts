// What each request does. Input arrives already validated against the shared schemas; what is
// checked here is what only the engine knows (the ceiling, which lanes exist, a job's state).
import { closeSync, existsSync, fstatSync, openSync, readSync, rmSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Job, JobSpec, LaneStatus, LogChunk, Status } from '../../shared/model.js';
import type { LanesHandlers, ParsedInput } from '../../shared/requests.js';
import { badRequest, conflict, notFound } from './errors.js';
import type { FleetContext, Fleet } from './fleet.js';
import { publicJob, type NewJob } from './store/jobs.js';
import type { JobQueries } from './store/job-queries.js';
import { TRUNCATION_MARK } from '../worker/capped-log.js';

export interface HandlerContext extends FleetContext {
  readonly fleet: Fleet;
  readonly queries: JobQueries;
  readonly cancelGraceMs: number;
  status(): Status;
  laneStatus(name: string): LaneStatus | undefined;
  refreshLanes(): void;
}

const DEFAULT_CAP = { cpu: 1, ml: 0 } as const;
/** The lane jobs go to when none is named; it cannot be removed, only turned off (cap 0). */
const DEFAULT_LANE = 'worker';

export function createHandlers(e: HandlerContext): LanesHandlers {
  const lane = (name: string, field = 'lane') => {
    const row = e.laneList().find((l) => l.name === name);
    if (!row) throw notFound(`there is no lane named "${name}"`, field);
    return row;
  };
  const job = (id: number): Job => {
    const row = e.jobs.get(id);
    if (!row) throw notFound(`there is no job ${id}`, 'id');
    return publicJob(row);
  };
  const checkCap = (cap: number) => {
    if (cap > e.ceiling) throw badRequest(`cap must be at most ${e.ceiling}, this machine's ceiling`, 'cap');
  };
  const toNewJob = (input: ParsedInput<'addJob'>, field = ''): NewJob => {
    const target = lane(input.lane, `${field}lane`);
    let spec: JobSpec;
    if (input.payload !== undefined) {
      if (!target.workerCommand) throw badRequest(`lane "${target.name}" runs shell commands; a payload needs a lane with a worker command`, `${field}payload`);
      spec = { kind: 'payload', payload: input.payload };
    } else {
      if (target.workerCommand) throw badRequest(`lane "${target.name}" runs a worker command; give it a payload instead of a command`, `${field}argv`);
      const where = { ...(input.cwd ? { cwd: input.cwd } : {}), ...(input.env ? { env: input.env } : {}) };
      spec = input.argv ? { kind: 'argv', argv: input.argv, ...where } : { kind: 'shell', script: input.shell!, ...where };
    }
    return { lane: target.name, spec, maxAttempts: input.maxAttempts ?? 3 };
  };
  const enqueue = (jobs: NewJob[]): number[] => {
    const ids = e.jobs.enqueue(jobs, Date.now());
    for (const id of ids.length <= 1000 ? ids : []) e.events.emit('job', job(id));
    for (const name of new Set(jobs.map((j) => j.lane))) e.fleet.pool.wake(name);
    e.fleet.loop.poke();
    return ids;
  };

  return {
    status: () => e.status(),
    addJob: (input) => ({ id: enqueue([toNewJob(input)])[0]! }),
    addJobs: (input) => ({ ids: enqueue(input.jobs.map((j, i) => toNewJob(j, `jobs.${i}.`))) }),
    listJobs: (input) => {
      if (input.lane) lane(input.lane);
      return e.queries.page(
        { lane: input.lane, state: input.state as Job['state'] | undefined, beforeId: input.beforeId, limit: input.limit },
        e.lanes.allCounts(),
      );
    },
    job: (input) => job(input.id),
    logTail: (input) => readLog(e.logPaths(job(input.id).id)[input.stream === 'stderr' ? 'stderrPath' : 'stdoutPath'], input),
    cancel: (input) => {
      const current = job(input.id);
      if (current.state === 'queued') {
        const row = e.jobs.cancelQueued(input.id, Date.now());
        if (row) {
          const done = publicJob(row);
          e.events.emit('job', done);
          e.fleet.loop.poke();
          return done;
        }
      }
      if (current.state === 'running') {
        // The outcome arrives as a job event once its processes have ended.
        e.fleet.pool.cancel(input.id, e.cancelGraceMs);
        return job(input.id);
      }
      throw conflict(`job ${input.id} has already ${current.state === 'cancelled' ? 'been cancelled' : current.state}`, 'id');
    },
    retry: (input) => {
      const current = job(input.id);
      const again = e.jobs.retry(input.id);
      if (!again) throw conflict(`only a failed or cancelled job can be retried; job ${input.id} is ${current.state}`, 'id');
      const queued = publicJob(again);
      e.events.emit('job', queued);
      e.fleet.pool.wake(again.lane);
      e.fleet.loop.poke();
      return queued;
    },
    setCap: (input) => {
      lane(input.lane);
      checkCap(input.cap);
      e.lanes.setCap(input.lane, input.cap);
      e.refreshLanes();
      e.fleet.loop.pass();
      return e.laneStatus(input.lane)!;
    },
    addLane: (input) => {
      if (e.laneList().some((l) => l.name === input.name)) throw conflict(`a lane named "${input.name}" already exists`, 'name');
      const cap = input.cap ?? DEFAULT_CAP[input.class];
      checkCap(cap);
      if (input.workerCwd !== undefined && !input.workerCommand) throw badRequest('workerCwd only applies to a lane with a worker command', 'workerCwd');
      if (input.workerCwd !== undefined && !(isAbsolute(input.workerCwd) && existsSync(input.workerCwd))) {
        throw badRequest(`workerCwd must be an existing absolute directory; "${input.workerCwd}" is not`, 'workerCwd');
      }
      e.lanes.add({ name: input.name, class: input.class, cap, workerCommand: input.workerCommand ?? null, workerCwd: input.workerCwd ?? null }, Date.now());
      e.refreshLanes();
      e.fleet.loop.poke();
      return e.laneStatus(input.name)!;
    },
    removeLane: (input) => {
      lane(input.name, 'name');
      if (input.name === DEFAULT_LANE) throw conflict(`"${DEFAULT_LANE}" is the default lane and stays; set its cap to 0 to turn it off`, 'name');
      const c = e.lanes.allCounts().get(input.name);
      const unfinished = (c?.queued ?? 0) + (c?.running ?? 0);
      if (unfinished > 0) throw conflict(`lane "${input.name}" still holds ${unfinished} unfinished job(s); cancel them or let them finish first`, 'name');
      const ids = e.lanes.remove(input.name);
      e.refreshLanes();
      e.fleet.pool.stop([...e.fleet.pool.workers.values()].filter((w) => w.lane === input.name).map((w) => w.id));
      for (const id of ids) for (const p of Object.values(e.logPaths(id))) rmSync(p, { force: true });
      e.fleet.forgetLane(input.name);
      e.events.emit('laneRemoved', { name: input.name });
      return { removed: input.name };
    },
    scaleEvents: (input) => {
      if (input.lane) lane(input.lane);
      return e.ledger.list(input);
    },
    timeline: (input) => {
      const names = input.lane ? [lane(input.lane).name] : e.laneList().map((l) => l.name);
      return e.view.timeline(names, Date.now() - input.sinceMs);
    },
  };
}

function readLog(path: string, input: ParsedInput<'logTail'>): LogChunk {
  const jobId = input.id;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { jobId, stream: input.stream, offset: 0, nextOffset: 0, text: '', truncated: false };
  }
  try {
    const size = fstatSync(fd).size;
    // A log compacted since the caller's last read is shorter than their offset: start over.
    const from = input.offset !== undefined && input.offset <= size ? input.offset : Math.max(0, size - input.maxBytes);
    const wanted = Math.min(input.maxBytes, size - from);
    const raw = Buffer.alloc(wanted);
    readSync(fd, raw, 0, wanted, from);
    // Never hand out half a character: skip a split one at the start (a tail read), and leave
    // one split at the end for the next read.
    const skip = input.offset === undefined ? leadingContinuation(raw) : 0;
    const end = completeUtf8Length(raw);
    const buf = raw.subarray(skip, Math.max(skip, end));
    const length = buf.length;
    const mark = Buffer.from(TRUNCATION_MARK);
    const head = Buffer.alloc(Math.min(mark.length, size));
    readSync(fd, head, 0, head.length, 0);
    return { jobId, stream: input.stream, offset: from + skip, nextOffset: from + skip + length, text: buf.toString('utf8'), truncated: head.equals(mark) };
  } finally {
    closeSync(fd);
  }
}

/** Bytes at the start that continue a character begun before them. */
function leadingContinuation(b: Buffer): number {
  let i = 0;
  while (i < b.length && i < 3 && (b[i]! & 0xc0) === 0x80) i++;
  return i;
}

/** Length of `b` without a multi-byte character cut off at its end. */
export function completeUtf8Length(b: Buffer): number {
  for (let back = 1; back <= Math.min(4, b.length); back++) {
    const byte = b[b.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: keep looking for the lead
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? b.length - back : b.length;
  }
  return b.length;
}
