// What each request may carry, as zod schemas. Only the engine loads this file at run time: it
// validates every request here, whichever transport brought it, so the same bad input is refused
// with the same words and the same `field` everywhere. Clients import its types only (see
// requests.ts), which keeps the schema library out of the CLI's start-up.
import { z } from 'zod';
import { JOB_STATES } from './model.js';
import { SPAN_MAX_MS } from './span.js';
import { parseRedisUrl } from './redis-url.js';
import {
  BATCH_MAX,
  LEDGER_KEEP,
  LEDGER_READ_DEFAULT,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  LOG_READ_DEFAULT,
  LOG_READ_MAX,
  SEARCH_MAX_CHARS,
  TIMELINE_SPAN_MS,
  TIMEOUT_MAX_SECONDS,
} from './limits.js';

import { addJob, capValue, editJob, jobId, label, laneName, text, timeoutSeconds } from './job-schemas.js';
export { LANE_NAME, LABEL, specOfRequest, parseSpec, parseSpecJson, fieldOf, describeIssues } from './job-schemas.js';

/** Where a lane's queue lives, when not in this engine's own store: shared on Redis (docs/shared-lanes.md). */
const sharedQueue = z
  .object({
    redis: z.string().superRefine((text, ctx) => {
      const parsed = parseRedisUrl(text);
      if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
    }),
    /** A Redis beyond this machine without a password: anyone who reaches it runs commands here. */
    insecure: z.boolean().optional(),
  })
  .strict();

const empty = z.object({}).strict();

/** Jobs named one by one, or chosen by lane, state and label; not neither (that would be every job). */
function bulk(states: [string, ...string[]]) {
  return z
    .object({
      ids: z.array(jobId).min(1).max(BATCH_MAX).optional(),
      lane: laneName.optional(),
      state: z.enum(states).optional(),
      /** Only jobs with this label. */
      label: label.optional(),
    })
    .strict()
    .refine((v) => v.ids !== undefined || v.lane !== undefined || v.state !== undefined || v.label !== undefined, { message: 'give ids, or a lane, a state or a label to choose jobs by', path: ['ids'] })
    .refine((v) => v.ids === undefined || (v.lane === undefined && v.state === undefined && v.label === undefined), { message: 'give ids, or a lane, a state and a label, not both', path: ['ids'] });
}
const jobRef = z.object({ id: jobId }).strict();

