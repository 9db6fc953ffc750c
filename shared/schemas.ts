// Runtime validation of everything that crosses a process boundary into the engine.
// The engine, the HTTP API, IPC and the CLI all validate with these same schemas, so a bad
// request is refused with the same words wherever it comes from.
import { z } from 'zod';
import { JOB_STATES } from './model.js';

export const LANE_NAME = /^[a-z0-9-]{1,32}$/;

export const laneName = z
  .string()
  .regex(LANE_NAME, 'a lane name is 1–32 characters of a-z, 0-9 and "-"');

/** The ceiling is only known at run time, so the engine checks the upper bound. */
export const capValue = z
  .number({ error: 'cap must be a number' })
  .int('cap must be a whole number')
  .min(0, 'cap cannot be negative');

export const jobId = z.number().int().positive();

const envAdditions = z.record(z.string().min(1), z.string());

export const addJobInput = z
  .object({
    lane: laneName.default('worker'),
    /** A program and its arguments, run without a shell. */
    argv: z.array(z.string()).min(1, 'command is empty').optional(),
    /** A command line for the person's shell. */
    shell: z.string().optional(),
    /** For lanes with a persistent worker command: one JSON value per job. */
    payload: z.unknown().optional(),
    cwd: z.string().min(1).optional(),
    env: envAdditions.optional(),
    maxAttempts: z.number().int().min(1).max(100).optional(),
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
export type AddJobInput = z.input<typeof addJobInput>;

/** Many jobs in one durable write: scripts queueing thousands should not pay a sync each. */
export const addJobsInput = z
  .object({ jobs: z.array(addJobInput).min(1, 'no jobs given').max(10_000, 'at most 10,000 jobs per call') })
  .strict();
export type AddJobsInput = z.input<typeof addJobsInput>;

export const listJobsInput = z
  .object({
    lane: laneName.optional(),
    state: z.enum(JOB_STATES as [string, ...string[]]).optional(),
    /** Newest first; pass the previous page's nextBeforeId to go on. */
    beforeId: jobId.optional(),
    limit: z.number().int().min(1).max(1000).default(100),
  })
  .strict();
export type ListJobsInput = z.input<typeof listJobsInput>;

export const jobRef = z.object({ id: jobId }).strict();

export const logTailInput = z
  .object({
    id: jobId,
    stream: z.enum(['stdout', 'stderr']).default('stdout'),
    /** Read from this byte offset; omitted means the last `maxBytes`. */
    offset: z.number().int().min(0).optional(),
    maxBytes: z.number().int().min(1).max(1_048_576).default(65_536),
  })
  .strict();
export type LogTailInput = z.input<typeof logTailInput>;

export const setCapInput = z.object({ lane: laneName, cap: capValue }).strict();
export type SetCapInput = z.input<typeof setCapInput>;

export const addLaneInput = z
  .object({
    name: laneName,
    class: z.enum(['cpu', 'ml']).default('cpu'),
    cap: capValue.optional(),
    /** argv of a long-lived worker that answers one JSON line per job. */
    workerCommand: z.array(z.string()).min(1).optional(),
    /** Absolute directory the worker command runs in; default: the home directory. */
    workerCwd: z.string().min(1).optional(),
  })
  .strict();
export type AddLaneInput = z.input<typeof addLaneInput>;

export const removeLaneInput = z.object({ name: laneName }).strict();

export const scaleEventsInput = z
  .object({
    lane: laneName.optional(),
    /** Only events with a larger id (to page forward). */
    afterId: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(10_000).default(200),
  })
  .strict();
export type ScaleEventsInput = z.input<typeof scaleEventsInput>;

export const timelineInput = z
  .object({
    lane: laneName.optional(),
    /** How far back, in ms; at most a day. */
    sinceMs: z.number().int().min(1000).max(86_400_000).default(3_600_000),
  })
  .strict();

export const emptyInput = z.object({}).strict();

/** One line per problem, naming the field: `cap: cap must be a whole number`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}
