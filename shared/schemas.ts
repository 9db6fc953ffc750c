// What each request may carry, as zod schemas. Only the engine loads this file at run time: it
// validates every request here, whichever transport brought it, so the same bad input is refused
// with the same words and the same `field` everywhere. Clients import its types only (see
// requests.ts), which keeps the schema library out of the CLI's start-up.
import { z } from 'zod';
import { JOB_STATES, type JobSpec } from './model.js';
import { jsonProblem } from './json-limits.js';
import { SPAN_LIMITS, SPAN_MAX_MS } from './span.js';
import { parseRedisUrl } from './redis-url.js';
import {
  BATCH_MAX,
  CAP_MAX,
  COMMAND_MAX_BYTES,
  DEFAULT_LANE,
  ENV_MAX_BYTES,
  JSON_DEPTH_MAX,
  LEDGER_KEEP,
  LEDGER_READ_DEFAULT,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  LOG_READ_DEFAULT,
  LOG_READ_MAX,
  MAX_ATTEMPTS_LIMIT,
  PAYLOAD_MAX_BYTES,
  SEARCH_MAX_CHARS,
  TIMELINE_SPAN_MS,
  TIMEOUT_MAX_SECONDS,
  AFTER_MAX,
  LABEL_MAX_CHARS,
  LABELS_MAX,
  PRIORITY_MAX,
  PRIORITY_MIN,
  SCHEDULE_MAX_MS,
} from './limits.js';

export const LANE_NAME = /^[a-z0-9-]{1,32}$/;

const laneName = z.string().regex(LANE_NAME, 'a lane name is 1–32 characters of a-z, 0-9 and "-"');

/**
 * A cap is the person's limit, not a promise: one above what the machine runs now is kept, and the
 * machine's own limits (cores, memory, battery) decide how many run, as status says.
 */
const capValue = z
  .number({ error: 'cap must be a number' })
  .int('cap must be a whole number')
  .min(0, 'cap cannot be negative')
  .max(CAP_MAX, `cap must be at most ${CAP_MAX}`);

const jobId = z.number().int().positive();

/** How long one run may take; at the limit the job fails and its processes are ended. */
const timeoutSeconds = z
  .number({ error: 'timeoutSeconds must be a number of seconds' })
  .positive('timeoutSeconds must be more than 0')
  .max(TIMEOUT_MAX_SECONDS, `timeoutSeconds must be at most ${TIMEOUT_MAX_SECONDS.toLocaleString('en-US')} (a week)`);

/** No program can be given a NUL byte: it would silently cut the string short. */
const text = z.string().refine((v) => !v.includes('\0'), 'must not contain a NUL byte');
const utf8Bytes = (v: string) => new TextEncoder().encode(v).length;
const tooBig = (what: string, max: number) => `${what} is larger than ${max.toLocaleString('en-US')} bytes, more than a program can be started with`;

const envAdditions = z.record(z.string(), text).superRefine((env, ctx) => {
  const bad = Object.keys(env).find((name) => name === '' || name.includes('=') || name.includes('\0'));
  if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `an environment variable name must be non-empty, without "=" or NUL; got ${JSON.stringify(bad)}` });
  const size = Object.entries(env).reduce((n, [k, v]) => n + utf8Bytes(k) + utf8Bytes(v) + 2, 0);
  if (size > ENV_MAX_BYTES) ctx.addIssue({ code: 'custom', message: tooBig('the environment', ENV_MAX_BYTES) });
});

/** Absolute on any platform the engine runs on: `/…`, `C:\…`, `\\server\…` (no `node:path` in a contract the window loads too). */
function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

/** A label: a word people filter by (`nightly`, `video:720p`), no spaces, so a shell line keeps it whole. */
export const LABEL = /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/;
const label = z
  .string()
  .max(LABEL_MAX_CHARS, `a label is at most ${LABEL_MAX_CHARS} characters`)
  .regex(LABEL, 'a label is letters, digits and . _ : / - (starting with a letter or digit), without spaces');