/** One schema per request name; requests.ts derives every request's input type from these. */
export const inputs = {
  status: empty,
  addJob,
  /** Many jobs in one durable write: scripts queueing thousands should not pay a sync each. */
  addJobs: z
    .object({ jobs: z.array(addJob).min(1, 'no jobs given').max(BATCH_MAX, `at most ${BATCH_MAX.toLocaleString('en-US')} jobs per call`) })
    .strict(),
  listJobs: z
    .object({
      lane: laneName.optional(),
      state: z.enum(JOB_STATES as [string, ...string[]]).optional(),
      /** Newest first (the default), or oldest first: the running and the longest-waiting on top. */
      order: z.enum(['newest', 'oldest']).default('newest'),
      /** Newest first: pass the previous page's nextBeforeId to go on. */
      beforeId: jobId.optional(),
      /** Oldest first: pass the previous page's nextAfterId to go on. */
      afterId: z.number().int().min(0).optional(),
      /** Only jobs whose command holds this text (any case). */
      text: text.pipe(z.string().min(1).max(SEARCH_MAX_CHARS)).optional(),
      /** Only jobs with this label. */
      label: label.optional(),
      /** Dependents: `after` waiting for the jobs they run after; `blocked` never ran, one of those failed or was cancelled; `excluded` leaves the blocked out. */
      dependents: z.enum(['after', 'blocked', 'excluded']).optional(),
      limit: z.number().int().min(1).max(LIST_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
    })
    .strict(),
  job: jobRef,
  logTail: z
    .object({
      id: jobId,
      /** `all`: both streams as they came, with a line between attempts. */
      stream: z.enum(['stdout', 'stderr', 'all']).default('stdout'),
      /** Read from this byte offset; omitted means the last `maxBytes`. */
      offset: z.number().int().min(0).optional(),
      maxBytes: z.number().int().min(1).max(LOG_READ_MAX).default(LOG_READ_DEFAULT),
    })
    .strict(),
  cancel: jobRef,
  retry: jobRef,
  /** A queued job changed before it runs: its command, where and how it runs, its order and time. */
  editJob,
  /** Finished jobs run again: as new jobs with the same spec, or (`inPlace`) queued again under their own ids. */
  restartJobs: z.object({ ids: z.array(jobId).min(1).max(BATCH_MAX), inPlace: z.boolean().default(false) }).strict(),
  /** Many at once: by ids, or every job of a lane and/or state. */
  cancelJobs: bulk(['queued', 'running']),
  retryJobs: bulk(['failed', 'cancelled']),
  /**
   * Hold all work — or one lane's (`lane`) — for a while (`forSeconds`), until a moment (`until`,
   * ms since the epoch: "until tomorrow" is the client's local morning), or until resumed: running
   * jobs finish, nothing new starts, caps stay.
   */
  pause: z
    .object({ forSeconds: z.number().positive().max(TIMEOUT_MAX_SECONDS).optional(), until: z.number().int().positive().optional(), lane: laneName.optional() })
    .strict(),
  /** Resume all work, or (`lane`) the one lane paused by itself. */
  resume: z.object({ lane: laneName.optional() }).strict(),
  /** Quiets a lane's nudge: for a while, or (no time) until its backlog has grown materially. */
  snoozeNudge: z.object({ lane: laneName, forSeconds: z.number().positive().max(TIMEOUT_MAX_SECONDS).optional() }).strict(),
  setCap: z.object({ lane: laneName, cap: capValue }).strict(),
  addLane: z
    .object({
      name: laneName,
      class: z.enum(['cpu', 'ml']).default('cpu'),
      cap: capValue.optional(),
      /** argv of a long-lived worker that answers one JSON line per job; the engine checks it can be found. */
      workerCommand: z.array(text).min(1).refine((argv) => (argv[0] ?? '').trim() !== '', 'the worker command is empty').optional(),
      /** Absolute directory the worker command runs in; default: the home directory. */
      workerCwd: text.pipe(z.string().min(1)).optional(),
      /** The timeout of its jobs that do not set their own. */
      timeoutSeconds: timeoutSeconds.optional(),
      /** Its queue is shared with other engines on this Redis; default: this engine's own store. */
      queue: sharedQueue.optional(),
    })
    .strict(),
  /** `cancel`: cancel what the lane still holds first, instead of refusing. */
  removeLane: z.object({ name: laneName, cancel: z.boolean().default(false) }).strict(),
  scaleEvents: z
    .object({
      lane: laneName.optional(),
      /** Only events with a larger id (to page forward). */
      afterId: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(LEDGER_KEEP).default(LEDGER_READ_DEFAULT),
    })
    .strict(),
  timeline: z
    .object({
      lane: laneName.optional(),
      /** How far back, in ms; at most the span the engine keeps. */
      sinceMs: z.number().int().min(1000).max(TIMELINE_SPAN_MS).default(TIMELINE_SPAN_MS),
    })
    .strict(),
  /** Finished jobs removed now, with their logs: of a lane and/or a final state, finished at least this long ago. */
  clean: z
    .object({
      lane: laneName.optional(),
      state: z.enum(['succeeded', 'failed', 'cancelled']).optional(),
      olderThanSeconds: z
        .number({ error: 'olderThanSeconds must be a number of seconds' })
        .min(0, 'olderThanSeconds cannot be negative')
        .max(SPAN_MAX_MS / 1000, `olderThanSeconds must be at most ${(SPAN_MAX_MS / 1000).toLocaleString('en-US')} (ten years)`)
        .optional(),
    })
    .strict(),
  cleanedJob: jobRef,
} as const;

export type Inputs = typeof inputs;
