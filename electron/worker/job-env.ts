// The environment a job runs with: the engine's, minus Lanes' own wiring, plus what it asked for,
// plus its id and attempt. Every process a job starts inherits those two, which is how its
// processes are found again if it tries to outlive itself (containment.ts).
import { PROGRESS_ENV, WORKER_ENV, type JobAssignment } from '../worker-protocol/protocol.js';

// Variables that wire a worker to its engine; a job has no business seeing them. (An engine run
// inside a Lanes job has that job's progress socket: none of its jobs reports to it.)
const INTERNAL = new Set<string>([...Object.values(WORKER_ENV), ...Object.values(PROGRESS_ENV), 'ELECTRON_RUN_AS_NODE', 'NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE']);

/**
 * The engine's environment without Lanes' wiring. Read once per worker (nothing in the worker
 * changes its environment): each read of process.env is a call into the runtime, and copying it
 * cost a `true` job some 75 µs of a 4 ms run.
 */
let base: Readonly<NodeJS.ProcessEnv> | null = null;
function engineEnv(): Readonly<NodeJS.ProcessEnv> {
  if (base === null) {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!INTERNAL.has(k)) env[k] = v;
    base = Object.freeze(env);
  }
  return base;
}

/** What a persistent command starts with: a copy of its own. */
export const baseEnv = (): NodeJS.ProcessEnv => ({ ...engineEnv() });

/** Where a shell job's `lanes progress` is heard, and the run's token. */
export interface ProgressLine {
  socket: string;
  token: string;
}

/** What a job has on top of the engine's environment: what it asked for, its id and attempt, where it reports. */
export function jobAdditions(job: Pick<JobAssignment, 'id' | 'attempt'>, additions: Record<string, string> | undefined, progress?: ProgressLine): Record<string, string> {
  const own: Record<string, string> = { ...additions, LANES_JOB_ID: String(job.id), LANES_ATTEMPT: String(job.attempt) };
  if (progress) {
    own[PROGRESS_ENV.socket] = progress.socket;
    own[PROGRESS_ENV.token] = progress.token;
  }
  return own;
}

export const jobEnv = (job: Pick<JobAssignment, 'id' | 'attempt'>, additions: Record<string, string> | undefined, progress?: ProgressLine): NodeJS.ProcessEnv => ({ ...engineEnv(), ...jobAdditions(job, additions, progress) });
