// The checks of a job's fields and of its stored spec: what an add and an edit take, and the one
// parse every spec gets wherever it comes from (a request, the store, Redis). schemas.ts builds
// the requests from these; plain zod, so the renderer can load it too.
import { z } from 'zod';
import type { JobSpec } from './job-model.js';
import { jsonProblem } from './json-limits.js';
import { SPAN_LIMITS } from './span.js';
import {
  CAP_MAX,
  COMMAND_MAX_BYTES,
  DEFAULT_LANE,
  ENV_MAX_BYTES,
  JSON_DEPTH_MAX,
  MAX_ATTEMPTS_LIMIT,
  PAYLOAD_MAX_BYTES,
  TIMEOUT_MAX_SECONDS,
  AFTER_MAX,
  LABEL_MAX_CHARS,
  LABELS_MAX,
  PRIORITY_MAX,
  PRIORITY_MIN,
  SCHEDULE_MAX_MS,
} from './limits.js';

export const LANE_NAME = /^[a-z0-9-]{1,32}$/;

export const laneName = z.string().regex(LANE_NAME, 'a lane name is 1–32 characters of a-z, 0-9 and "-"');

/**
 * A cap is the person's limit, not a promise: one above what the machine runs now is kept, and the
 * machine's own limits (cores, memory, battery) decide how many run, as status says.
 */
export const capValue = z
  .number({ error: 'cap must be a number' })
  .int('cap must be a whole number')
  .min(0, 'cap cannot be negative')
  .max(CAP_MAX, `cap must be at most ${CAP_MAX}`);

export const jobId = z.number().int().positive();

/** How long one run may take; at the limit the job fails and its processes are ended. */
export const timeoutSeconds = z
  .number({ error: 'timeoutSeconds must be a number of seconds' })
  .positive('timeoutSeconds must be more than 0')
  .max(TIMEOUT_MAX_SECONDS, `timeoutSeconds must be at most ${TIMEOUT_MAX_SECONDS.toLocaleString('en-US')} (a week)`);

/** No program can be given a NUL byte: it would silently cut the string short. */
export const text = z.string().refine((v) => !v.includes('\0'), 'must not contain a NUL byte');
export const utf8Bytes = (v: string) => new TextEncoder().encode(v).length;
export const tooBig = (what: string, max: number) => `${what} is larger than ${max.toLocaleString('en-US')} bytes, more than a program can be started with`;

export const envAdditions = z.record(z.string(), text).superRefine((env, ctx) => {
  const bad = Object.keys(env).find((name) => name === '' || name.includes('=') || name.includes('\0'));
  if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `an environment variable name must be non-empty, without "=" or NUL; got ${JSON.stringify(bad)}` });
  const size = Object.entries(env).reduce((n, [k, v]) => n + utf8Bytes(k) + utf8Bytes(v) + 2, 0);
  if (size > ENV_MAX_BYTES) ctx.addIssue({ code: 'custom', message: tooBig('the environment', ENV_MAX_BYTES) });
});

/** Absolute on any platform the engine runs on: `/…`, `C:\…`, `\\server\…` (no `node:path` in a contract the window loads too). */
export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

/** A label: a word people filter by (`nightly`, `video:720p`), no spaces, so a shell line keeps it whole. */
export const LABEL = /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/;
export const label = z
  .string()
  .max(LABEL_MAX_CHARS, `a label is at most ${LABEL_MAX_CHARS} characters`)
  .regex(LABEL, 'a label is letters, digits and . _ : / - (starting with a letter or digit), without spaces');

/** When and in what order a job runs, and what it is filed under: what an add and an edit both take. */
export const ordering = {
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
export function checkTime(v: { delaySeconds?: number | undefined; notBefore?: number | null | undefined }, ctx: z.RefinementCtx): void {
  if (v.delaySeconds !== undefined && v.notBefore !== undefined && v.notBefore !== null) ctx.addIssue({ code: 'custom', path: ['delaySeconds'], message: 'give delaySeconds or notBefore, not both' });
  if (typeof v.notBefore === 'number' && v.notBefore > Date.now() + SCHEDULE_MAX_MS) ctx.addIssue({ code: 'custom', path: ['notBefore'], message: 'notBefore must be within a year from now' });
}

/** What a job runs and how: the fields an add takes and an edit may change, checked the same way. */
export const commandFields = {
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

export const addJob = z
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
export function checkCommand(v: { argv?: string[] | undefined; shell?: string | undefined; payload?: unknown }, ctx: z.RefinementCtx): void {
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
export const editJob = z
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
