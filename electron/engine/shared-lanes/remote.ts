// What other engines do to a shared lane's jobs, heard through BullMQ's own event stream: jobs
// queued elsewhere wake this engine's idle workers; jobs that moved are announced to clients in
// batches (a window or `lanes wait` re-reads those it shows); a cancel asked on another engine
// stops the job if it runs here.
import { QueueEvents, type QueueEventsOptions } from 'bullmq';
import { describe } from './connections.js';
import { cancelMark } from './job-data.js';
import { isNamed } from './named-ids.js';
import type { LaneParts } from './parts.js';

const FLUSH_MS = 250;
/** Ids per announcement; and at most this many held between two (a burst beyond is re-read anyway when it settles). */
const IDS_PER_EVENT = 1_000;
const IDS_HELD_MAX = 20_000;

/**
 * After a read of the stream that brought events, the next waits this long, so a busy lane's
 * events come in batches: a read per job was as many Redis calls as the jobs themselves. A read
 * that brought nothing is followed at once (it blocks in Redis): a quiet lane hears the first
 * event as it happens. What waits on events waits longer anyway (announcements every FLUSH_MS).
 */
export const EVENTS_BATCH_MS = 100;

const MOVES = ['active', 'completed', 'failed', 'removed', 'delayed', 'stalled'] as const;

export class RemoteChanges {
  private readonly events: QueueEvents;
  private readonly ids = new Set<number>();
  private readonly timer: NodeJS.Timeout;
  private wakeSoon = false;
  private lastError = '';

  constructor(
    private readonly p: LaneParts,
    options: QueueEventsOptions,
    /** Every completion, with its returnvalue: one Lanes did not record is an outsider's (outsiders.ts). */
    completed: (bullId: string, returnvalue: unknown) => void,
  ) {
    this.events = new QueueEvents(p.lane.name, options);
    batchReads(this.events);
    this.events.on('error', (error) => {
      // One line per new trouble: a Redis that is away says so every few seconds otherwise.
      const text = describe(error);
      if (text !== this.lastError) p.deps.log(`lane ${p.lane.name}: following its events: ${text}`);
      this.lastError = text;
    });
    this.events.on('waiting', ({ jobId }) => {
      this.note(jobId);
      this.wake();
    });
    for (const move of MOVES) this.events.on(move, ({ jobId }: { jobId: string }) => this.note(jobId));
    this.events.on('completed', ({ jobId, returnvalue }) => completed(jobId, returnvalue));
    // A worker's progress report needs no re-read here; a cancel mark (also written as progress) does.
    this.events.on('progress', ({ jobId, data }) => {
      if (cancelMark(data) === null) return;
      this.note(jobId);
      for (const h of p.taken.values()) if (h.job.id === jobId) p.deps.cancelHere(h.id);
    });
    this.timer = setInterval(() => this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  private note(bullId: string): void {
    const id = this.p.idOf(bullId);
    if (id !== null) return void (this.ids.size < IDS_HELD_MAX && this.ids.add(id));
    // A job its producer named, not met here yet: announced once its Lanes id is read.
    if (isNamed(bullId)) void this.p.names.idFor(bullId).then((named) => named !== null && this.ids.size < IDS_HELD_MAX && this.ids.add(named), () => {});
  }

  private wake(): void {
    if (this.wakeSoon) return;
    this.wakeSoon = true;
    setImmediate(() => {
      this.wakeSoon = false;
      this.p.deps.workArrived(this.p.lane.name);
    });
  }

  private flush(): void {
    if (this.ids.size === 0) return;
    const ids = [...this.ids];
    this.ids.clear();
    for (let i = 0; i < ids.length; i += IDS_PER_EVENT) this.p.deps.jobsChangedElsewhere(ids.slice(i, i + IDS_PER_EVENT));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.events.close();
  }
}

/** Each read of the stream after one that brought events waits EVENTS_BATCH_MS first. */
function batchReads(events: QueueEvents): void {
  const backend = events.backend;
  const read = backend.readEvents.bind(backend);
  let brought = false;
  backend.readEvents = async (...args: Parameters<typeof read>) => {
    if (brought) await new Promise((resolve) => setTimeout(resolve, EVENTS_BATCH_MS).unref());
    // Closed while it waited: no read on a connection on its way out (BullMQ's loop then ends).
    if (events.closing) return null;
    const data = await read(...args);
    brought = Array.isArray(data) && data.length > 0;
    return data;
  };
}
