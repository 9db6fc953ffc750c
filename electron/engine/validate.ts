// Every request is checked against the contract's schema before the engine acts on it, whichever
// transport brought it: one validator, so the same bad input is refused with the same message and
// the same `field` over HTTP, IPC and in-process calls.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import { describeIssues, fieldOf, inputs } from '../../shared/schemas.js';
import { isRequestName, type ParsedInput, type RequestName } from '../../shared/requests.js';
import { badRequest, notFound } from '../../shared/errors.js';
import { unrepresentable } from '../../shared/json-limits.js';
import { BATCH_MAX } from '../../shared/limits.js';

export function validate<K extends RequestName>(name: K, input: unknown): ParsedInput<K> {
  if (!isRequestName(name)) throw notFound(`no request named ${String(name)}`);
  // Before the schema: what it cannot represent would be changed by it (a key dropped, a character replaced), not refused.
  const odd = unrepresentable(input);
  if (odd) throw badRequest(odd.path ? `${odd.path}: ${odd.problem}` : odd.problem, odd.path || undefined);
  const result = inputs[name].safeParse(input ?? {});
  if (!result.success) throw badRequest(describeIssues(result.error), fieldOf(result.error));
  return result.data as ParsedInput<K>;
}

/**
 * Jobs of an addJobs checked at a time, with a turn of the event loop between: ten thousand at
 * once held the engine for the best part of a hundred milliseconds (and status with it).
 */
const SLICE = 1_000;

/** The same check as `validate`, an addJobs of many a slice of jobs at a time; the same words for the same input. */
export async function validateInTurns<K extends RequestName>(name: K, input: unknown): Promise<ParsedInput<K>> {
  const jobs = name === 'addJobs' && typeof input === 'object' && input !== null ? (input as { jobs?: unknown }).jobs : undefined;
  if (!Array.isArray(jobs) || jobs.length <= SLICE || jobs.length > BATCH_MAX) return validate(name, input);
  // The request around the jobs, with the first of them; then every slice, its paths counted from the whole.
  const whole = validate('addJobs', { ...(input as object), jobs: jobs.slice(0, 1) });
  const checked: ParsedInput<'addJobs'>['jobs'] = [];
  for (let i = 0; i < jobs.length; i += SLICE) {
    await nextTurn();
    checked.push(...checkSlice(jobs.slice(i, i + SLICE), i));
  }
  return { ...whole, jobs: checked } as ParsedInput<K>;
}

function checkSlice(slice: unknown[], from: number): ParsedInput<'addJobs'>['jobs'] {
  const at = (path: PropertyKey[]) => ['jobs', from + Number(path[0]), ...path.slice(1)];
  const odd = unrepresentable(slice);
  if (odd) {
    const path = at(odd.path.split('.')).join('.');
    throw badRequest(`${path}: ${odd.problem}`, path);
  }
  const result = inputs.addJobs.shape.jobs.safeParse(slice);
  if (result.success) return result.data;
  const error = new z.ZodError(result.error.issues.map((issue) => ({ ...issue, path: at(issue.path) })));
  throw badRequest(describeIssues(error), fieldOf(error));
}
