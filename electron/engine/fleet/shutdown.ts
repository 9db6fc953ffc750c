// An orderly stop: take no more work, let running jobs finish within the grace period, then end
// the rest. What did not finish runs again at the next start, without losing an attempt, since
// an engine stopping is not the job's fault.
import type { Queues } from '../queues/queues.js';
import type { Pool } from '../workers/pool.js';
import type { RunningJob } from '../workers/pool-types.js';
import { aboutDuration, oneLine, plural } from '../../../shared/format.js';

/** Jobs named in a stop's words at most; the rest are counted. */
const NAMED = 5;

/** "job 302 `sleep 600` (running about 10 min)": which job, and how far in, so a person can judge. */
function named(queues: Queues, job: RunningJob, now: number): string {
  const s = queues.forLane(job.lane).summary(job.id);
  const command = s && !(s instanceof Promise) ? ` \`${oneLine(s.command, 40)}\`` : '';
  return `job ${job.id}${command} (running ${aboutDuration(now - job.since).replace(/^about /, '')})`;
}

const list = (items: string[]): string => (items.length > NAMED ? `${items.slice(0, NAMED).join(', ')} and ${items.length - NAMED} more` : items.join(', '));

export interface Shutdown {
  done: Promise<void>;
  /** A second, more impatient stop (a person clicking "Quit now") shortens the wait to `ms`. */
  hurry(ms: number): void;
}

export function shutdown(pool: Pool, queues: Queues, graceMs: number, log: (line: string) => void): Shutdown {
  const running = [...pool.workers.values()].flatMap((w) => (w.job ? [w.job] : [])).sort((a, b) => a.since - b.since);
  pool.close();
  const graceS = Math.round(graceMs / 1000);
  if (running.length > 0) log(`stopping: letting ${plural(running.length, 'running job')} finish, up to ${graceS} s: ${list(running.map((j) => named(queues, j, Date.now())))}`);
  let deadline = Date.now() + graceMs;
  let timer: NodeJS.Timeout | null = null;
  let endGrace!: () => void;
  const grace = new Promise<void>((resolve) => {
    endGrace = resolve;
    timer = setTimeout(resolve, graceMs);
  });
  const done = (async () => {
    // Whichever comes first; the timer is cleared either way, so nothing holds the process open.
    await Promise.race([grace, pool.whenEmpty(graceMs)]);
    if (timer) clearTimeout(timer);
    // What did not finish in time starts over at the next start: said by name, since a job far into a long run loses that much.
    const unfinished = [...pool.workers.values()].flatMap((w) => (w.job ? [w.job] : [])).sort((a, b) => a.since - b.since);
    if (unfinished.length > 0) {
      const now = Date.now();
      log(`stopping: ${list(unfinished.map((j) => named(queues, j, now)))} did not finish in time and will start over at the next start (no attempt is counted)`);
    }
    const givenBack: Promise<unknown>[] = [];
    for (const w of [...pool.workers.values()]) {
      const q = queues.forLane(w.lane);
      for (const job of q.runningFor(w.id, w.job?.id)) {
        const failed = (error: unknown) => log(`could not give back job ${job.id} while stopping: ${(error as Error).message}`);
        try {
          // A shared job goes back to its queue at once, for another engine to take.
          const back = q.requeue(job, { why: 'the engine stopped before it finished', refund: true, retryAt: null }, Date.now());
          if (back instanceof Promise) givenBack.push(back.catch(failed));
        } catch (error) {
          // Still recorded as running: the next start gives it back (see recovery.ts).
          failed(error);
        }
      }
      pool.kill(w.id);
    }
    await Promise.all(givenBack);
    await pool.whenEmpty(5_000);
  })();
  return {
    done,
    hurry(ms) {
      if (Date.now() + ms >= deadline) return;
      deadline = Date.now() + ms;
      if (timer) clearTimeout(timer);
      timer = setTimeout(endGrace, ms);
    },
  };
}