/** When and in what order a job runs, and what it is filed under: what an add and an edit both take. */
const ordering = {
  /** Runnable only once every one of these jobs has succeeded; one that fails or is cancelled fails this one. */
  after: z.array(jobId).max(AFTER_MAX, `a job can run after at most ${AFTER_MAX} jobs`).optional(),
  /** Not runnable for this many seconds from now. */
  delaySeconds: z
    .number({ error: 'delaySeconds must be a number of seconds' })
    .positive('delaySeconds must be more than 0')
    .max(SCHEDULE_MAX_MS / 1000, `delaySeconds must be at most ${SPAN_LIMITS.schedule.words}`)
    .optional(),
  /** Not runnable before this moment (ms since the epoch). */
  notBefore: z.number({ error: 'notBefore must be a time in ms since the epoch' }).int('notBefore must be a whole number of ms').positive('notBefore must be a time in ms since the epoch').optional(),
  /** Higher runs first within its lane; then oldest first. */
  priority: z
    .number({ error: 'priority must be a number' })
    .int('priority must be a whole number')
    .min(PRIORITY_MIN, `priority must be at least ${PRIORITY_MIN}`)
    .max(PRIORITY_MAX, `priority must be at most ${PRIORITY_MAX}`)
    .optional(),
  labels: z
    .array(label)
    .max(LABELS_MAX, `at most ${LABELS_MAX} labels per job`)
    .refine((l) => new Set(l).size === l.length, 'a label is given twice')
    .optional(),
};

/** A time given both ways, or one too far ahead. */
function checkTime(v: { delaySeconds?: number | undefined; notBefore?: number | null | undefined }, ctx: z.RefinementCtx): void {
  if (v.delaySeconds !== undefined && v.notBefore !== undefined && v.notBefore !== null) ctx.addIssue({ code: 'custom', path: ['delaySeconds'], message: 'give delaySeconds or notBefore, not both' });
  if (typeof v.notBefore === 'number' && v.notBefore > Date.now() + SCHEDULE_MAX_MS) ctx.addIssue({ code: 'custom', path: ['notBefore'], message: 'notBefore must be within a year from now' });
}

/** What a job runs and how: the fields an add takes and an edit may change, checked the same way. */
const commandFields = {
  /** A program and its arguments, run without a shell. */
  argv: z.array(text).min(1, 'command is empty').optional(),
  /** A command line for the person's shell. */
  shell: text.optional(),
  /** For lanes with a persistent worker command: one JSON value per job. */
  payload: z.unknown().optional(),
  /** An absolute directory; the engine checks that it exists when the job is added. */
  cwd: text.pipe(z.string().min(1)).refine(isAbsolutePath, { message: 'cwd must be an absolute directory' }).optional(),
  env: envAdditions.optional(),
  maxAttempts: z.number().int().min(1).max(MAX_ATTEMPTS_LIMIT).optional(),
  /** Default: the lane's timeout, if it has one. */
  timeoutSeconds: timeoutSeconds.optional(),
};

const addJob = z
  .object({
    ...ordering,
    lane: laneName.default(DEFAULT_LANE),
    ...commandFields,
  })
  .strict()
  .superRefine((v, ctx) => {
    const given = [v.argv !== undefined, v.shell !== undefined, v.payload !== undefined].filter(Boolean).length;
    if (given !== 1) {
      ctx.addIssue({ code: 'custom', path: ['argv'], message: 'give exactly one of argv, shell or payload' });
    }
    checkCommand(v, ctx);
    checkTime(v, ctx);
  });

/** What a command, a command line or a payload may be: the same for an add and an edit. */
function checkCommand(v: { argv?: string[] | undefined; shell?: string | undefined; payload?: unknown }, ctx: z.RefinementCtx): void {
  if (v.argv !== undefined && (v.argv[0] ?? '').trim() === '') {
    ctx.addIssue({ code: 'custom', path: ['argv'], message: 'command is empty' });
  }
  if (v.shell !== undefined && v.shell.trim() === '') {
    ctx.addIssue({ code: 'custom', path: ['shell'], message: 'command is empty' });
  }
  if (v.argv !== undefined && v.argv.reduce((n, word) => n + utf8Bytes(word) + 1, 0) > COMMAND_MAX_BYTES) {
    ctx.addIssue({ code: 'custom', path: ['argv'], message: tooBig('the command', COMMAND_MAX_BYTES) });
  }
  if (v.shell !== undefined && utf8Bytes(v.shell) > COMMAND_MAX_BYTES) {
    ctx.addIssue({ code: 'custom', path: ['shell'], message: tooBig('the command line', COMMAND_MAX_BYTES) });
  }
  const payload = v.payload === undefined ? null : jsonProblem(v.payload, { maxDepth: JSON_DEPTH_MAX, maxBytes: PAYLOAD_MAX_BYTES });
  if (payload) ctx.addIssue({ code: 'custom', path: ['payload'], message: `the payload ${payload}` });
}

