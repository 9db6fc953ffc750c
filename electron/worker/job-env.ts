// The environment a job runs with.
import { WORKER_ENV, type JobAssignment } from './protocol.js';

// Variables that wire a worker to its engine; a job has no business seeing them.
const INTERNAL = new Set<string>([...Object.values(WORKER_ENV), 'ELECTRON_RUN_AS_NODE', 'NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE']);

/** The job sees the engine's environment, minus Lanes' own wiring, plus what it asked for. */
export function jobEnv(job: JobAssignment, additions: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!INTERNAL.has(k)) env[k] = v;
  }
  return { ...env, ...additions, LANES_JOB_ID: String(job.id), LANES_ATTEMPT: String(job.attempt) };
}
