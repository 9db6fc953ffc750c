// Waiting for jobs to finish, driven by the event stream: `lanes wait` and `lanes cancel` (a
// running job takes a moment to stop) both use it. No polling: each job is read once when the
// stream opens (and again after any reconnect), then only events move it.
import { FINISHED_STATES, type Job } from '../../shared/model.js';
import type { LanesHttpClient } from './client.js';
import { watchEvents } from './event-client.js';

/**
 * Resolves with each job's first finished record, in the order of `ids`. A later retry by
 * someone else starts a new run this call did not ask about, so the first finish is the answer.
 */
export async function awaitFinished(client: LanesHttpClient, ids: number[], onFinished: (job: Job) => void = () => {}): Promise<Job[]> {
  const wanted = [...new Set(ids)];
  const finished = new Map<number, Job>();
  const stop = new AbortController();
  const record = (job: Job) => {
    if (!wanted.includes(job.id) || finished.has(job.id) || !FINISHED_STATES.includes(job.state)) return;
    finished.set(job.id, job);
    onFinished(job);
    if (finished.size === wanted.length) stop.abort();
  };
  await watchEvents(
    client.connection.dataDir,
    {
      // On every (re)connect, read the jobs still awaited: one may have finished in a gap.
      onOpen: async () => {
        for (const id of wanted.filter((id) => !finished.has(id))) record(await client.call('job', { id }));
      },
      onEvent: (event) => {
        if (event.type === 'job') record(event.data);
      },
    },
    stop.signal,
  );
  return wanted.map((id) => finished.get(id) as Job);
}
