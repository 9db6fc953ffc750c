// What a shared lane needs from the engine that joined it, and tells it. Types only: the engine
// names these without loading BullMQ.
import type { JobSummary } from '../../../shared/model.js';
import type { LogPaths } from '../queues/queue.js';

export interface SharedLaneDeps {
  /** The name this engine goes by among the lane's engines (LANES_MACHINE, else the host name). */
  machine: string;
  /** Unique among engines: the machine name and which data directory. */
  engineId: string;
  /** The highest id this engine has known in a shared lane's slot (compact records, log files): the lane counts on above it (id-floor.ts). */
  idFloor(slot: number): number;
  /** Where this engine's worker writes a job's output. */
  logPaths(jobId: number): LogPaths;
  /** A job changed here (this engine cancelled or retried it): one job event. */
  jobChanged(job: JobSummary): void;
  /** Jobs moved on other engines: clients re-read what they show of them. */
  jobsChangedElsewhere(ids: number[]): void;
  /** Work may be waiting for idle workers (queued elsewhere, a retry's wait over, Redis back). */
  workArrived(lane: string): void;
  /** Another engine asks that a job stop; true when it runs here and was told to. */
  cancelHere(jobId: number): boolean;
  /** Redis stopped being reachable, or is reachable again: a row in the scale ledger saying so. */
  outage(lane: string, detail: string): void;
  /** What the lane's status shows moved (counts, reachability, other engines' workers). */
  changed(): void;
  log(line: string): void;
}
