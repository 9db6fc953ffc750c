// Retention's parts, made once for the engine: the log folders, the store's cleaner and space,
// the pass loop, and the record of shared jobs this engine saw finish (gathered, then written a
// batch at a time, never one transaction per event). The engine wires the result in a few lines.
// Made before any job can be queued, it first raises the next id above every id a log file
// names (store/job-ids.ts: a number is never handed out twice).
import type { EventHub } from '../event-hub.js';
import { isSharedId, keepLocalIdsAbove, sharedIdsKnown } from '../store/job-ids.js';
import type { JobWaits } from '../store/job-waits.js';
import type { JobCounts } from '../store/counts.js';
import type { Db } from '../store/db.js';
import { JobCleaner } from '../store/cleaning.js';
import { StoreSpace } from '../store/space.js';
import type { JobSummary } from '../../../shared/model.js';
import { FINISHED_STATES } from '../../../shared/model.js';
import { LogFiles } from './log-files.js';
import { keepFromEnv, type KeepPolicy } from './policy.js';
import { Retention } from './retention.js';

export interface RetentionOptions {
  db: Db;
  counts: JobCounts;
  /** The store's rule for the dependents of jobs that go. */
  waits: Pick<JobWaits, 'settle'>;
  dataDir: string;
  events: EventHub;
  env: NodeJS.ProcessEnv;
  /** Default: LANES_KEEP, else the defaults (policy.ts). */
  keep?: KeepPolicy | undefined;
  logsMaxBytes: number;
  changed(): void;
  log(line: string): void;
}

/** How often what was seen of shared jobs is written down. */
const REMEMBER_EVERY_MS = 500;

export function openRetention(o: RetentionOptions) {
  const logs = new LogFiles(o.dataDir);
  const named = logs.highestIds();
  keepLocalIdsAbove(o.db, named.local);
  const cleaner = new JobCleaner(o.db, o.counts, o.waits);
  const retention = new Retention({
    cleaner,
    space: new StoreSpace(o.db),
    logs,
    events: o.events,
    keep: o.keep ?? keepFromEnv(o.env),
    logsMaxBytes: o.logsMaxBytes,
    changed: o.changed,
    log: o.log,
  });
  let seen: JobSummary[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    const batch = seen;
    seen = [];
    if (batch.length === 0) return;
    try {
      cleaner.remember(batch);
    } catch (error) {
      o.log(`could not keep the record of ${batch.length} finished shared jobs: ${(error as Error).message}`);
    }
  };
  const unsubscribe = o.events.subscribe((ev) => {
    if (ev.type === 'jobs' || (ev.type === 'job' && FINISHED_STATES.includes(ev.data.state))) retention.finished();
    if (ev.type !== 'job' || !isSharedId(ev.data.id) || !FINISHED_STATES.includes(ev.data.state)) return;
    seen.push(ev.data);
    timer ??= setTimeout(flush, REMEMBER_EVERY_MS);
  });
  return {
    logs,
    cleaner,
    retention,
    /** The highest id a shared lane's slot has had here (records, log files): its queue must count on from above it. */
    sharedIdFloor(slot: number): number {
      return Math.max(named.shared.get(slot) ?? 0, sharedIdsKnown(o.db).get(slot) ?? 0);
    },
    /** Before the database closes. */
    async stop(): Promise<void> {
      unsubscribe();
      if (timer) clearTimeout(timer);
      flush();
      await retention.stop();
    },
  };
}
