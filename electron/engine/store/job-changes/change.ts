// One state change under way: the transaction it runs in, and what each change file is given.
// A change moves jobs between states (`moves`, counted once the transaction commits) and names
// the jobs it ended (`ends`): their dependents are settled before the transaction commits.
// Requests that must be on disk before they are answered share a group commit (group-sync.ts).
import type { JobState, JobSummary } from '../../../../shared/model.js';
import { ERROR_MAX_CHARS } from '../../../../shared/limits.js';
import { durably, type Db } from '../db.js';
import type { JobCounts, Move } from '../counts.js';
import { GroupSync } from '../group-sync.js';
import { SPEC_AT, TIMEOUT_AT, toSummary, type ClaimedRow } from '../job-rows.js';
import type { JobStatements } from '../job-statements.js';
import type { JobWaits } from '../job-waits.js';
import type { ClaimedJob, Settled } from '../job-types.js';

/** What a state change works with. */
export interface Change {
  readonly s: JobStatements;
  readonly waits: JobWaits;
  /** The state moves it makes: counted once the transaction commits. */
  readonly moves: Move[];
  /** A job that may have ended: its dependents are settled before the transaction commits. */
  ends<J extends JobSummary | null>(job: J): J;
}

const ENDED = new Set<JobState>(['succeeded', 'failed', 'cancelled']);

export class JobWrites {
  private readonly group: GroupSync<Change>;
  /**
   * One wrapper for every write: better-sqlite3's `transaction()` builds its four variants anew
   * at each call, about 9 µs, which every claim, finish and add paid on top of the write itself.
   */
  private readonly inTransaction: (body: () => unknown) => unknown;

  constructor(
    private readonly db: Db,
    private readonly s: JobStatements,
    private readonly waits: JobWaits,
    private readonly counts: JobCounts,
    walPath: string,
    /** Hears, once committed, what ending jobs did to the jobs that run after them. */
    private readonly settled: (s: Settled) => void,
  ) {
    this.group = new GroupSync<Change>(walPath, (body) => this.write(false, body));
    this.inTransaction = db.transaction((body: () => unknown) => body()).immediate;
  }

  /**
   * One transaction; the state moves it makes count once it commits. `durable`: synced to disk
   * before it returns (what a person asked for); otherwise a crashed process still keeps it and
   * only a crash of the OS could lose the last of them.
   */
  write<T>(durable: boolean, fn: (change: Change) => T): T {
    const moves: Move[] = [];
    let settled: Settled = { failed: [], runnable: new Set() };
    const body = () => {
      const ended: JobSummary[] = [];
      const ends = <J extends JobSummary | null>(job: J): J => {
        if (job && ENDED.has(job.state)) ended.push(job);
        return job;
      };
      const result = fn({ s: this.s, waits: this.waits, moves, ends });
      settled = this.waits.settle(ended, Date.now(), moves);
      return result;
    };
    const result = durable ? durably(this.db, body) : (this.inTransaction(body) as T);
    this.counts.apply(moves);
    if (settled.failed.length > 0 || settled.runnable.size > 0) this.settled(settled);
    return result;
  }

  /** Runs `fn` in the next group commit; resolves once it is on disk. */
  commit<T>(fn: (change: Change) => T): Promise<T> {
    return this.group.commit(fn);
  }

  /** Once the writes waiting for a sync are on disk. */
  close(): Promise<void> {
    return this.group.close();
  }
}

export const labelsText = (labels: readonly string[] | undefined) => (labels && labels.length > 0 ? JSON.stringify(labels) : null);

export const clipError = (error: string | null) => (error === null || error.length <= ERROR_MAX_CHARS ? error : `${error.slice(0, ERROR_MAX_CHARS - 1)}…`);

/** A claimed row as a worker is handed it. */
export function claimed(row: ClaimedRow): ClaimedJob {
  const job = toSummary(row) as ClaimedJob;
  job.specJson = row[SPEC_AT];
  job.timeoutMs = row[TIMEOUT_AT];
  return job;
}
