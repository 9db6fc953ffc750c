// What each request may carry, as zod schemas. Only the engine loads this file at run time: it
// validates every request here, whichever transport brought it, so the same bad input is refused
// with the same words and the same `field` everywhere. Clients import its types only (see
// requests.ts), which keeps the schema library out of the CLI's start-up.
import { z } from 'zod';
import { JOB_STATES } from './model.js';
import {
  BATCH_MAX,
  DEFAULT_LANE,
  LEDGER_KEEP,
  LEDGER_READ_DEFAULT,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  LOG_READ_DEFAULT,
  LOG_READ_MAX,
  MAX_ATTEMPTS_LIMIT,
  TIMELINE_SPAN_MS,
} from './limits.js';

export const LANE_NAME = /^[a-z0-9-]{1,32}$/;

const laneName = z.string().regex(LANE_NAME, 'a lane name is 1–32 characters of a-z, 0-9 and "-"');

/** The ceiling is only known at run time, so the engine checks the upper bound. */
const capValue = z
  .number({ error: 'cap must be a number' })
  .int('cap must be a whole number')
  .min(0, 'cap cannot be negative');

const jobId = z.number().int().positive();

const envAdditions = z.record(z.string().min(1), z.string());

const addJob = z
  .object({
    lane: laneName.default(DEFAULT_LANE),
    /** A program and its arguments, run without a shell. */
    argv: z.array(z.string()).min(1, 'command is empty').optional(),
    /** A command line for the person's shell. */
    shell: z.string().optional(),
    /** For lanes with a persistent worker command: one JSON value per job. */
    payload: z.unknown().optional(),
    cwd: z.string().min(1).optional(),
    env: envAdditions.optional(),
    maxAttempts: z.number().int().min(1).max(MAX_ATTEMPTS_LIMIT).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    const given = [v.argv !== undefined, v.shell !== undefined, v.payload !== undefined].filter(Boolean).length;
    if (given !== 1) {
      ctx.addIssue({ code: 'custom', path: ['argv'], message: 'give exactly one of argv, shell or payload' });
    }
    if (v.argv !== undefined && (v.argv[0] ?? '').trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['argv'], message: 'command is empty' });
    }
    if (v.shell !== undefined && v.shell.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['shell'], message: 'command is empty' });
    }
  });

const empty = z.object({}).strict();
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
      /** Newest first; pass the previous page's nextBeforeId to go on. */
      beforeId: jobId.optional(),
      limit: z.number().int().min(1).max(LIST_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
    })
    .strict(),
  job: jobRef,
  logTail: z
    .object({
      id: jobId,
      stream: z.enum(['stdout', 'stderr']).default('stdout'),
      /** Read from this byte offset; omitted means the last `maxBytes`. */
      offset: z.number().int().min(0).optional(),
      maxBytes: z.number().int().min(1).max(LOG_READ_MAX).default(LOG_READ_DEFAULT),
    })
    .strict(),
  cancel: jobRef,
  retry: jobRef,
  setCap: z.object({ lane: laneName, cap: capValue }).strict(),
  addLane: z
    .object({
      name: laneName,
      class: z.enum(['cpu', 'ml']).default('cpu'),
      cap: capValue.optional(),
      /** argv of a long-lived worker that answers one JSON line per job. */
      workerCommand: z.array(z.string()).min(1).optional(),
      /** Absolute directory the worker command runs in; default: the home directory. */
      workerCwd: z.string().min(1).optional(),
    })
    .strict(),
  removeLane: z.object({ name: laneName }).strict(),
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
} as const;

export type Inputs = typeof inputs;

/** The field a zod error is about: its first issue's path, or the first unknown key. */
export function fieldOf(error: z.ZodError): string | undefined {
  const issue = error.issues[0];
  if (!issue) return undefined;
  if (issue.path.length > 0) return issue.path.join('.');
  return issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
}

/** One line per problem, naming the field: `cap: cap must be a whole number`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}
