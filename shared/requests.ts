// Every request a client can make of the engine, typed once: its name, how it travels over HTTP,
// what it takes and what it answers. The HTTP routes, the Electron IPC channel, the CLI and the
// window's client are all derived from this table, so adding or changing a request shows up
// everywhere at compile time. The input types come from the engine's schemas by `import type`
// only: nothing here loads the schema library at run time.
import type { z } from 'zod';
import type { Inputs } from './schemas.js';
import type { CleanedJob, Job, JobPage, JobSummary, LaneStatus, LaneTimeline, LogChunk, Paused, ScaleEvent, Snapshot, Status } from './model.js';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** `:id`, `:lane` and `:name` segments are filled from the input field of the same name. */
  path: string;
}

export const requests = {
  status: { method: 'GET', path: '/api/status' },
  addJob: { method: 'POST', path: '/api/jobs' },
  addJobs: { method: 'POST', path: '/api/jobs/batch' },
  listJobs: { method: 'GET', path: '/api/jobs' },
  job: { method: 'GET', path: '/api/jobs/:id' },
  logTail: { method: 'GET', path: '/api/jobs/:id/log' },
  cancel: { method: 'POST', path: '/api/jobs/:id/cancel' },
  retry: { method: 'POST', path: '/api/jobs/:id/retry' },
  editJob: { method: 'POST', path: '/api/jobs/:id/edit' },
  restartJobs: { method: 'POST', path: '/api/jobs/restart' },
  cancelJobs: { method: 'POST', path: '/api/jobs/cancel' },
  retryJobs: { method: 'POST', path: '/api/jobs/retry' },
  pause: { method: 'POST', path: '/api/pause' },
  resume: { method: 'POST', path: '/api/resume' },
  snoozeNudge: { method: 'POST', path: '/api/lanes/:lane/snooze' },
  setCap: { method: 'POST', path: '/api/lanes/:lane/cap' },
  addLane: { method: 'POST', path: '/api/lanes' },
  removeLane: { method: 'DELETE', path: '/api/lanes/:name' },
  scaleEvents: { method: 'GET', path: '/api/scale-events' },
  timeline: { method: 'GET', path: '/api/timeline' },
  clean: { method: 'POST', path: '/api/jobs/clean' },
  cleanedJob: { method: 'GET', path: '/api/jobs/:id/cleaned' },
} as const satisfies Record<keyof Inputs, Route>;

/** What each request answers. */
interface Outputs {
  status: Status;
  addJob: { id: number };
  addJobs: { ids: number[] };
  listJobs: JobPage;
  job: Job & Snapshot;
  logTail: LogChunk;
  cancel: JobSummary;
  retry: JobSummary;
  editJob: JobSummary;
  /** The jobs that run them again, in the order asked (with `inPlace`, their own ids). */
  restartJobs: { ids: number[] };
  /** How many were cancelled at once, and how many running ones are stopping (their outcome comes as events). */
  cancelJobs: { cancelled: number; stopping: number };
  /** `refused`: jobs left as they were, since a job they run after can no longer succeed (docs/cli.md); absent when none. */
  retryJobs: { retried: number; refused?: number };
  pause: { paused: Paused | null };
  resume: { paused: Paused | null };
  snoozeNudge: LaneStatus & Snapshot;
  setCap: LaneStatus & Snapshot;
  addLane: LaneStatus & Snapshot;
  removeLane: { removed: string };
  scaleEvents: ScaleEvent[];
  timeline: LaneTimeline[];
  /** How many finished jobs were removed, with their logs, by final state. */
  clean: { removed: number; byState: Record<CleanedJob['state'], number> };
  /** What is kept of a job that was cleaned (not_found when nothing is). */
  cleanedJob: CleanedJob;
}

export type RequestName = keyof typeof requests;
/** What a caller passes (defaults optional). */
export type RequestInput<K extends RequestName> = z.input<Inputs[K]>;
/** What the engine receives after validation (defaults filled). */
export type ParsedInput<K extends RequestName> = z.output<Inputs[K]>;
export type RequestOutput<K extends RequestName> = Outputs[K];

/** The engine side: the same names, validated input in. */
export type LanesHandlers = {
  [K in RequestName]: (input: ParsedInput<K>) => RequestOutput<K> | Promise<RequestOutput<K>>;
};

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requests, name);
}

/**
 * What the desktop window may ask over IPC: what it uses, and nothing more. A compromised page
 * could otherwise queue commands or add a lane with a worker command of its choosing.
 */
export const WINDOW_REQUESTS: ReadonlySet<RequestName> = new Set<RequestName>([
  'status',
  'listJobs',
  'job',
  'logTail',
  'cancel',
  'retry',
  'cancelJobs',
  'retryJobs',
  'editJob',
  'restartJobs',
  'setCap',
  'pause',
  'resume',
  'snoozeNudge',
  'scaleEvents',
  'timeline',
  // "Clear finished…".
  'clean',
  // The window adds work and lanes from its forms (docs/security.md: what that allows).
  'addJob',
  'addLane',
  'removeLane',
]);