/**
 * What a queued job may be changed to: any of an add's fields, each given replacing what it had
 * (`after: []` and `notBefore: null` clear). The command is one of argv, shell or payload, or none
 * to keep it; cwd and env apply to the command it ends up with.
 */
const editJob = z
  .object({
    id: z.number().int().positive(),
    ...commandFields,
    ...ordering,
    notBefore: ordering.notBefore.unwrap().nullable().optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    const given = [v.argv !== undefined, v.shell !== undefined, v.payload !== undefined].filter(Boolean).length;
    if (given > 1) ctx.addIssue({ code: 'custom', path: ['argv'], message: 'give at most one of argv, shell or payload' });
    checkCommand(v, ctx);
    checkTime(v, ctx);
    const { id: _id, ...changes } = v;
    if (Object.values(changes).every((c) => c === undefined)) ctx.addIssue({ code: 'custom', path: ['id'], message: 'nothing to change: give at least one field' });
  });

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

type AddJobInput = z.output<typeof addJob>;

/** The spec a checked add request describes: what is stored, and what a worker runs. */
export function specOfRequest(input: Pick<AddJobInput, 'argv' | 'shell' | 'payload' | 'cwd' | 'env'>): JobSpec {
  if (input.payload !== undefined) return { kind: 'payload', payload: input.payload };
  const where = { ...(input.cwd ? { cwd: input.cwd } : {}), ...(input.env ? { env: input.env } : {}) };
  return input.argv ? { kind: 'argv', argv: input.argv, ...where } : { kind: 'shell', script: input.shell!, ...where };
}

/**
 * A job spec loaded from anywhere (the API, SQLite, Redis), checked by the very rules an add
 * request is: one parse for every door, so a spec written straight into the store or the queue
 * gets no further than one sent to the API. Existence of its directory is the adder's check, not
 * this one's: a folder may go away after a job is queued, and then its run fails in words.
 */
export function parseSpec(value: unknown): { spec: JobSpec } | { problem: string } {
  const spec = value as Record<string, unknown> | null;
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return { problem: 'its spec is not an object' };
  const where = { ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}), ...(spec.env !== undefined ? { env: spec.env } : {}) };
  const known = spec.kind === 'argv' ? ['kind', 'argv', 'cwd', 'env'] : spec.kind === 'shell' ? ['kind', 'script', 'cwd', 'env'] : spec.kind === 'payload' ? ['kind', 'payload'] : null;
  if (known === null) return { problem: `its kind ${JSON.stringify(spec.kind)} is none of argv, shell or payload` };
  const unknown = Object.keys(spec).find((k) => !known.includes(k));
  if (unknown !== undefined) return { problem: `its spec has an unknown field "${unknown}"` };
  const request = spec.kind === 'argv' ? { argv: spec.argv, ...where } : spec.kind === 'shell' ? { shell: spec.script, ...where } : { payload: spec.payload };
  const parsed = addJob.safeParse(request);
  if (!parsed.success) return { problem: describeIssues(parsed.error) };
  return { spec: specOfRequest(parsed.data) };
}

/** A spec as stored (JSON text), parsed and checked. */
export function parseSpecJson(text: string): { spec: JobSpec } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'its spec is not JSON' };
  }
  return parseSpec(value);
}

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

/** The field a zod error is about: its first issue's path, and for an unknown key, that key. */
export function fieldOf(error: z.ZodError): string | undefined {
  const issue = error.issues[0];
  if (!issue) return undefined;
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
  return path.length > 0 ? path.join('.') : undefined;
}

/** One line per problem, naming the field: `cap: cap must be a whole number`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}
