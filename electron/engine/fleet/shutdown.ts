// An orderly stop: take no more work, let running jobs finish within the grace period, then end
// the rest. What did not finish runs again at the next start, without losing an attempt, since
// an engine stopping is not the job's fault.
import type { Queues } from '../queues/queues.js';
import type { Pool } from '../workers/pool.js';

export interface Shutdown {
  done: Promise<void>;
  /** A second, more impatient stop (a person clicking "Quit now") shortens the wait to `ms`. */
  hurry(ms: number): void;
}

export function shutdown(pool: Pool, queues: Queues, graceMs: number, log: (line: string) => void): Shutdown {
  const busy = [...pool.workers.values()].filter((w) => w.job !== null).length;
  pool.close();
  if (busy) log(`stopping: letting ${busy} running job(s) finish, up to ${Math.round(graceMs / 1000)} s`);
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
